"""Counting the card points of a pile from card names a player would type (RULES.md §5).

>>> count("slovenian-4", ["pagat", "mond", "skis"]).points
13
>>> count("french-4", ["excuse", "kh", "7c"]).points
Decimal('9.5')
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from rules.labels import FAMILIES
from rules.problems import Problems
from rules.variant import get_variant
from rules.words import Say

SUITS = {
    "hearts": "hearts",
    "heart": "hearts",
    "h": "hearts",
    "♥": "hearts",
    "srce": "hearts",
    "diamonds": "diamonds",
    "diamond": "diamonds",
    "d": "diamonds",
    "♦": "diamonds",
    "kara": "diamonds",
    "spades": "spades",
    "spade": "spades",
    "s": "spades",
    "♠": "spades",
    "pik": "spades",
    "clubs": "clubs",
    "club": "clubs",
    "c": "clubs",
    "♣": "clubs",
    "kriz": "clubs",
    "križ": "clubs",
}
RANKS = {
    "king": "king",
    "k": "king",
    "kralj": "king",
    "queen": "queen",
    "q": "queen",
    "dama": "queen",
    "cavall": "cavall",
    "knight": "cavall",
    "horse": "cavall",
    "n": "cavall",
    "kn": "cavall",
    "c": "cavall",
    "konj": "cavall",
    "caval": "cavall",
    "jack": "jack",
    "j": "jack",
    "knave": "jack",
    "page": "jack",
    "fant": "jack",
    "low": "low",
    "l": "low",
}
TAROK_NAMES = {
    "pagat": 1,
    "petit": 1,
    "mond": 21,
    "skis": 22,
    "škis": 22,
    "sküs": 22,
    "skus": 22,
    "skys": 22,
    "excuse": 22,
    "fool": 22,
}
ROMAN = {
    "I": 1,
    "II": 2,
    "III": 3,
    "IV": 4,
    "V": 5,
    "VI": 6,
    "VII": 7,
    "VIII": 8,
    "IX": 9,
    "X": 10,
    "XI": 11,
    "XII": 12,
    "XIII": 13,
    "XIV": 14,
    "XV": 15,
    "XVI": 16,
    "XVII": 17,
    "XVIII": 18,
    "XIX": 19,
    "XX": 20,
    "XXI": 21,
    "XXII": 22,
}
COURTS = ("king", "queen", "cavall", "jack")
SUITS_IN_ORDER = ("hearts", "diamonds", "spades", "clubs")
TRULA = frozenset({"tarok-1", "tarok-21", "tarok-22"})
FIVES = TRULA | {f"{s}-king" for s in SUITS_IN_ORDER}
# The short labels of a card on a chip (``Deck.label``).
SUIT_SIGNS = {"hearts": "♥", "diamonds": "♦", "spades": "♠", "clubs": "♣"}
COURT_SIGNS = {"king": "K", "queen": "Q", "cavall": "C", "jack": "J", "low": "low "}
ROMAN_OF = {n: roman for roman, n in ROMAN.items()}


@dataclass(frozen=True)
class Count:
    """The points of a pile, its cards by canonical name, and what they complete."""

    points: int | Decimal
    cards: tuple[str, ...]
    oudlers: int  # French: petit, 21 and excuse in the pile
    trula: bool  # pagat, mond and škis (trull) all in the pile
    kings: bool  # all four kings in the pile


def value(card: str) -> int:
    """Plain card value: trula and kings 5, queens 4, cavalls 3, jacks 2, the rest 1 (0 for
    the Zwanzigerrufen low suit cards). French halves are applied by its counting rule."""
    if card in FIVES:
        return 5
    rank = card.rsplit("-", 1)[1]
    if card.startswith("tarok-"):
        return 1
    return {"queen": 4, "cavall": 3, "jack": 2, "low": 0}.get(rank, 1)


# How each family counts a pile from its cards' plain values (RULES.md §5).


def in_threes(values: list[int]) -> int:
    """Slovenian: groups of three ``sum − 2``, a last two ``sum − 1``, a last single card its
    value if it is a court or an honour and 0 if it is a common card."""
    n = len(values)
    points = sum(values) - 2 * (n // 3)
    if n % 3 == 2 or (n % 3 == 1 and not any(v >= 2 for v in values)):
        points -= 1
    return points


def in_threes_rest_less_one(values: list[int]) -> int:
    """Czech: groups of three ``sum − 2``, one or two cards left over ``sum − 1``."""
    n = len(values)
    return sum(values) - 2 * (n // 3) - (1 if n % 3 else 0)


def card_by_card(values: list[int]) -> int:
    """Zwanzigerrufen: the plain values, card by card."""
    return sum(values)


def less_a_half_each(values: list[int]) -> int | Decimal:
    """French: every card half a point less than its plain value (oudlers and kings 4.5)."""
    points = sum(values) - Decimal("0.5") * len(values)
    return int(points) if points == int(points) else points


@dataclass(frozen=True)
class Deck:
    """The cards of a family's deck, their names on a chip, and how a pile of them is counted.
    Each family module declares its own; its variants carry it (``Variant.deck``)."""

    family: str  # as a problem names the deck: "not a card of the french deck"
    taroks: tuple[int, ...]
    pips: dict[str, tuple[str, ...]]  # suit -> its non-court cards
    rule: Callable[[list[int]], int | Decimal]  # the pile's points from its cards' values
    fool: str = "Škis"  # tarok 22's name: Škis, Sküs, the French Excuse
    trumps_label: Say = Say("deck.taroks")  # the heading of its trumps

    def cards(self) -> list[str]:
        out = [f"tarok-{n}" for n in self.taroks]
        for suit in SUITS_IN_ORDER:
            out += [f"{suit}-{rank}" for rank in COURTS + self.pips[suit]]
        return out

    def label(self, card: str) -> str:
        """A short chip label: "I", "XXI", "Škis", "K♥", "Q♠", "7♣"."""
        kind, rank = card.rsplit("-", 1)
        if kind == "tarok":
            number = int(rank)
            return self.fool if number == 22 else ROMAN_OF[number]
        return COURT_SIGNS.get(rank, rank) + SUIT_SIGNS[kind]

    def count(self, cards: list[str] | tuple[str, ...]) -> Count:
        """Count a pile; an unknown or repeated card raises ``RulesError`` naming it."""
        known = set(self.cards())
        problems = Problems()
        pile: list[str] = []
        for i, name in enumerate(cards):
            card = parse_card(name)
            if card is None or card not in known:
                problems.add(
                    f"cards[{i}]",
                    "unknown-card",
                    value=name,
                    family=FAMILIES.get(self.family, self.family),
                )
            elif card in pile:
                problems.add(f"cards[{i}]", "duplicate-card", value=name)
            else:
                pile.append(card)
        problems.raise_if_any()
        return Count(
            points=self.rule([value(c) for c in pile]),
            cards=tuple(pile),
            oudlers=len(TRULA.intersection(pile)),
            trula=TRULA <= set(pile),
            kings=all(f"{s}-king" in pile for s in SUITS_IN_ORDER),
        )


# The suit cards below the courts of the 54-card decks: four red, four black.
RED_54 = ("1", "2", "3", "4")
BLACK_54 = ("10", "9", "8", "7")
PIPS_54 = {"hearts": RED_54, "diamonds": RED_54, "spades": BLACK_54, "clubs": BLACK_54}


def count(variant_id: str, cards: list[str] | tuple[str, ...]) -> Count:
    """Count a pile of a variant's cards (the command line's ``count``); an unknown variant,
    card or a repeated card raises ``RulesError`` naming it."""
    return get_variant(variant_id).count(cards)


def parse_card(name: str) -> str | None:
    """A canonical card from what a player types: ``pagat``, ``XXI``, ``škis``, ``hearts king``,
    ``king of hearts``, ``kh``, ``10s``, ``hearts 4``; None when it names no card."""
    text = name.strip()
    if text.upper() in ROMAN and text.isascii() and text.isalpha():
        return f"tarok-{ROMAN[text.upper()]}"
    lowered = text.lower().replace("-", " ")  # canonical names read back: "tarok-1", "hearts-king"
    if lowered in TAROK_NAMES:
        return f"tarok-{TAROK_NAMES[lowered]}"
    if lowered.startswith("tarok ") or lowered.startswith("trump "):
        number = lowered.split(" ", 1)[1].strip()
        if number.upper() in ROMAN:
            return f"tarok-{ROMAN[number.upper()]}"
        if number.isdigit() and 1 <= int(number) <= 22:
            return f"tarok-{int(number)}"
        return None
    words = [w for w in re.split(r"[\s,]+", lowered.replace(" of ", " ")) if w]
    if len(words) == 2:
        first, second = words
        if first in SUITS and (second in RANKS or second.isdigit()):
            return _suit_card(SUITS[first], second)
        if second in SUITS and (first in RANKS or first.isdigit()):
            return _suit_card(SUITS[second], first)
        return None
    if len(words) == 1:
        # Short codes: rank then suit, "kh", "qs", "cc" (cavall of clubs), "10d", "7c", or
        # suit symbol first, "♥K".
        match = re.fullmatch(r"(10|[1-9]|kn|[kqcnjl])([hdsc♥♦♠♣])", words[0]) or re.fullmatch(
            r"([♥♦♠♣])(10|[1-9]|[kqcnjl])", words[0]
        )
        if match:
            a, b = match.groups()
            rank, suit = (b, a) if a in "♥♦♠♣" else (a, b)
            return _suit_card(SUITS[suit], rank)
    return None


def _suit_card(suit: str, rank: str) -> str | None:
    if rank.isdigit():
        return f"{suit}-{int(rank)}"
    return f"{suit}-{RANKS[rank]}" if rank in RANKS else None


def split_card_words(words: list[str]) -> list[str]:
    """Command-line words to card names: ``hearts king`` and ``king of hearts`` typed without
    quotes become one card each."""
    out: list[str] = []
    i = 0
    lowered = [w.lower() for w in words]
    while i < len(words):
        w = lowered[i]
        if i + 2 < len(words) and lowered[i + 1] == "of" and lowered[i + 2] in SUITS:
            out.append(" ".join(words[i : i + 3]))
            i += 3
        elif (
            i + 1 < len(words)
            and w in SUITS
            and len(w) > 1
            and (lowered[i + 1] in RANKS or lowered[i + 1].isdigit())
        ):
            out.append(f"{words[i]} {words[i + 1]}")
            i += 2
        elif i + 1 < len(words) and w in ("tarok", "trump"):
            out.append(f"{words[i]} {words[i + 1]}")
            i += 2
        else:
            out.append(words[i])
            i += 1
    return out
