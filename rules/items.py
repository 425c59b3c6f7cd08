"""Small pieces the family modules build their lines from: multipliers, signed bonus values,
the zero-sum split of a side item, and the words of a line."""

from __future__ import annotations

from collections.abc import Mapping

from rules.labels import BONUSES, CONTRA_WORDS, LINE_WORDS
from rules.model import DECLARER, Amount, Bonus, Hand, Line


def multiplier(level: int) -> int:
    """Contra level 1 ×2, 2 ×4, 3 ×8, 4 ×16."""
    return 1 << level


def contra_words(level: int, words: Mapping[int, str] = CONTRA_WORDS) -> str:
    """ ", contra ×2" for level 1; empty for no contra. ``words``: the family's own words for
    the levels (its variant's ``contra_words``)."""
    if not level:
        return ""
    return f", {words[level]} ×{1 << level}"


def bonus_value(bonus: Bonus, silent: int, announced: int) -> int:
    """A bonus's value for its own side (RULES.md §0): announced ±announced value, silent and
    made +silent value, silent and lost (pagat or king ultimo) −silent value."""
    value = announced if bonus.announced else silent
    return value if bonus.made else -value


def bonus_words(bonus: Bonus, value: int) -> str:
    """ "trula announced 20", "pagat ultimo silent lost 25", "kings silent 10 by the defenders"."""
    state = LINE_WORDS["announced"] if bonus.announced else LINE_WORDS["silent"]
    if not bonus.made:
        state += " " + (LINE_WORDS["failed"] if bonus.announced else LINE_WORDS["lost"])
    text = f"{BONUSES[bonus.name]} {state} {abs(value)}"
    if bonus.side != DECLARER:
        text += " " + LINE_WORDS["by defenders"]
    return text


def zero_sum(winners: tuple[str, ...], losers: tuple[str, ...], value: Amount) -> dict:
    """A side item worth ``value`` to ``winners`` (RULES.md §0): equal sides ±v each; a single
    player against n gets n·v and each of the n −v (and the other way round)."""
    if len(winners) == len(losers):
        each_winner = each_loser = value
    elif len(winners) == 1:
        each_winner, each_loser = value * len(losers), value
    elif len(losers) == 1:
        each_winner, each_loser = value, value * len(winners)
    else:
        raise ValueError("zero_sum needs equal sides or a single player on one side")
    amounts = {p: each_winner for p in winners}
    for p in losers:
        amounts[p] = -each_loser
    return amounts


def side_line(hand: Hand, item: str, text: str, side: str, value: Amount, times: int = 1) -> Line:
    """A zero-sum line: ``value`` (already signed for ``side``) times ``times``."""
    value *= times
    if side == DECLARER:
        amounts = zero_sum(hand.declarer_side, hand.defenders, value)
    else:
        amounts = zero_sum(hand.defenders, hand.declarer_side, value)
    return Line(item, text, amounts, times)
