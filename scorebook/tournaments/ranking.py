"""A tournament's ranking (RULES.md §8.4): table places, the three modes, byes, teams.

Pure Python, no Django. A round is its tables, each a mapping player → sheet sum (his total
on that table's sheet, radelc penalties included; with `contras_count` off, the sum of the
sheet re-scored without contras, see ``scorebook.tournaments.contras``), and the players with
a bye. Every number comes back as an exact ``Fraction``: shared points are never rounded
(the caller shows them to the hundredth).

Modes: ``PLACEMENT`` (placement points), ``SHEET`` (sheet sums), ``SHEET_PLUS_RANK`` (sheet
sums plus rank points). Players still equal after every tie-break of their mode share the rank.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction
from typing import Generic, TypeVar

P = TypeVar("P", bound=Hashable)
T = TypeVar("T", bound=Hashable)
Number = int | Decimal | Fraction

PLACEMENT, SHEET, SHEET_PLUS_RANK = "placement", "sheet", "sheet+rank"
MODES = (PLACEMENT, SHEET, SHEET_PLUS_RANK)

# Placement points clubs use (RULES §8.4); None is "N − 1 … 0" of the table played.
N_MINUS_PLACE = None
THREE_PLAYER_CHAMPIONSHIP = (2, 1, Fraction(1, 2))
FOUR_PLAYER_LEAGUE = (4, 3, 2, 1)


@dataclass(frozen=True)
class Round(Generic[P]):
    """One round: each table's sheet sums (player → sum), and who had a bye."""

    tables: Sequence[Mapping[P, Number]]
    byes: Collection[P] = ()


@dataclass(frozen=True)
class Seat:
    """A player's result at one table: his place (tied players get the best place they
    cover) and the points of the places they cover, shared exactly."""

    place: int
    points: Fraction


@dataclass(frozen=True)
class Standing(Generic[P]):
    rank: int
    player: P
    score: Fraction  # what the mode ranks: placement points; sheet sum; sum + rank points
    sheet_sum: Fraction  # byes counted as their round's mean sheet sum
    points: Fraction  # placement points, or rank points; 0 in `sheet`
    table_wins: int  # place 1 at a table, shared or not
    places: tuple[int, ...]  # how often 1st, 2nd, … at a table
    rounds: tuple[Fraction, ...]  # his score in each round he sat at a table, in round order
    byes: int


@dataclass(frozen=True)
class TeamStanding(Generic[T, P]):
    rank: int
    team: T
    score: Fraction  # the sum of its members' scores in the mode
    members: tuple[P, ...] = field(default=())  # best first


# --- One table ----------------------------------------------------------------------------


def points_for_table(size: int, points: Sequence[Number] | None = N_MINUS_PLACE) -> list[Fraction]:
    """The points of 1st … last at a table of `size`: "N − 1 … 0" of that table when `points`
    is None; otherwise a smaller table takes the first places of the list, and a table
    larger than the list gets 0 for the places beyond it."""
    if points is None:
        return [Fraction(size - 1 - i) for i in range(size)]
    own = [Fraction(p) for p in points]
    return (own + [Fraction(0)] * size)[:size]


def table_places(sums: Mapping[P, Number], points: Sequence[Number]) -> dict[P, Seat]:
    """Each player's place and points at a table, by sheet sum: tied players share the
    points of the places they cover, exactly (sums 30, 10, 10, −5 with 3/2/1/0: places 1, 2,
    2, 4 and points 3, 3/2, 3/2, 0)."""
    ordered = sorted(sums, key=lambda p: Fraction(sums[p]), reverse=True)
    result: dict[P, Seat] = {}
    first = 0
    while first < len(ordered):
        tied = [p for p in ordered if Fraction(sums[p]) == Fraction(sums[ordered[first]])]
        covered = [Fraction(p) for p in points[first : first + len(tied)]]
        shared = sum(covered, Fraction(0)) / len(tied)
        for player in tied:
            result[player] = Seat(first + 1, shared)
        first += len(tied)
    return result


# --- One round ----------------------------------------------------------------------------


@dataclass(frozen=True)
class _RoundScore:
    score: Fraction
    sheet_sum: Fraction
    points: Fraction
    place: int | None  # None: a bye


def _table_scores(sums, mode: str, points) -> dict:
    if mode == SHEET:
        seats = table_places(sums, [Fraction(0)] * len(sums))
    else:
        seats = table_places(sums, points_for_table(len(sums), points))
    result = {}
    for player, seat in seats.items():
        total = Fraction(sums[player])
        score = seat.points if mode == PLACEMENT else total + seat.points
        result[player] = _RoundScore(score, total, seat.points, seat.place)
    return result


def _round_scores(rnd: Round, mode: str, points) -> dict:
    """Every player's score in the round; a bye gets the mean of the seated players' scores,
    sheet sums and points, exactly, and no place."""
    seated = {}
    for sums in rnd.tables:
        seated.update(_table_scores(sums, mode, points))
    if rnd.byes:
        n = len(seated) or 1
        mean = _RoundScore(
            sum((s.score for s in seated.values()), Fraction(0)) / n,
            sum((s.sheet_sum for s in seated.values()), Fraction(0)) / n,
            sum((s.points for s in seated.values()), Fraction(0)) / n,
            None,
        )
        seated.update(dict.fromkeys(rnd.byes, mean))
    return seated


