"""The series' standing and rating as rankings a tournament's draw may follow (RULES.md §8.3
`groups`, §8.5 the knockout's seeds), registered with scorebook.tournaments.orders when the
app is ready: the tournaments app does not import this one."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext_lazy as _

from scorebook.models import Player
from scorebook.series.models import EntryState, SeriesSeason, SeriesTournament
from scorebook.series.reading import series_order
from scorebook.tournaments.models import Tournament
from scorebook.tournaments.orders import Order, register


def _season(tournament: Tournament, rated: bool) -> SeriesSeason | None:
    if tournament.pk is None:  # a tournament being made is in no series yet
        return None
    entry = (
        SeriesTournament.objects.filter(tournament=tournament, rated=rated, state=EntryState.JOINED)
        .select_related("season__series")
        .first()
    )
    return entry.season if entry is not None else None


def _best_first(rated: bool):
    """The season's order (reading.series_order): a standing's players without a place after
    the others, as they came; a rating's new players at 10.1, as §8.7 starts them."""

    def best_first(tournament: Tournament, players: Sequence[Player]) -> list[Player]:
        season = _season(tournament, rated)
        return list(players) if season is None else series_order(season, players)

    return best_first


def _order(name: str, rated: bool, label, missing) -> Order:
    return Order(
        name=name,
        label=label,
        applies=lambda tournament: _season(tournament, rated) is not None,
        best_first=_best_first(rated),
        missing=missing,
    )


STANDING = _order(
    "standing",
    rated=False,
    label=_("the standing of its series"),
    missing=_("The tournament is in no standing series: join one first, then rank by it."),
)
RATING = _order(
    "rating",
    rated=True,
    label=_("the rating of its rated series"),
    missing=_("The tournament is in no rated series: join one first, then rank by it."),
)


def register_orders() -> None:
    register(STANDING)
    register(RATING)
