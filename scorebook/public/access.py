"""Who sees a public page, and how a cache in front keeps it (issue 30).

Every public view is wrapped in `public_view`: it answers anonymous visitors alike, reads
nothing of the visitor (no login session, user, messages or CSRF cookie, so no `Vary:
Cookie`; the language comes from the address, scorebook.language), and finds the club and
whether it publishes the page in one query. That query's row also carries when anything the
club's pages show last changed (`_with_stamp`), from which the page's ETag and Last-Modified
are made: a conditional GET of an unchanged page answers 304 after it alone.

The page rendered is kept in the cache under its ETag for its max-age: a thousand viewers of
a live page cost the server one rendering each time the tournament changes, not a thousand.

A club that does not publish the page, an unknown club and a bad language answer 404, never
403: nobody learns that the club or the page exists.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from functools import wraps

from csp.constants import NONE
from django.conf import settings
from django.core.cache import cache
from django.db.models import F, Max, OuterRef, Subquery
from django.db.models.functions import Coalesce, Greatest
from django.http import Http404, HttpRequest, HttpResponse
from django.template import loader
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.views.decorators.http import condition, require_safe

from scorebook.league.models import LeagueSession, StaleFamily
from scorebook.models import Club

# Seconds a cache may keep a page: a live tournament page a few, the rest a few minutes.
LIVE_MAX_AGE = 5
PAGE_MAX_AGE = 300
# Part of every ETag: a new release may render the same data differently.
PAGES_VERSION = "1"

LANGUAGE_CODES = frozenset(code for code, _name in settings.LANGUAGES)

# Which of the club's publish_<what> switches opens a page: any one of them.
Publishes = Iterable[str]


def published_club(request: HttpRequest, slug: str, publishes: Publishes) -> Club | None:
    """The club of the address if it publishes one of `publishes`: read once a request."""
    cache = request.__dict__.setdefault("_public_clubs", {})
    if slug not in cache:
        cache[slug] = (
            _with_stamp(Club.objects.filter(slug=slug)).first() if len(slug) <= 50 else None
        )
    club = cache[slug]
    if club is None or not any(getattr(club, f"publish_{what}") for what in publishes):
        return None
    return club


def _newest(model, field: str) -> Coalesce:
    newest = (
        model.objects.filter(club=OuterRef("pk"))
        .order_by()
        .values("club")
        .annotate(newest=Max(field))
        .values("newest")
    )
    return Coalesce(Subquery(newest), F("changed_at"))


def _with_stamp(clubs):
    """Each club with `stamp`: when anything its public pages show last changed. Its own
    `changed_at` (scorebook.public.signals), and its hands' newest change as the league knows
    it: the stale mark a save leaves, or, once rebuilt, the newest change the rebuild saw."""
    return clubs.annotate(
        stamp=Greatest(
            F("changed_at"),
            _newest(StaleFamily, "marked_at"),
            _newest(LeagueSession, "last_changed"),
        )
    )


def _etag(request: HttpRequest, club: Club, daily: bool) -> str:
    parts = [PAGES_VERSION, club.stamp.isoformat(), request.get_full_path()]
    if daily:  # what is upcoming and what is past changes with the day
        parts.append(timezone.localdate().isoformat())
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:32]


def public_view(
    *publishes: str, max_age: int = PAGE_MAX_AGE, daily: bool = False, framed: bool = False
) -> Callable:
    """A public page of the club in the address, open when the club publishes any of
    `publishes` ("club", "sessions", "league", "tournaments", "series"). The view gets
    `request.club`; the language of `lang` is already spoken (scorebook.language).

    `framed`: the page may be framed by the sites the club names (and by no other), its 304
    answers too, since a browser takes a 304's headers for the page it keeps."""

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        def club_of(request, club, lang=None, **kwargs):
            if lang is not None and lang not in LANGUAGE_CODES:
                return None
            return published_club(request, club, publishes)

        def etag(request, *args, **kwargs):
            found = club_of(request, *args, **kwargs)
            return None if found is None else _etag(request, found, daily)

        def last_modified(request, *args, **kwargs):
            found = club_of(request, *args, **kwargs)
            return None if found is None else found.stamp

        @condition(etag_func=etag, last_modified_func=last_modified)
        def conditional(request, club, lang=None, **kwargs):
            found = club_of(request, club, lang)
            if found is None:
                raise Http404
            key = f"public-page:{_etag(request, found, daily)}"
            kept = cache.get(key)
            if kept is not None:  # rendered by this server since the club last changed
                return HttpResponse(kept[0], content_type=kept[1])
            request.club = found
            response = view(request, lang=lang, **kwargs) if lang else view(request, **kwargs)
            if response.status_code == 200 and not response.streaming:
                cache.set(key, (response.content, response["Content-Type"]), max_age)
            return response

        @require_safe
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            response = conditional(request, *args, **kwargs)
            patch_cache_control(response, public=True, max_age=max_age)
            if framed and response.status_code in (200, 304):
                allow_framing(response, club_of(request, *args, **kwargs))
            return response

        wrapper.public_page = True  # scorebook.language speaks the address's language
        wrapper.publishes = publishes  # the tests read it
        return wrapper

    return decorator


def frame_ancestors(club: Club) -> list[str]:
    """The club's sites allowed to frame its embeddable standings; none: 'none'."""
    sites = [line.strip() for line in club.frame_sites.splitlines() if line.strip()]
    return sites or [NONE]


def allow_framing(response: HttpResponse, club: Club) -> None:
    response.xframe_options_exempt = True  # X-Frame-Options off: CSP frame-ancestors decides
    response._csp_replace = {"frame-ancestors": frame_ancestors(club)}  # django-csp


def render_public(
    template: str, context: dict, *, content_type: str = "text/html; charset=utf-8"
) -> HttpResponse:
    """A public page rendered without the request's context processors: they would read the
    login session (the user, the messages) and make the page vary on the visitor's cookie."""
    return HttpResponse(loader.render_to_string(template, context), content_type=content_type)
