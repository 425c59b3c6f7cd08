"""The draw of a tournament round (RULES.md §8.3): table sizes, byes, and who sits where.

Pure Python, no Django: players are any hashable keys (registration ids, names), the caller
passes the facts (the family's table sizes, the standing, who met whom, the teams, who had a
bye) and a ``random.Random`` seeded for the round, and gets a ``Draw`` back. The same input
and the same seed always draw the same tables.

Every draw puts the tables of the tournament's size first, then any other tables from the
largest to the smallest, and seats the byes last: "best with best" fills table 1 first.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement
from typing import Generic, TypeVar

P = TypeVar("P", bound=Hashable)


@dataclass(frozen=True)
class Draw(Generic[P]):
    """A drawn round: each table's players in seat order, and the players with a bye."""

    tables: tuple[tuple[P, ...], ...]
    byes: tuple[P, ...]


# --- Table sizes --------------------------------------------------------------------------


def table_sizes(players: int, size: int, sizes: Iterable[int]) -> tuple[list[int], int]:
    """The sizes of a round's tables for `players`, and how many have a bye.

    `size` is the tournament's table, `sizes` every table the game's family has (Slovenian
    4, 3, 2; French 5, 4, 3; Czech 4). Of all the ways to seat the players, the one that
    seats the most, then has the most tables of `size`, then the fewest other tables, each
    as large as possible. A two-player table is only for a two-player tournament.

    >>> table_sizes(22, 4, (4, 3, 2))
    ([4, 4, 4, 4, 3, 3], 0)
    >>> table_sizes(21, 4, (5, 4, 3))
    ([4, 4, 4, 4, 5], 0)
    """
    others = sorted({n for n in sizes if n != size and n >= (2 if size == 2 else 3)})
    for seated in range(players, -1, -1):
        for full in range(seated // size, -1, -1):
            rest = _fewest_tables(seated - full * size, others)
            if rest is not None:
                return [size] * full + rest, players - seated
    raise AssertionError("unreachable: no tables at all seats nobody")


def _fewest_tables(seats: int, sizes: list[int]) -> list[int] | None:
    """The fewest tables of `sizes` that seat exactly `seats`, the smallest of them as large
    as possible, largest first; None when no tables do."""
    if seats == 0:
        return []
    if not sizes:
        return None
    for count in range(1, seats // sizes[0] + 1):
        fits = [c for c in combinations_with_replacement(sizes, count) if sum(c) == seats]
        if fits:
            # combinations come smallest first: the last has the largest smallest table.
            return sorted(max(fits), reverse=True)
    return None


# --- Orders and byes ----------------------------------------------------------------------


def random_order(players: Sequence[P], rng: random.Random) -> list[P]:
    """`players` (in a stable order: the seed replays only the same input) shuffled."""
    order = list(players)
    rng.shuffle(order)
    return order


def standing_order(standing: Sequence[Sequence[P]], rng: random.Random) -> list[P]:
    """Best first: the standing's tiers of equal players, each in a seeded random order."""
    return [player for tier in standing for player in random_order(tier, rng)]


def byes_for(order: Sequence[P], count: int, had_bye: Collection[P] = ()) -> list[P]:
    """The `count` lowest in `order` (best first) who have not had a bye; once everybody has
    had one, the lowest of the others. Lowest first."""
    fresh = [p for p in reversed(order) if p not in had_bye]
    again = [p for p in reversed(order) if p in had_bye]
    return (fresh + again)[:count]


def _cut(players: Sequence[P], sizes: Sequence[int]) -> list[list[P]]:
    tables, start = [], 0
    for size in sizes:
        tables.append(list(players[start : start + size]))
        start += size
    return tables


def _seated_and_byes(order: Sequence[P], byes: int, bye_order, had_bye) -> tuple[list, list]:
    out = byes_for(bye_order, byes, had_bye)
    return [p for p in order if p not in out], out


# --- The draws ----------------------------------------------------------------------------


def draw_random(
    players: Sequence[P],
    size: int,
    sizes: Iterable[int],
    rng: random.Random,
    *,
    standing: Sequence[Sequence[P]] | None = None,
    had_bye: Collection[P] = (),
    team_of: Mapping[P, Hashable] | None = None,
) -> Draw[P]:
    """`random`: every round drawn anew. Byes and the teammates' swap go by `standing` (tiers
    of equal players, best first, holding every one of `players`) once there is one; in
    round 1 by the random order itself, so its last players have the byes."""
    shuffled = random_order(players, rng)
    order = shuffled if standing is None else standing_order(standing, rng)
    table_list, byes = table_sizes(len(shuffled), size, sizes)
    seated, out = _seated_and_byes(shuffled, byes, order, had_bye)
    tables = _teammates_apart(_cut(seated, table_list), order, team_of or {})
    return _draw(tables, out)


def draw_groups(
    ordered: Sequence[P],
    size: int,
    sizes: Iterable[int],
    rng: random.Random,
    *,
    team_of: Mapping[P, Hashable] | None = None,
) -> Draw[P]:
    """`groups`, round 1: `ordered` by the organiser's ranking (best first) is cut into one
    group per seat of a table, and each table gets one player of each group, drawn at random
    within the group. The byes are the last of the last group; the smaller tables are those
    that miss a player of the last group.

    The k-th group holds as many players as there are tables with a k-th seat: ⌈N/size⌉ each
    and the last one short when the remainder tables are one seat smaller, and one more small
    group when the family's larger table is drawn (21 at fours: a five gets a fifth player).
    """
    table_list, byes = table_sizes(len(ordered), size, sizes)
    seated, out = _seated_and_byes(ordered, byes, ordered, ())
    tables: list[list[P]] = [[] for _ in table_list]
    start = 0
    for seat in range(max(table_list, default=0)):
        at = [i for i, n in enumerate(table_list) if n > seat]
        group = random_order(seated[start : start + len(at)], rng)
        for i, player in zip(at, group, strict=True):
            tables[i].append(player)
        start += len(at)
    return _draw(_teammates_apart(tables, list(ordered), team_of or {}), out)


def draw_swiss(
    standing: Sequence[Sequence[P]],
    size: int,
    sizes: Iterable[int],
    rng: random.Random,
    *,
    met: Iterable[Iterable[P]] = (),
    had_bye: Collection[P] = (),
    team_of: Mapping[P, Hashable] | None = None,
) -> Draw[P]:
    """`swiss` (and the later rounds of `groups`): players by the standing, best first, each
    tier of equal players in a seeded random order, seated best with best; then players of
    equal standing swap where that keeps two players who met (`met`: the tables of the rounds
    before) from meeting again. Teammates are kept apart first."""
    order = standing_order(standing, rng)
    table_list, byes = table_sizes(len(order), size, sizes)
    seated, out = _seated_and_byes(order, byes, order, had_bye)
    team_of = team_of or {}
    tables = _teammates_apart(_cut(seated, table_list), order, team_of)
    tier = {p: i for i, players in enumerate(standing) for p in players}
    tables = _avoid_rematches(tables, order, tier, _pairs(met), team_of)
    return _draw(tables, out)


def _draw(tables: list[list[P]], byes: list[P]) -> Draw[P]:
    return Draw(tuple(tuple(t) for t in tables), tuple(byes))


# --- Teammates apart ----------------------------------------------------------------------


def _mates(player: P, table: Iterable[P], team_of: Mapping[P, Hashable]) -> list[P]:
    team = team_of.get(player)
    return [] if team is None else [q for q in table if q != player and team_of.get(q) == team]


def _teammates_apart(tables: list[list[P]], order: Sequence[P], team_of) -> list[list[P]]:
    """Teammates never sit at one table when a swap avoids it: the lower-standing teammate
    swaps with the nearest player below him (above, when nobody below will do) who is not a
    teammate of anyone at that table, and who sits where the mover has no teammate. Each swap
    parts one more pair of teammates, so this ends."""
    if not team_of:
        return tables
    pos = {p: i for i, p in enumerate(order)}
    while (found := _teammates_at_a_table(tables, pos, team_of)) is not None:
        table, mover = found
        partner = _swap_partner(tables, table, mover, pos, team_of)
        if partner is None:
            break
        _swap(tables, mover, partner)
    return tables


def _teammates_at_a_table(tables, pos, team_of):
    """(table index, the lower-standing teammate) of the first table whose teammates may yet
    be parted, the top table first."""
    for i, table in enumerate(tables):
        for a, b in combinations(sorted(table, key=pos.__getitem__), 2):
            if team_of.get(a) is not None and team_of.get(a) == team_of.get(b):
                if _swap_partner(tables, i, b, pos, team_of) is not None:
                    return i, b
    return None


def _swap_partner(tables, i, mover, pos, team_of):
    table_of = {p: t for t, table in enumerate(tables) for p in table}
    below = sorted((p for p in pos if pos[p] > pos[mover]), key=pos.__getitem__)
    above = sorted((p for p in pos if pos[p] < pos[mover]), key=pos.__getitem__, reverse=True)
    for q in below + above:
        t = table_of.get(q)
        if t is None or t == i:  # a bye keeps his bye; a swap at the same table moves nobody
            continue
        staying = [p for p in tables[i] if p != mover]
        if not _mates(q, staying, team_of) and not _mates(mover, tables[t], team_of):
            return q
    return None


def _swap(tables: list[list[P]], a: P, b: P) -> None:
    """a and b change seats (each takes the other's seat number at the other's table)."""
    for table in tables:
        for seat, p in enumerate(table):
            table[seat] = b if p == a else a if p == b else p


# --- Swiss: no second meeting -------------------------------------------------------------


def _pairs(met: Iterable[Iterable[P]]) -> set[frozenset]:
    return {frozenset(pair) for table in met for pair in combinations(set(table), 2)}


def _meetings(table: Iterable[P], met: set[frozenset]) -> int:
    return sum(frozenset(pair) in met for pair in combinations(table, 2))


def _teammate_pairs(table: Sequence[P], team_of) -> int:
    return sum(len(_mates(p, table, team_of)) for p in table) // 2


def _avoid_rematches(tables, order, tier, met, team_of) -> list[list[P]]:
    """Swap players of equal standing (one tier) at two tables where the two tables then hold
    fewer pairs who met before and no more teammates. The lower of two who met moves first,
    to the nearest equal player (below before above). Every swap removes a meeting: it ends."""
    if not met:
        return tables
    pos = {p: i for i, p in enumerate(order)}
    while (swap := _rematch_swap(tables, pos, tier, met, team_of)) is not None:
        _swap(tables, *swap)
    return tables


def _rematch_swap(tables, pos, tier, met, team_of):
    table_of = {p: t for t, table in enumerate(tables) for p in table}
    for table in tables:
        ranked = sorted(table, key=pos.__getitem__)
        for high, low in combinations(ranked, 2):
            if frozenset((high, low)) not in met:
                continue
            for mover in (low, high):
                for q in _nearest_equals(mover, pos, tier, table_of):
                    if _improves(tables, table_of, mover, q, met, team_of):
                        return mover, q
    return None


def _nearest_equals(mover, pos, tier, table_of) -> list:
    """The seated players of the mover's tier at other tables, nearest first, below first."""
    equals = [
        q for q in table_of if tier.get(q) == tier.get(mover) and table_of[q] != table_of[mover]
    ]
    return sorted(equals, key=lambda q: (abs(pos[q] - pos[mover]), pos[q] < pos[mover]))


def _improves(tables, table_of, a, b, met, team_of) -> bool:
    before = (tables[table_of[a]], tables[table_of[b]])
    after = ([b if p == a else p for p in before[0]], [a if p == b else p for p in before[1]])
    meetings = [sum(_meetings(t, met) for t in pair) for pair in (before, after)]
    mates = [sum(_teammate_pairs(t, team_of) for t in pair) for pair in (before, after)]
    return meetings[1] < meetings[0] and mates[1] <= mates[0]
