"""Which language a page and a mail speak (issue 14).

A page speaks the person's own choice (his profile's language when he is logged in, else the
language cookie), then on a club's pages the club's language, then the first of the browser's
Accept-Language that LANGUAGES lists, then LANGUAGE_CODE (English). A mail speaks its
recipient's choice, else his club's language, else the language of the page that sent it.

Django's LocaleMiddleware knows no club: the club is known only once the URL is resolved, so
the decision is made in `process_view`. Before that, `__call__` uses what the browser sends, so
that a page which never reaches a view (a 404) speaks something sensible too.

None of this costs a page a query of its own (issue 17): the person's choice is kept in his
login session (written when he logs in and when he switches; a session older than that reads
his profile once), and the club's language comes with the membership and club that
`scorebook.access` loads for every club page anyway, which speaks it (`speak_the_clubs`).
"""

from __future__ import annotations

from django.conf import settings
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


# The person's own language in his login session: a code, or "" for no choice of his own.
SESSION_KEY = "scorebook_language"


def own_language(request) -> str | None:
    """The language a logged-in person chose (his profile's), or None: read from his login
    session, which keeps it from logging in on; a session that has none yet (logged in before
    it was kept there) reads the profile once."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return None
    if SESSION_KEY not in request.session:
        keep_own_language(request, _profile_language(user))
    return supported(request.session[SESSION_KEY])


def keep_own_language(request, code: str | None) -> None:
    request.session[SESSION_KEY] = code or ""


def _profile_language(user) -> str | None:
    return Profile.objects.filter(user=user).values_list("language", flat=True).first()


def page_language(request) -> tuple[str, bool]:
    """The language of a page before its club is known, and whether it is the person's own
    choice (his profile's, else the cookie's): only a page without one speaks its club's."""
    chosen = own_language(request) or cookie_language(request)
    # Without a choice, Django's own order: the cookie (known to be unusable here), the
    # browser's Accept-Language, LANGUAGE_CODE.
    return chosen or translation.get_language_from_request(request), chosen is not None


def speak_the_clubs(request, club: Club) -> None:
    """On a club's page, to a member who chose no language: the club's. Called once his
    membership is found (scorebook.access), so that a stranger's 404 never speaks it and
    tells him, by its language, that the club exists."""
    if getattr(request, "language_is_chosen", True):  # chosen; or no LanguageMiddleware ran
        return
    code = supported(club.language)
    if code:
        _speak(request, code)


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
        # A public page speaks the language of its address to everybody: it varies on neither.
        if not getattr(request, "public_page", False):
            patch_vary_headers(response, ("Accept-Language", "Cookie"))
        response.headers.setdefault("Content-Language", request.LANGUAGE_CODE)
        return response

    def process_view(self, request, view_func, view_args, view_kwargs):
        if getattr(view_func, "public_page", False):
            # scorebook.public: the address says the language; neither the login session
            # nor the cookie is read, so nothing of the visitor shapes the page.
            request.public_page = True
            code = supported(view_kwargs.get("lang"))
            if code:
                _speak(request, code)
            return
        code, request.language_is_chosen = page_language(request)
        _speak(request, code)


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
        keep_own_language(request, chosen)
    return response


def keep_the_cookies_choice(sender, request, user, **kwargs) -> None:
    """On logging in, a language chosen before (the cookie) becomes the profile's, unless the
    profile has one already: then the profile's wins, as on every page. Either is kept in the
    new login session, where every page reads it."""
    chosen = cookie_language(request) if request is not None else None
    if not chosen:
        own = _profile_language(user)
    else:
        profile, created = Profile.objects.get_or_create(user=user, defaults={"language": chosen})
        if not created and not profile.language:
            profile.language = chosen
            profile.save(update_fields=["language"])
        own = profile.language
    if request is not None and hasattr(request, "session"):
        keep_own_language(request, own)


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
