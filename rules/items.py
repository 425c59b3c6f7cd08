"""Small pieces the family modules build their lines from: multipliers, signed bonus values,
the zero-sum split of a side item, and the words of a line.

A long sheet says the same words over and over ("trula announced 20", ", contra ×2"): a line's
phrase is built once for the values it says and shared by every line that says them (a ``Say``
is immutable), which spares building it again and the garbage collector's time.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

from rules.labels import BONUSES, CONTRA_WORDS
from rules.model import DECLARER, Amount, Bonus, Hand, Line
from rules.words import Phrase, Say

# Words a line says without values.
LOST: Phrase = (Say("line.lost"),)
BY_DEFENDERS: Phrase = (Say("line.by-defenders"),)
# How many phrases of one kind a process keeps to share (the least recently said go first).
SHARED_PHRASES = 1024


def multiplier(level: int) -> int:
    """Contra level 1 ×2, 2 ×4, 3 ×8, 4 ×16."""
    return 1 << level


def contra_words(level: int, words: Mapping[int, Say] = CONTRA_WORDS) -> Phrase:
    """ ", contra ×2" for level 1; nothing for no contra. ``words``: the family's own words
    for the levels (its variant's ``contra_words``)."""
    if not level:
        return ()
    return _contra_phrase(words[level], level)


@functools.lru_cache(maxsize=SHARED_PHRASES)
def _contra_phrase(contra: Say, level: int) -> Phrase:
    return (Say("line.contra", contra=contra, times=multiplier(level)),)


def bonus_value(bonus: Bonus, silent: int, announced: int) -> int:
    """A bonus's value for its own side (RULES.md §0): announced ±announced value, silent and
    made +silent value, silent and lost (pagat or king ultimo) −silent value."""
    value = announced if bonus.announced else silent
    return value if bonus.made else -value


# A bonus line's words by (announced, made): "trula announced 20", "pagat ultimo silent lost 25".
_BONUS_STATES = {
    (True, True): "line.bonus-announced",
    (True, False): "line.bonus-announced-failed",
    (False, True): "line.bonus-silent",
    (False, False): "line.bonus-silent-lost",
}


def bonus_words(bonus: Bonus, value: int) -> Phrase:
    """ "trula announced 20", "pagat ultimo silent lost 25", "kings silent 10 by the defenders"."""
    state = _BONUS_STATES[bool(bonus.announced), bool(bonus.made)]
    return _bonus_phrase(state, bonus.name, abs(value), bonus.side != DECLARER)


@functools.lru_cache(maxsize=SHARED_PHRASES)
def _bonus_phrase(state: str, name: str, value: int, by_defenders: bool) -> Phrase:
    words = (Say(state, bonus=BONUSES[name], value=value),)
    return words + BY_DEFENDERS if by_defenders else words


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
    amounts = dict.fromkeys(winners, each_winner)
    for p in losers:
        amounts[p] = -each_loser
    return amounts


def side_line(
    hand: Hand, item: str, text: Phrase, side: str, value: Amount, times: int = 1
) -> Line:
    """A zero-sum line: ``value`` (already signed for ``side``) times ``times``."""
    value *= times
    declarers, defenders = hand.sides
    if side == DECLARER:
        amounts = zero_sum(declarers, defenders, value)
    else:
        amounts = zero_sum(defenders, declarers, value)
    return Line(item, text, amounts, times)
