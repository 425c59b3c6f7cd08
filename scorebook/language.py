"""Which language a page and a mail speak (issue 14).

A page speaks the person's own choice (his profile's language when he is logged in, else the
language cookie), then on a club's pages the club's language, then the first of the browser's
Accept-Language that LANGUAGES lists, then LANGUAGE_CODE (English). A mail speaks its
recipient's choice, else his club's language, else the language of the page that sent it.

Django's LocaleMiddleware knows no club: the club is known only once the URL is resolved, so
the decision is made in `process_view`. Before that, `__call__` uses what the browser sends, so
that a page which never reaches a view (a 404) speaks something sensible too.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import OuterRef, Subquery
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.views.i18n import set_language as django_set_language

from scorebook.models import Club, Membership, Profile


def supported(code: str | None) -> str | None:
    """`code` as one of LANGUAGES ("de-AT" -> "de"), or None for no code or a bogus one."""
    if not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


def cookie_language(request) -> str | None:
    return supported(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME))


def saved_languages(user, club_slug: str | None) -> tuple[str | None, str | None]:
    """The person's profile language and, on a club's page, that club's: one query.

    The club's counts only for its members: anybody else gets its 404, which must not tell
    him, by its language, that the club exists.
    """
    if user is None or not user.is_authenticated:
        return None, None
    if club_slug is None:
        return Profile.objects.filter(user=user).values_list("language", flat=True).first(), None
    own = Subquery(Profile.objects.filter(user=OuterRef("pk")).values("language"))
    club = Subquery(
        Club.objects.filter(slug=club_slug, memberships__user=OuterRef("pk")).values("language")[:1]
    )
    found = get_user_model().objects.filter(pk=user.pk).values_list(own, club).first()
    return found if found is not None else (None, None)


def page_language(request, club_slug: str | None) -> str:
    """The language of this page, in the order the module's docstring gives."""
    own, club = saved_languages(getattr(request, "user", None), club_slug)
    chosen = supported(own) or cookie_language(request) or supported(club)
    # Without a choice or a club, Django's own order: the cookie (known to be unusable here),
    # the browser's Accept-Language, LANGUAGE_CODE.
    return chosen or translation.get_language_from_request(request)


def _speak(request, code: str) -> None:
    translation.activate(code)
    request.LANGUAGE_CODE = translation.get_language()


class LanguageMiddleware:
    """Django's LocaleMiddleware with the profile before the cookie and the club after it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        _speak(request, translation.get_language_from_request(request))
        response = self.get_response(request)
        # A cache must not hand one person's language to another (the cookie, the session).
        patch_vary_headers(response, ("Accept-Language", "Cookie"))
        response.headers.setdefault("Content-Language", request.LANGUAGE_CODE)
        return response

    def process_view(self, request, view_func, view_args, view_kwargs):
        club = view_kwargs.get("club")
        _speak(request, page_language(request, club if isinstance(club, str) else None))


def forget_the_pages_language(**kwargs) -> None:
    """Once a response is sent (a streamed one to its end), the thread speaks LANGUAGE_CODE
    again: what it runs next (another test, say) does not inherit the last page's language."""
    translation.deactivate()


def set_language(request):
    """Django's set_language (the cookie, a `next` on this site only), and for a person who is
    logged in his profile too: his choice follows him to another phone and past a log-out."""
    response = django_set_language(request)
    # What Django accepted (it sets the cookie), narrowed to the languages the site speaks.
    cookie = response.cookies.get(settings.LANGUAGE_COOKIE_NAME)
    chosen = supported(cookie.value) if cookie is not None else None
    if chosen and request.user.is_authenticated:
        Profile.objects.update_or_create(user=request.user, defaults={"language": chosen})
    return response


def keep_the_cookies_choice(sender, request, user, **kwargs) -> None:
    """On logging in, a language chosen before (the cookie) becomes the profile's, unless the
    profile has one already: then the profile's wins, as on every page."""
    chosen = cookie_language(request) if request is not None else None
    if not chosen:
        return
    profile, created = Profile.objects.get_or_create(user=user, defaults={"language": chosen})
    if not created and not profile.language:
        profile.language = chosen
        profile.save(update_fields=["language"])


def mail_language(user, club: Club | None = None) -> str:
    """The language of a mail to `user`: his own choice, else the club's (the one given, or
    the first he joined), else the language of the page that sends it."""
    own = supported(Profile.objects.filter(user=user).values_list("language", flat=True).first())
    if own:
        return own
    if club is None:
        first = (
            Membership.objects.filter(user=user)
            .select_related("club")
            .order_by("created_at", "pk")
            .first()
        )
        club = first.club if first is not None else None
    club_language = supported(club.language) if club is not None else None
    return club_language or translation.get_language() or settings.LANGUAGE_CODE
