"""What the series' pages and exports read: the standing with a column per tournament, the
rating list, a player's history, a tournament's rating, the all-time list, what changed — and
`series_order`, the order the `groups` draw (RULES.md §8.3) may seat players by.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from scorebook.models import Player
from scorebook.series import compute, tarzs
from scorebook.series.exact import exact
from scorebook.series.models import (
    Series,
    SeriesChange,
    SeriesSeason,
    SeriesTournament,
    StandingRow,
    TournamentRating,
)
from scorebook.series.people import universe
from scorebook.series.standing import Result as StandingResult
from scorebook.series.standing import Row, all_time, two_decimals


@dataclass
class Cell:
    entry: SeriesTournament
    points: Decimal | None = None
    place: int | None = None
    counted: bool = False


@dataclass
class StandingLine:
    place: int
    player: Player
    club: str
    total: Decimal
    counted: int
    cells: list[Cell] = field(default_factory=list)


def played_entries(season: SeriesSeason) -> list[SeriesTournament]:
    """The season's tournaments with a result, in the order they started: its columns."""
    return [e for e in compute.joined(season) if e.inputs.get("ranking")]


def standing_lines(season: SeriesSeason) -> tuple[list[SeriesTournament], list[StandingLine]]:
    columns = played_entries(season)
    lines = []
    for row in season.rows.select_related("player", "club"):
        cells = []
        for entry in columns:
            found = row.results.get(str(entry.pk))
            cells.append(
                Cell(
                    entry, two_decimals(Fraction(found["points"])), found["place"], found["counted"]
                )
                if found
                else Cell(entry)
            )
        lines.append(
            StandingLine(
                row.place,
                row.player,
                row.club.name,
                two_decimals(Fraction(row.total)),
                row.counted,
                cells,
            )
        )
    return columns, lines


@dataclass
class RatingLine:
    rank: int
    player: Player
    club: str
    rating: Decimal
    played: int
    steps: list[str] = field(default_factory=list)


def rating_lines(season: SeriesSeason) -> list[RatingLine]:
    return [
        RatingLine(
            row.rank,
            row.player,
            row.last_club.name if row.last_club else "",
            tarzs.shown(exact(row.rating)),
            row.played,
            [s for s in row.steps.split(",") if s],
        )
        for row in season.ratings.select_related("player", "last_club")
    ]


@dataclass
class EntryResult:
    place: int
    player: Player
    points: Decimal
    counted: bool


def entry_results(entry: SeriesTournament) -> list[EntryResult]:
    """What one tournament gave in the season's standing: each person's place and points."""
    found = []
    for row in entry.season.rows.select_related("player"):
        result = row.results.get(str(entry.pk))
        if result:
            points = two_decimals(Fraction(result["points"]))
            found.append(EntryResult(result["place"], row.player, points, result["counted"]))
    return sorted(found, key=lambda r: (r.place, -r.points))


def tournament_ratings(entry: SeriesTournament) -> list[TournamentRating]:
    return list(entry.ratings.select_related("player__club"))


# --- A player ------------------------------------------------------------------------------


@dataclass
class SeasonHistory:
    season: SeriesSeason
    start: Decimal | None
    end: Decimal | None
    steps: list[str]
    tournaments: list[TournamentRating]
    standing: StandingRow | None = None

    @property
    def points(self) -> Decimal | None:
        return two_decimals(Fraction(self.standing.total)) if self.standing else None


def person_of(series: Series, player: Player) -> frozenset:
    return universe(series).person(player.pk)


def history(series: Series, player: Player) -> list[SeasonHistory]:
    """Each season of the person: his rating at its start and end with every tournament
    between (rated), or his place and points (standing)."""
    person = person_of(series, player)
    out = []
    for season in series.seasons.all():
        mine = [r for r in season.ratings.all() if person & set(r.players)]
        rated = list(
            TournamentRating.objects.filter(entry__season=season, player_id__in=person)
            .select_related("entry__tournament__club")
            .order_by("entry__tournament__starts_at")
        )
        row = next((r for r in season.rows.all() if person & set(r.players)), None)
        if not (mine or rated or row):
            continue
        first = mine[0] if mine else None
        out.append(
            SeasonHistory(
                season,
                tarzs.shown(exact(first.start)) if first and first.start is not None else None,
                tarzs.shown(exact(first.end)) if first and first.end is not None else None,
                [s for s in first.steps.split(",") if s] if first else [],
                rated,
                row,
            )
        )
    return out


# --- The all-time list ------------------------------------------------------------------------


def all_time_lines(series: Series) -> list[StandingLine]:
    """The series over its seasons: each person's counted results added up."""
    seasons, shown = [], {}
    for season in series.seasons.all():
        order = {str(e.pk): i for i, e in enumerate(compute.joined(season))}
        rows = []
        for stored in season.rows.select_related("player", "club"):
            person = frozenset(stored.players)
            results = {
                order[key]: StandingResult(order[key], r["place"], Fraction(r["points"]))
                for key, r in stored.results.items()
                if key in order
            }
            counted = frozenset(order[k] for k, r in stored.results.items() if r["counted"])
            rows.append(Row(person, stored.place, Fraction(stored.total), results, counted))
            shown[person] = stored
        seasons.append(rows)
    return [
        StandingLine(
            row.place,
            shown[row.person].player,
            shown[row.person].club.name,
            two_decimals(row.total),
            len(row.counted),
        )
        for row in all_time(seasons)
    ]


def recent_changes(season: SeriesSeason, limit: int = 5) -> list[tuple[SeriesChange, list]]:
    """The latest changes, each with its lines (player, before, after) for the page."""
    changes = list(season.changes.select_related("entry__tournament")[:limit])
    ids = {line["player"] for change in changes for line in change.lines}
    players = Player.objects.in_bulk(ids)
    return [
        (
            change,
            [
                (players.get(line["player"]), _shown(line["was"]), _shown(line["now"]))
                for line in change.lines
            ],
        )
        for change in changes
    ]


def _shown(side: list | None) -> tuple | None:
    """[place, "35.9"] as (place, Decimal): the page writes the number in its language."""
    return None if side is None else (side[0], Decimal(side[1]))


# --- The groups draw ---------------------------------------------------------------------------


def series_order(season: SeriesSeason, players: Sequence[Player]) -> list[Player]:
    """`players` best first by the season's rating (a rated series: the latest, 10.1 for one
    new) or its standing (a standing series: those without a place after, as they came)."""
    found = universe(season.series)
    if season.series.rated:
        by_person = {frozenset(r.players): exact(r.rating) for r in season.ratings.all()}
        key = lambda p: -_of(by_person, found.person(p.pk), tarzs.START)  # noqa: E731
    else:
        by_person = {frozenset(r.players): r.place for r in season.rows.all()}
        key = lambda p: _of(by_person, found.person(p.pk), 10**9)  # noqa: E731
    return sorted(players, key=key)


def _of(by_person: dict, person: frozenset, default):
    return next((v for k, v in by_person.items() if k & person), default)
