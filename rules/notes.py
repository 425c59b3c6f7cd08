"""The paper-style note of a scored hand: what a sheet row shows beside its amounts.

Stored rows hold this note, so its words and signs stay exactly as they are: a change of its
words reaches only hands scored after it (a stored row is not rescored).

>>> from rules import score_hand
>>> note(score_hand({"variant": "slovenian-3", "players": ["Ana", "Bor", "Cene"],
...     "contract": "two", "declarer": "Ana", "points": 39,
...     "bonuses": [{"name": "trula", "announced": True}]}))
'+44 two tr.'
>>> note(score_hand({"variant": "slovenian-2", "players": ["Ana", "Bor"], "contract": "game",
...     "announcer": "Ana", "points_by_player": {"Ana": 40, "Bor": 30}}))
'Ana: I play, 40'
"""

from __future__ import annotations

from decimal import Decimal

from rules import labels
from rules.items import multiplier
from rules.model import DECLARER, Amount, Result


def note(result: Result) -> str:
    """A paper-style note for a sheet row: "+44 two tr. p.u.(×2)"."""
    hand = result.hand
    if hand.announcer is not None:  # two players: who said "I play", with his pile
        text = f"{hand.announcer}: {labels.LINE_WORDS['i-play']}"
        points = (hand.points_by_player or {}).get(hand.announcer)
        return text if points is None else f"{text}, {number_text(points)}"
    parts = []
    if hand.declarer is not None:
        amount = result.amounts.get(hand.declarer, 0)
        parts.append(f"{'+' if amount > 0 else ''}{number_text(amount)}")
    parts.append(labels.CONTRACTS.get(hand.contract, hand.contract))
    if hand.made is False:
        parts[-1] += " ✗"
    for bonus in hand.bonuses:
        text = labels.BONUS_ABBREVIATIONS.get(bonus.name, bonus.name)
        if bonus.side != DECLARER:
            text = "/" + text  # the defenders' column on paper
        if bonus.made is False:
            text = "−" + text
        if bonus.contra:
            text += f"(×{multiplier(bonus.contra)})"
        parts.append(text)
    if hand.contra:
        parts.append(f"×{multiplier(hand.contra)}")
    return " ".join(parts)


def number_text(amount: Amount) -> str:
    """An amount or a pile's points as a sheet writes it: "44", "−2.5", "45.5"."""
    if isinstance(amount, Decimal):
        text = format(amount.normalize(), "f")
    else:
        text = str(amount)
    return text.replace("-", "−")
