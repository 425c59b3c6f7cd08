"""What every public page shows around its content, and the tournament pages' data.

Addresses are `/p/<club>/<lang>/…`; each page links itself in the other languages, the
privacy notice, the feeds and the login for members. Names come from the page's Naming.
"""

from __future__ import annotations

from django.conf import settings
from django.http import Http404
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from scorebook.models import LARGEST_ID, Club, Session
from scorebook.public import seams
from scorebook.public.naming import Naming
from scorebook.tournaments import services as tournaments
from scorebook.tournaments.models import Registration, Status, Tournament

LANGUAGES = settings.LANGUAGES
UPCOMING = (Status.SCHEDULED, Status.RUNNING)


def url(name: str, club: Club, lang: str, **kwargs) -> str:
    return reverse(f"public:{name}", kwargs={"club": club.slug, "lang": lang, **kwargs})


def tournament_url(club: Club, lang: str, tournament: Tournament) -> str:
    if not club.publish_tournaments:
        return ""
    return url("tournament", club, lang, tournament=tournament.pk)


def with_seat_names(session: Session) -> Session:
    """The session's seat_names from its prefetched seats (no query of its own)."""
    seats = sorted(session.seats.all(), key=lambda seat: seat.position)
    session.__dict__["seat_names"] = {seat.player.name: seat.player_id for seat in seats}
    return session


def _alternates(request) -> list[tuple[str, str, str]]:
    """(code, language's name, address) of this page in each language."""
    match = request.resolver_match
    query = request.GET.urlencode()
    out = []
    for code, name in LANGUAGES:
        address = reverse(match.view_name, kwargs={**match.kwargs, "lang": code})
        out.append((code, name, address + (f"?{query}" if query else "")))
    return out


def _sections(club: Club, lang: str) -> list[tuple[str, str, str]]:
    """(page, title, address) of each part the club publishes: the pages' own menu."""
    parts = [
        ("club", club.publish_club, _("Club"), "club"),
        ("sessions", club.publish_sessions, _("Sessions"), "sessions"),
        ("standings", club.publish_league, _("Standings"), "standings"),
        ("tournaments", club.publish_tournaments, _("Tournaments"), "tournaments"),
        # One entry for every series: the club's page lists each (public.series.series_pages).
        ("series", club.publish_series, _("Series"), "series_list"),
    ]
    return [(page, title, url(name, club, lang)) for page, on, title, name in parts if on]


def context(request, page: str, *, title: str = "", description: str = "") -> dict:
    club = request.club
    lang = translation.get_language()
    title = title or club.name
    return {
        "club": club,
        "lang": lang,
        "page": page,
        "title": title,
        "description": description or title,
        "canonical": request.build_absolute_uri(request.path),
        "alternates": _alternates(request),
        "sections": _sections(club, lang),
        "privacy_url": url("privacy", club, lang),
        "feed_url": url("feed", club, lang)
        if club.publish_sessions or club.publish_tournaments
        else "",
        "calendar_url": url("calendar", club, lang)
        if club.publish_club or club.publish_tournaments
        else "",
        "login_url": reverse("login")
        + "?next="
        + reverse("scorebook:club_home", kwargs={"club": club.slug}),
        "og_locale": {"sl": "sl_SI", "cs": "cs_CZ", "de": "de_AT", "fr": "fr_FR"}.get(
            lang, "en_GB"
        ),
    }


def address_id(value: int) -> int:
    """A number of a public address, refused (404) above what a database id can be."""
    if value > LARGEST_ID:
        raise Http404
    return value


def tournament_of(club: Club, pk: int) -> Tournament:
    found = club.tournaments.filter(pk=pk).exclude(status=Status.CANCELLED).first()
    if found is None:
        raise Http404
    found.club = club
    return found


def tournament_naming(tournament: Tournament) -> Naming:
    """The club's names, and the registrants whose player the start has not found yet."""
    from scorebook.public.models import RegistrationName, Shown

    waiting = Registration.objects.filter(tournament=tournament, player=None).exclude(user=None)
    chosen = dict(
        RegistrationName.objects.filter(registration__in=waiting).values_list(
            "registration_id", "shown"
        )
    )
    extra = [
        (("registration", r.pk), r.user.get_full_name(), chosen.get(r.pk, Shown.HIDDEN))
        for r in waiting.select_related("user")
    ]
    return Naming(tournament.club, extra)


def tournament_context(request, tournament: Tournament) -> dict:
    naming = tournament_naming(tournament)
    lang = translation.get_language()
    active = tournament.registrations.filter(cancelled_at=None, has_place=True).order_by("pk")
    registered = sorted(naming.registration(r) for r in active)
    description = _("%(game)s · %(date)s") % {
        "game": tournament.variant_label,
        "date": tournament.local_start().strftime("%Y-%m-%d %H:%M"),
    }
    out = context(request, "tournament", title=tournament.name, description=description)
    out.update(
        tournament=tournament,
        registered=registered,
        live_url=url("live", tournament.club, lang, tournament=tournament.pk),
        ranking=_ranking(tournament, naming) if tournament.status == Status.FINISHED else [],
    )
    return out


def _ranking(tournament: Tournament, naming: Naming) -> list[dict]:
    if tournament.is_knockout:
        return [
            {"rank": rank, "name": naming.registration(r), "reached": reached}
            for rank, r, reached in tournaments.knockout_ranking(tournament)
        ]
    return [_standing(s, naming, False) for s in tournaments.standings(tournament)]


def _standing(s, naming: Naming, provisional: bool) -> dict:
    return {
        "rank": s.rank,
        "name": naming.registration(s.registration),
        "placement_points": s.points,
        "units": s.units,
        "best": s.best_place,
        "at_table": s.at_table,
        "provisional": provisional and s.at_table is not None,
    }


def live_context(request, tournament: Tournament, page: str) -> dict:
    """The live page: the current round's tables with how far each has played, and the
    standings; a table with a hand waiting for its confirmation is marked provisional."""
    naming = tournament_naming(tournament)
    lang = translation.get_language()
    rounds = tournaments.draw(tournament)[:1]  # the latest round
    tables, byes, provisional = [], [], False
    for _round, drawn, bye in rounds:
        for d in drawn:
            waiting = seams.is_provisional(d.table.session_id)
            provisional = provisional or waiting
            tables.append(
                {
                    "number": d.table.number,
                    "finished": d.table.finished_at is not None,
                    "played": d.hands_played,
                    "provisional": waiting,
                    "players": [
                        {"name": naming.registration(p.registration), "place": p.place}
                        for p in d.placements
                    ],
                }
            )
        byes = [naming.registration(p.registration) for p in bye]
    rows = [] if tournament.is_knockout else tournaments.standings(tournament)
    out = context(request, page, title=tournament.name, description=tournament.variant_label)
    out.update(
        tournament=tournament,
        round=rounds[0][0] if rounds else None,
        tables=tables,
        byes=byes,
        standings=[_standing(s, naming, provisional) for s in rows],
        running=tournament.status == Status.RUNNING,
        part_url=url("live_part", tournament.club, lang, tournament=tournament.pk),
        live_url=url("live", tournament.club, lang, tournament=tournament.pk),
        projector_url=url("projector", tournament.club, lang, tournament=tournament.pk),
        tournament_url=url("tournament", tournament.club, lang, tournament=tournament.pk),
    )
    return out
