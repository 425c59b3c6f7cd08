"""The TARZS rating (RULES.md §8.7; Tarok zveza Slovenije, Pravilnik o ratingu, 2008).

Exact rational arithmetic throughout, no Django: the callers give each tournament's rated
rounds (three-player tables, each seat a person and his sheet sum) in the order the
tournaments started, and the ratings before the season; they store what comes out to ten
decimals and show it to one.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from scorebook.series.exact import half_up
from scorebook.series.standing import place_points

START = Fraction(101, 10)  # a player new to rated play
PLACEMENT_POINTS = (Fraction(2), Fraction(1), Fraction(1, 2))
TABLE_SIZE = 3
PRESET = "tarzs"
RANKING = "placement"
STORED_PLACES = 10
SHOWN_PLACES = 1

Seat = tuple[Hashable, Fraction]  # a person and his sheet sum at that table
Table = tuple[Seat, ...]


@dataclass(frozen=True)
class Tournament:
    """One rated tournament: its rounds, each a tuple of tables. A bye is no seat at all."""

    key: Hashable
    rounds: tuple[tuple[Table, ...], ...]


@dataclass(frozen=True)
class Outcome:
    """What one tournament did: every participant's rating before and after it, his rated
    rounds in it, and the tournament's rating (its strongest third before it)."""

    key: Hashable
    before: dict[Hashable, Fraction]
    after: dict[Hashable, Fraction]
    rounds: dict[Hashable, int]
    strongest: tuple[Hashable, ...]
    rating: Fraction | None


def stored(value: Fraction) -> Decimal:
    """A rating as stored: ten decimals, half up."""
    return half_up(value, STORED_PLACES)


def shown(value: Fraction) -> Decimal:
    """A rating as shown: one decimal, half up (14.75 → 14.8, 14.1917 → 14.2)."""
    return half_up(value, SHOWN_PLACES)


def table_points(table: Table) -> dict[Hashable, Fraction]:
    """2, 1 and ½ by sheet sum at a table of three; ties share exactly (three-way: 7/6 each)."""
    ranking = [
        (person, 1 + sum(1 for _p, other in table if other > total)) for person, total in table
    ]
    return place_points(ranking, PLACEMENT_POINTS)


def rated_tables(tournament: Tournament) -> Iterator[Table]:
    """Every three-player table of every round: only those are rated rounds."""
    for tables in tournament.rounds:
        for table in tables:
            if len(table) == TABLE_SIZE:
                yield table


def participants(tournament: Tournament) -> list[Hashable]:
    """Who played at least one rated round, in the order they first sat down."""
    seen: dict[Hashable, None] = {}
    for table in rated_tables(tournament):
        for person, _total in table:
            seen.setdefault(person, None)
    return list(seen)


def strongest_third(
    before: Mapping[Hashable, Fraction],
) -> tuple[tuple[Hashable, ...], Fraction | None]:
    """The third (rounded up) of the participants rated highest before the tournament, and the
    mean of their ratings: the tournament's rating. None for a tournament nobody played."""
    if not before:
        return (), None
    count = math.ceil(len(before) / 3)
    ordered = sorted(before, key=lambda person: -before[person])[:count]
    return tuple(ordered), sum((before[p] for p in ordered), Fraction(0)) / count


def play_season(
    start: Mapping[Hashable, Fraction], tournaments: Sequence[Tournament]
) -> list[Outcome]:
    """Every tournament of a season in the order they started. `start` holds the ratings
    before the season (a person absent is new: 10.1). A rating after a tournament is the mean
    of the person's round values over every rated round of the season so far."""
    current = dict(start)
    values: dict[Hashable, list[Fraction]] = {}
    outcomes = []
    for tournament in tournaments:
        outcome = _play(tournament, current, values)
        current.update(outcome.after)
        outcomes.append(outcome)
    return outcomes


def _play(tournament: Tournament, current, values) -> Outcome:
    before = {p: current.get(p, START) for p in participants(tournament)}
    rounds: dict[Hashable, int] = dict.fromkeys(before, 0)
    for table in rated_tables(tournament):
        mean = sum((before[person] for person, _total in table), Fraction(0)) / TABLE_SIZE
        for person, points in table_points(table).items():
            values.setdefault(person, []).append(mean * points)
            rounds[person] += 1
    after = {p: sum(values[p], Fraction(0)) / len(values[p]) for p in before}
    strongest, rating = strongest_third(before)
    return Outcome(tournament.key, before, after, rounds, strongest, rating)


def ratings_after(start: Mapping[Hashable, Fraction], outcomes: Sequence[Outcome]) -> dict:
    """Every person's rating once the outcomes are in: his last, else his start."""
    current = dict(start)
    for outcome in outcomes:
        current.update(outcome.after)
    return current


def tournaments_played(outcomes: Sequence[Outcome]) -> dict[Hashable, int]:
    played: dict[Hashable, int] = {}
    for outcome in outcomes:
        for person in outcome.after:
            played[person] = played.get(person, 0) + 1
    return played


# --- The season's end ---------------------------------------------------------------------------

HALVED = "halved"
FLOOR = "floor"
CAP = "cap"


@dataclass(frozen=True)
class End:
    """A person's rating at the season's end: `running` before it, `rating` after, and the
    steps that changed it (halved, raised to the floor, lowered to the cap), in that order."""

    running: Fraction
    rating: Fraction
    steps: tuple[str, ...]
    played: int


def cap_of(players_season_before: int | None) -> Fraction | None:
    """1.5 × the players who played a rated round the season before; none for a first season
    (nor after a season nobody played: there is nothing to measure the cap by)."""
    if not players_season_before:
        return None
    return Fraction(3, 2) * players_season_before


def season_end(
    start: Mapping[Hashable, Fraction],
    running: Mapping[Hashable, Fraction],
    played: Mapping[Hashable, int],
    tournaments: int,
    cap: Fraction | None,
) -> dict[Hashable, End]:
    """Fewer than half the season's rated tournaments played (none counts): the rating is
    halved; then none below half the rating at the season's start (10.1 for a person new that
    season); then none above the cap."""
    ends = {}
    for person, rating in running.items():
        count = played.get(person, 0)
        value, steps = rating, []
        if 2 * count < tournaments:
            value, steps = value / 2, [HALVED]
        floor = start.get(person, START) / 2
        if value < floor:
            value, steps = floor, [*steps, FLOOR]
        if cap is not None and value > cap:
            value, steps = cap, [*steps, CAP]
        ends[person] = End(rating, value, tuple(steps), count)
    return ends


# --- Which tournaments a rated series takes -----------------------------------------------------


@dataclass(frozen=True)
class Facts:
    """What a rated series asks of a tournament, as the tournament says it."""

    table_size: int
    ranking: str
    placement_points: tuple[Fraction, ...]
    preset: str
    two_player_tables: bool


def misfits(facts: Facts) -> list[str]:
    """Why a rated series refuses the tournament, one code a reason; [] when it fits."""
    reasons = []
    if facts.table_size != TABLE_SIZE:
        reasons.append("table_size")
    if facts.ranking != RANKING or tuple(facts.placement_points) != PLACEMENT_POINTS:
        reasons.append("placement_points")
    if facts.preset != PRESET:
        reasons.append("preset")
    if facts.two_player_tables:
        reasons.append("two_player_tables")
    return reasons
