"""Elo ratings from hands (RULES.md §6): K = 24, start 1500, every player dealt in compared
with every other, all updated at once from their ratings before the hand.

Ratings are estimates, not amounts, so they are floats; show and store them to two decimals.

    >>> update({}, {"Ana": 44, "Bor": 0, "Cene": 0})
    {'Ana': 1512.0, 'Bor': 1494.0, 'Cene': 1494.0}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rules.model import Amount, Result
from rules.variant import get_variant

K = 24
START = 1500.0


def update(
    ratings: Mapping[str, float], amounts: Mapping[str, Amount], k: float = K
) -> dict[str, float]:
    """The new ratings of the players of one hand (``amounts``: every player dealt in)."""
    players = list(amounts)
    if len(players) < 2:
        return {p: ratings.get(p, START) for p in players}
    before = {p: ratings.get(p, START) for p in players}
    after = {}
    for p in players:
        gained = 0.0
        for q in players:
            if q == p:
                continue
            score = 1.0 if amounts[p] > amounts[q] else 0.5 if amounts[p] == amounts[q] else 0.0
            expected = 1.0 / (1.0 + 10.0 ** ((before[q] - before[p]) / 400.0))
            gained += score - expected
        after[p] = before[p] + k * gained / (len(players) - 1)
    return after


def rate(results: Iterable[Result], ratings: Mapping[str, float] | None = None):
    """Ratings and rated-hand counts after ``results`` in order; redeals and adjustment-only
    rows change nothing."""
    current = dict(ratings or {})
    hands: dict[str, int] = {}
    for result in results:
        hand = result.hand
        if not get_variant(hand.variant).is_deal(hand.contract):
            continue
        current.update(update(current, result.amounts))
        for player in result.amounts:
            hands[player] = hands.get(player, 0) + 1
    return current, hands
