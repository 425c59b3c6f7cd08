"""A two-player tournament's knockout (RULES.md §8.5): seeds, the bracket, the final places.

Pure Python, no Django: players are any hashable keys. A round is a list of matches in
bracket order (slot 0, 1, …); a match is a tuple of its two players, or of one player who
has a bye and goes straight on. The rankings of §8.4 do not apply here.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import TypeVar

from scorebook.tournaments.seating import random_order

P = TypeVar("P", bound=Hashable)


def seeds(players: Sequence[P], rng: random.Random | None = None) -> list[P]:
    """Seed 1 first: `players` in a seeded random order, or, without `rng`, as given (the
    ranking the organiser names, best first)."""
    return random_order(players, rng) if rng is not None else list(players)


def bracket_size(players: int) -> int:
    """The smallest power of two that holds `players`."""
    size = 1
    while size < players:
        size *= 2
    return size


def bracket_positions(size: int) -> list[int]:
    """Seeds in bracket order for a bracket of `size` (a power of two), so that seeds 1 and 2
    can meet only in the final.

    >>> bracket_positions(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    order = [1]
    while len(order) < size:
        order = [s for seed in order for s in (seed, 2 * len(order) + 1 - seed)]
    return order


def first_round(seeded: Sequence[P]) -> list[tuple[P, ...]]:
    """Round 1's matches in slot order. When the count is not a power of two the first seeds
    meet a seed that is not there: they have a bye (a one-player match).

    >>> first_round(["A", "B", "C", "D", "E", "F"])
    [('A',), ('D', 'E'), ('B',), ('C', 'F')]
    """
    positions = bracket_positions(bracket_size(len(seeded)))
    matches = []
    for slot in range(len(positions) // 2):
        pair = positions[2 * slot : 2 * slot + 2]
        matches.append(tuple(seeded[s - 1] for s in pair if s <= len(seeded)))
    return matches


def next_round(winners: Sequence[P]) -> list[tuple[P, ...]]:
    """The next round's matches: the winners of slots 0 and 1 meet, then 2 and 3, …; one
    winner left is the tournament's winner (no match)."""
    return [tuple(winners[i : i + 2]) for i in range(0, len(winners) - 1, 2)]


def match_winner(totals: Mapping[P, int | Decimal | Fraction]) -> P | None:
    """The higher total goes on; None on a tie (the match plays one more hand)."""
    ordered = sorted(totals, key=lambda p: Fraction(totals[p]), reverse=True)
    if len(ordered) < 2 or Fraction(totals[ordered[0]]) == Fraction(totals[ordered[1]]):
        return None
    return ordered[0]


def final_places(went_out: Mapping[P, int]) -> dict[P, int]:
    """Each player's final place from the round he went out in (the winner: any number after
    the final's). The winner is 1st, the final's loser 2nd, semi-final losers share 3rd,
    quarter-final losers share 5th, …: one more than the players who went further.

    >>> final_places({"A": 4, "B": 3, "C": 2, "D": 2})
    {'A': 1, 'B': 2, 'C': 3, 'D': 3}
    """
    return {p: 1 + sum(r > went_out[p] for r in went_out.values()) for p in went_out}
