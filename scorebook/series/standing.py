"""A series' standing (RULES.md §8.6), in exact fractions: no Django, no database.

A tournament gives points by final place from the series' points table; tied places share the
points of the places they cover, exactly. The points are multiplied by the tournament's factor,
each player counts his best N results, and the tie-breaks order the rest. The callers say who a
"person" is (any hashable key) and in which order the tournaments started.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from scorebook.series.exact import half_up

# The cup's table (RULES.md §8.6): places past it get 0.
CUP_POINTS: tuple[int, ...] = (25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
CUP = "cup"
N_MINUS_PLACE = "n-place"  # N − place + 1, N = the players ranked in that tournament
OWN = "own"
POINTS_PRESETS = (CUP, N_MINUS_PLACE, OWN)


def points_table(preset: str, own: Sequence[Fraction] = (), ranked: int = 0) -> list[Fraction]:
    """The points of 1st, 2nd, … for a tournament of `ranked` players under `preset`."""
    if preset == CUP:
        return [Fraction(p) for p in CUP_POINTS]
    if preset == N_MINUS_PLACE:
        return [Fraction(ranked - i) for i in range(ranked)]
    return [Fraction(p) for p in own]


def place_points(ranking: Sequence[tuple[Hashable, int]], table: Sequence[Fraction]) -> dict:
    """{key: points} for a final ranking of (key, place), tied keys sharing one place number
    (the best place they cover, as 1, 2, 2, 4). The places a tie covers share their points
    exactly; a place past the table gets 0.

    >>> table = [Fraction(p) for p in (25, 20, 16, 13)]
    >>> place_points([("a", 1), ("b", 2), ("c", 2), ("d", 4)], table)
    {'a': Fraction(25, 1), 'b': Fraction(18, 1), 'c': Fraction(18, 1), 'd': Fraction(13, 1)}
    """
    by_place: dict[int, list[Hashable]] = {}
    for key, place in ranking:
        by_place.setdefault(place, []).append(key)
    points = {}
    for place, keys in by_place.items():
        covered = [_at(table, place - 1 + i) for i in range(len(keys))]
        shared = sum(covered, Fraction(0)) / len(keys)
        for key in keys:
            points[key] = shared
    return points


def _at(table: Sequence[Fraction], index: int) -> Fraction:
    return table[index] if 0 <= index < len(table) else Fraction(0)


def two_decimals(value: Fraction) -> Decimal:
    """Points as shown: to two decimals, half up (18.333… → 18.33, 0.125 → 0.13)."""
    return half_up(value, 2)


# --- The standing ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Result:
    """One person's result in one tournament: `order` is the tournament's place in the start
    order of the season (0 first), `place` his final place there, `points` with the factor."""

    order: int
    place: int
    points: Fraction


@dataclass
class Row:
    person: Hashable
    place: int
    total: Fraction
    results: dict[int, Result]  # by tournament order
    counted: frozenset[int] = field(default_factory=frozenset)

    @property
    def best(self) -> Fraction:
        return max((r.points for r in self.results.values()), default=Fraction(0))


def counted_results(results: Sequence[Result], best_n: int | None) -> list[Result]:
    """The results that count: all, or the `best_n` best (a final may be dropped like any
    other). Of equal results the earlier tournament's is marked counted."""
    ordered = sorted(results, key=lambda r: (-r.points, r.order))
    return ordered if best_n is None else ordered[:best_n]


def standing(results: Mapping[Hashable, Sequence[Result]], best_n: int | None = None) -> list[Row]:
    """The season's standing, best first: the total of the counted results, then more results
    counted, then the best single result, then the better place in the latest tournament either
    played (who played it before who did not); persons still equal share the place."""
    rows = []
    for person, own in results.items():
        counted = counted_results(own, best_n)
        rows.append(
            Row(
                person=person,
                place=0,
                total=sum((r.points for r in counted), Fraction(0)),
                results={r.order: r for r in own},
                counted=frozenset(r.order for r in counted),
            )
        )
    rows.sort(key=_order_key)
    for i, row in enumerate(rows):
        same = i and _order_key(rows[i - 1]) == _order_key(row)
        row.place = rows[i - 1].place if same else i + 1
    return rows


def _order_key(row: Row) -> tuple:
    latest = max(row.results, default=-1)
    latest_place = row.results[latest].place if latest >= 0 else 0
    return (-row.total, -len(row.counted), -row.best, -latest, latest_place)


def all_time(seasons: Sequence[Sequence[Row]]) -> list[Row]:
    """The series over its seasons: each person's counted results of every season (in one
    order across the seasons, earliest first), ranked with the same tie-breaks."""
    results: dict[Hashable, list[Result]] = {}
    offset = 0
    for rows in seasons:
        played = [order for row in rows for order in row.results]
        for row in rows:
            results.setdefault(row.person, []).extend(
                Result(offset + r.order, r.place, r.points)
                for order, r in row.results.items()
                if order in row.counted
            )
        offset += max(played, default=-1) + 1
    return standing(results)