# --- The ranking --------------------------------------------------------------------------


def standings(
    mode: str,
    rounds: Sequence[Round[P]],
    points: Sequence[Number] | None = N_MINUS_PLACE,
    players: Sequence[P] | None = None,
) -> list[Standing[P]]:
    """The ranking after `rounds`, best first. `points`: the placement points (`placement`;
    None is "N − 1 … 0") or the rank points (`sheet+rank`, required); unused by `sheet`.
    `players`, when given, are everyone to rank (one who has not played yet scores 0) and
    the order of players who share a rank; otherwise the order they first appear in.

    `placement`: placement points, then the total sheet sum, then the count of first places,
    then of second places, … `sheet`: sheet sums, then table wins, then the highest single
    round, the second highest, … `sheet+rank`: sums plus rank points, then rank points,
    then the highest single round (sum + rank points), … A bye is never a highest round.
    """
    if mode not in MODES:
        raise ValueError(f"unknown ranking mode {mode!r}")
    if mode == SHEET_PLUS_RANK and points is None:
        raise ValueError("sheet+rank needs the tournament's rank points")
    per_round = [_round_scores(rnd, mode, points) for rnd in rounds]
    everybody = list(players) if players is not None else _in_order_of_appearance(per_round)
    width = max((len(sums) for rnd in rounds for sums in rnd.tables), default=0)
    unranked = [_standing(p, [r[p] for r in per_round if p in r], width) for p in everybody]
    keyed = sorted(
        ((_key(mode, s), i, s) for i, s in enumerate(unranked)), key=lambda k: (k[0], k[1])
    )
    result: list[Standing[P]] = []
    for i, (key, _order, standing) in enumerate(keyed):
        rank = result[-1].rank if i and keyed[i - 1][0] == key else i + 1
        result.append(replace(standing, rank=rank))
    return result


def _in_order_of_appearance(per_round: list[dict]) -> list:
    return list(dict.fromkeys(p for scores in per_round for p in scores))


def _standing(player, scores: list[_RoundScore], width: int) -> Standing:
    seated = [s for s in scores if s.place is not None]
    counts = Counter(s.place for s in seated)
    return Standing(
        0,
        player,
        sum((s.score for s in scores), Fraction(0)),
        sum((s.sheet_sum for s in scores), Fraction(0)),
        sum((s.points for s in scores), Fraction(0)),
        counts[1],
        tuple(counts[place] for place in range(1, width + 1)),
        tuple(s.score for s in seated),
        len(scores) - len(seated),
    )


def _key(mode: str, s: Standing) -> tuple:
    """Smaller is better. Round lists compare highest first; a round not played (a bye, or
    after a withdrawal) is below any round played."""
    if mode == PLACEMENT:
        return (-s.score, -s.sheet_sum, tuple(-n for n in s.places))
    highest = sorted(s.rounds, reverse=True)
    tie_break = s.table_wins if mode == SHEET else s.points
    return (-s.score, -tie_break, _more_is_better(highest))


def _more_is_better(values) -> tuple:
    """Descending lexicographic order as an ascending key, a shorter list below a longer one
    with the same start: (3, 1) before (3,) before (2, 5)."""
    return (*((0, -v) for v in values), (1,))


def tiers(ranked: Sequence[Standing[P]]) -> list[list[P]]:
    """The standing as tiers of equal players (one shared rank each), best first: what the
    Swiss draw takes."""
    result: list[list[P]] = []
    for i, standing in enumerate(ranked):
        if i and ranked[i - 1].rank == standing.rank:
            result[-1].append(standing.player)
        else:
            result.append([standing.player])
    return result


# --- Teams --------------------------------------------------------------------------------


def team_standings(ranked: Sequence[Standing[P]], team_of: Mapping[P, T]) -> list[TeamStanding]:
    """Teams by the sum of their members' scores in the mode; equal teams by their best
    member's rank, and still equal, they share the rank. A player without a team counts for
    none; a withdrawn player's rounds still count for his team."""
    members: dict[T, list[Standing[P]]] = {}
    for standing in ranked:  # best first, so each team's first member is its best
        if standing.player in team_of:
            members.setdefault(team_of[standing.player], []).append(standing)
    # sorted() is stable: teams equal on both keep the order of their best members.
    keyed = sorted(
        (
            ((-sum((s.score for s in team), Fraction(0)), team[0].rank), name)
            for name, team in members.items()
        ),
        key=lambda k: k[0],
    )
    return _team_ranks(keyed, members)


def _team_ranks(keyed, members) -> list[TeamStanding]:
    result: list[TeamStanding] = []
    for i, (key, name) in enumerate(keyed):
        rank = result[-1].rank if i and keyed[i - 1][0] == key else i + 1
        team = tuple(s.player for s in members[name])
        result.append(TeamStanding(rank, name, -key[0], team))
    return result
