"""Immutable values: a hand as played, and the score it gets.

Named tuples rather than frozen dataclasses: a long sheet builds hundreds of thousands of
them, and a frozen dataclass pays for every field it sets.

Amounts are ``int`` or, where a split leaves hundredths, ``decimal.Decimal``; points are
``int`` or, in French tarot, a ``Decimal`` ending in .5. Never float.
"""

from __future__ import annotations

import collections
import functools
from collections.abc import Mapping
from decimal import Decimal
from types import MappingProxyType
from typing import Any, NamedTuple

from rules.fields import RECORD_FIELDS, RECORD_HEAD
from rules.words import Phrase, phrase_text

Amount = int | Decimal
Points = int | Decimal

DECLARER = "declarer"
DEFENDERS = "defenders"


class Bonus(NamedTuple):
    """A bonus or premium: who it belongs to, whether it was announced and whether it came off."""

    name: str
    side: str = DECLARER
    announced: bool = False
    made: bool | None = True  # None: left out where the bonus spec allows it (made_optional)
    contra: int = 0
    player: str | None = None
    level: str | None = None


class Declaration(NamedTuple):
    player: str
    name: str


class Adjustment(NamedTuple):
    player: str
    amount: Amount
    reason: str = ""


_HandRecord = collections.namedtuple(
    "_HandRecord",
    [*RECORD_HEAD, *(name for name, _ in RECORD_FIELDS), "own_fields"],
    defaults=[*(empty for _, empty in RECORD_FIELDS), MappingProxyType({})],
)


class Hand(_HandRecord):
    """One hand in the format of HANDS.md, read and checked: its variant id, players (a tuple)
    and contract id, then a value for each field of ``rules.fields.FIELDS`` the engine holds
    (``RECORD_FIELDS``: the declarer, the points, the bonuses as ``Bonus`` values, …; None or
    empty where the hand leaves the field out), and ``own_fields``: the values of the fields
    its game declares itself (``Variant.own_fields``), by name."""

    __slots__ = ()

    @property
    def sides(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The declarer's side and the defenders, each in seat order."""
        return _sides(self.players, self.declarer, self.partner)

    @property
    def declarer_side(self) -> tuple[str, ...]:
        return _sides(self.players, self.declarer, self.partner)[0]

    @property
    def defenders(self) -> tuple[str, ...]:
        return _sides(self.players, self.declarer, self.partner)[1]

    def side(self, name: str) -> tuple[str, ...]:
        return self.declarer_side if name == DECLARER else self.defenders

    def bonus(self, name: str) -> Bonus | None:
        for bonus in self.bonuses:
            if bonus.name == name:
                return bonus
        return None


@functools.lru_cache(maxsize=1024)
def _sides(
    players: tuple[str, ...], declarer: str | None, partner: str | None
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Worked out once per table, declarer and partner: the lines of a sheet ask for them
    over and over."""
    if declarer is None:
        return (), players
    side = (declarer,) if partner is None else (declarer, partner)
    return side, tuple(p for p in players if p not in side)


class Line(NamedTuple):
    """One item of a score: what it is, in words, the multiplier that applied, and who gets what.

    ``words`` are said in the reader's language when shown (``text``); ``amounts`` holds the
    multiplied amount for every player the item touches.
    """

    item: str
    words: Phrase
    amounts: Mapping[str, Amount]
    multiplier: int = 1

    @property
    def text(self) -> str:
        return phrase_text(self.words)

    def to_json(self) -> dict[str, Any]:
        return {"item": self.item, "text": self.text, "amounts": dict(self.amounts)}


class Result(NamedTuple):
    """The score of one hand: an exact amount for every player dealt in and the lines behind it.

    ``radelci`` is each player's radelci after the hand, where the rules use them;
    ``radelci_used`` the players whose radelc the hand used (its amounts doubled). Neither is
    an input to anything else, and ``radelci_used`` is not written to JSON: the stored
    results are as they were before it was told.
    """

    hand: Hand
    amounts: Mapping[str, Amount]
    lines: tuple[Line, ...]
    radelci: Mapping[str, int] | None = None
    radelci_used: frozenset[str] = frozenset()

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "amounts": dict(self.amounts),
            "lines": [line.to_json() for line in self.lines],
        }
        if self.radelci is not None:
            data["radelci"] = dict(self.radelci)
        return data
