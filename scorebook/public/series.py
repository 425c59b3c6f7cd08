"""A club's series in public (issue 30): its list, each series with its current season, and
each season's standing or rating list, read through scorebook.series' own reading (no
standing is computed here).

Only the club's own series are its public pages; a series of another club that one of the
club's tournaments is in is that club's to publish. A series spans clubs: every person in a
standing is named through one Naming that knows the other clubs' players too
(scorebook.public.naming: each by his own choice there, hidden if nobody chose).
"""

from __future__ import annotations

from django.http import Http404
from django.utils import translation
from django.utils.translation import gettext as _

from scorebook.models import Club
from scorebook.public import pages
from scorebook.public.access import public_view, render_public
from scorebook.public.naming import Naming
from scorebook.series import compute, reading, services
from scorebook.series.models import Series, SeriesSeason


def series_pages(club: Club, lang: str) -> list[tuple[str, str]]:
    """(name, address) of each of the club's series, when the club publishes them."""
    if not club.publish_series:
        return []
    return [
        (s.name, pages.url("series", club, lang, series=s.pk))
        for s in Series.objects.filter(club=club)
    ]


def season_pages(club: Club, lang: str) -> list[str]:
    """The address of every season of the club's series (the sitemap's)."""
    if not club.publish_series:
        return []
    seasons = SeriesSeason.objects.filter(series__club=club).values_list("series_id", "pk")
    return [
        pages.url("series_season", club, lang, series=series, series_season=season)
        for series, season in seasons[:1000]
    ]


def _series_of(club: Club, pk: int) -> Series:
    found = Series.objects.filter(club=club, pk=pages.address_id(pk)).first()
    if found is None:
        raise Http404
    found.club = club
    return found


@public_view("series")
def series_list(request, lang):
    club = request.club
    listed = [
        {
            "series": s,
            "url": pages.url("series", club, lang, series=s.pk),
            "seasons": [season.name for season in s.seasons.all()],
        }
        for s in Series.objects.filter(club=club).prefetch_related("seasons")
    ]
    context = pages.context(request, "series", title=_("Series"))
    context["listed"] = listed
    return render_public("public/series_list.html", context)


@public_view("series", daily=True)  # which season is the current one changes with the day
def series(request, lang, series):
    found = _series_of(request.club, series)
    season = services.current_season(found)
    return render_public("public/series.html", _season_context(request, found, season))


@public_view("series")
def series_season(request, lang, series, series_season):
    found = _series_of(request.club, series)
    season = found.seasons.filter(pk=pages.address_id(series_season)).first()
    if season is None:
        raise Http404
    return render_public("public/series.html", _season_context(request, found, season))


def _season_context(request, series: Series, season: SeriesSeason | None) -> dict:
    club = request.club
    lang = translation.get_language()
    title = series.name if season is None else f"{series.name} · {season.name}"
    context = pages.context(request, "series", title=title)
    seasons = list(series.seasons.all())
    context.update(
        series=series,
        season=season,
        seasons=[
            (s, pages.url("series_season", club, lang, series=series.pk, series_season=s.pk))
            for s in seasons
        ],
    )
    if season is not None:
        compute.sync(series)  # a result reached without a hand's save (scorebook.series.signals)
        context.update(_season_lines(club, lang, series, season))
    return context


def _season_lines(club: Club, lang: str, series: Series, season: SeriesSeason) -> dict:
    """The season's rating list (a rated series) or its standing, every name a public one."""
    rows = season.ratings if series.rated else season.rows
    naming = Naming(club, persons=_persons(rows.values_list("player_id", "players")))
    entries = compute.joined(season)
    if series.rated:
        lines = [_line(line, naming) for line in reading.rating_lines(season)]
        columns = []
    else:
        columns, found = reading.standing_lines(season)
        lines = [_line(line, naming) for line in found]
    return {
        "columns": columns,
        "lines": lines,
        "entries": [
            {
                "tournament": e.tournament,
                "factor": e.factor,
                "rating": e.rating_shown,
                "url": pages.tournament_url(club, lang, e.tournament)
                if e.tournament.club_id == club.pk
                else "",
            }
            for e in entries
        ],
    }


def _persons(rows) -> list[list[int]]:
    """Each stored row's person: the player he is shown as first, then his other players."""
    return [[shown, *(pk for pk in players if pk != shown)] for shown, players in rows]


class PublicLine:
    """A line of a standing or rating list as the public sees it: its numbers, and the
    player's public name instead of the player (the members' templates show it so)."""

    def __init__(self, line, name: str):
        self.line, self.name = line, name

    def __getattr__(self, attr: str):
        if attr == "player":  # never a person's record on a public page: only his name
            raise AttributeError(attr)
        return getattr(self.line, attr)


def _line(line, naming: Naming) -> PublicLine:
    return PublicLine(line, naming.name(line.player.pk))
