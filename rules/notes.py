"""The paper-style note of a scored hand: what a sheet row shows beside its amounts.

A note is words (rules.words): stored rows hold its ids and values, and it is said in the
reader's language, its pieces one space apart.

>>> from rules import score_hand
>>> hand = score_hand({"variant": "slovenian-3", "players": ["Ana", "Bor", "Cene"],
...     "contract": "two", "declarer": "Ana", "points": 39,
...     "bonuses": [{"name": "trula", "announced": True}]})
>>> note_text(note(hand), "en"), note_text(note(hand), "sl")
('+44 two tr.', '+44 dva tr.')
>>> note_text(note(score_hand({"variant": "slovenian-2", "players": ["Ana", "Bor"],
...     "contract": "game", "announcer": "Ana", "points_by_player": {"Ana": 40, "Bor": 30}})))
'Ana: I play, 40'
"""

from __future__ import annotations

from collections.abc import Iterable

from rules import labels
from rules.items import multiplier
from rules.model import DECLARER, Amount, Result
from rules.words import ENGLISH, Phrase, Say, current_language, number


def note(result: Result) -> Phrase:
    """A paper-style note for a sheet row: "+44 two tr. p.u.(×2)"."""
    hand = result.hand
    if hand.announcer is not None:  # two players: who said "I play", with his pile
        points = (hand.points_by_player or {}).get(hand.announcer)
        if points is None:
            return (Say("note.i-play-only", player=hand.announcer),)
        return (Say("note.i-play", player=hand.announcer, points=points),)
    parts = []
    if hand.declarer is not None:
        amount = result.amounts.get(hand.declarer, 0)
        parts.append(Say("note.gain" if amount > 0 else "note.amount", value=amount))
    parts.append(labels.CONTRACTS.get(hand.contract, Say(hand.contract)))
    if hand.made is False:
        parts.append(Say("note.failed"))
    for bonus in hand.bonuses:
        before = "/" if bonus.side != DECLARER else ""  # the defenders' column on paper
        if bonus.made is False:
            before = "−" + before
        after = f"(×{multiplier(bonus.contra)})" if bonus.contra else ""
        abbreviation = labels.BONUS_ABBREVIATIONS.get(bonus.name, Say(bonus.name))
        parts.append(Say("note.bonus", before=before, abbr=abbreviation, after=after))
    if hand.contra:
        parts.append(Say("note.times", times=multiplier(hand.contra)))
    return tuple(parts)


def note_text(note: Iterable[Say], language: str | None = None) -> str:
    """A note said in a language (the reader's by default), its pieces one space apart."""
    language = language or current_language()
    return " ".join(piece.text(language) for piece in note)


def number_text(amount: Amount) -> str:
    """An amount or a pile's points as an English sheet writes it: "44", "−2.5", "45.5"."""
    return number(amount, ENGLISH)
