"""`contras_count` off (RULES.md §8.4): what the ranking sees of a table without its contras.

Austrian cups pay a contra at the table but do not rank it: every number the ranking uses
comes from the table's sheet re-scored, in order, with the game's contra and every bonus's
contra at 0. Radelci, radelc doubling, mondfang, adjustments and the closing radelc penalty
stay as they are; a hand without contras (French, slovenian-2) is unchanged. The session's
own sheet and settlement keep the contras: these are copies. Pure Python: the engine only.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

import rules


def without_contras(hands: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Copies of stored hands (HANDS.md) with the game's contra and every bonus's contra
    set to 0; everything else as it was."""
    return [_hand_without_contras(hand) for hand in hands]


def _hand_without_contras(hand: Mapping[str, Any]) -> dict[str, Any]:
    copied = copy.deepcopy(dict(hand))
    contra = copied.get("contra")
    if isinstance(contra, dict) and contra.get("game"):
        copied["contra"] = {**contra, "game": 0}
    for bonus in copied.get("bonuses") or ():
        if isinstance(bonus, dict) and bonus.get("contra"):
            bonus["contra"] = 0
    return copied


def totals_without_contras(sheet: Mapping[str, Any], closed: bool = True) -> dict[str, Any]:
    """A table's sheet sums for the ranking with `contras_count` off: the sheet (HANDS.md,
    "A sheet") re-scored in one engine call with every contra at 0, closing penalties
    included when `closed`. Stored hands are read as stored (``entered=False``)."""
    data = {**sheet, "hands": without_contras(sheet["hands"])}
    return dict(rules.score_sheet(data, closed, entered=False).totals)
