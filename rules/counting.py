"""Counting the card points of a pile from card names a player would type (RULES.md §5).

>>> count("slovenian-4", ["pagat", "mond", "skis"]).points
13
>>> count("french-4", ["excuse", "kh", "7c"]).points
Decimal('9.5')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from rules.problems import Problems
from rules.variant import get_variant

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
TRULA = frozenset({"tarok-1", "tarok-21", "tarok-22"})


@dataclass(frozen=True)
class Deck:
    """The cards of a family's deck and how a pile of them is counted."""

    family: str
    taroks: tuple[int, ...]
    pips: dict[str, tuple[str, ...]]  # suit -> its non-court cards

    def cards(self) -> list[str]:
        out = [f"tarok-{n}" for n in self.taroks]
        for suit in ("hearts", "diamonds", "spades", "clubs"):
            out += [f"{suit}-{rank}" for rank in COURTS + self.pips[suit]]
        return out


RED_54 = ("1", "2", "3", "4")
BLACK_54 = ("10", "9", "8", "7")
DECKS = {
    "slovenian": Deck(
        "slovenian",
        tuple(range(1, 23)),
        {"hearts": RED_54, "diamonds": RED_54, "spades": BLACK_54, "clubs": BLACK_54},
    ),
    "czech": Deck(
        "czech",
        tuple(range(1, 23)),
        {"hearts": RED_54, "diamonds": RED_54, "spades": BLACK_54, "clubs": BLACK_54},
    ),
    # Tarocks I and IV–XXI plus the sküs, and one low card per suit.
    "zwanzigerrufen": Deck(
        "zwanzigerrufen",
        (1, *range(4, 23)),
        dict.fromkeys(("hearts", "diamonds", "spades", "clubs"), ("low",)),
    ),
    "french": Deck(
        "french",
        tuple(range(1, 23)),
        dict.fromkeys(
            ("hearts", "diamonds", "spades", "clubs"), tuple(str(n) for n in range(10, 0, -1))
        ),
    ),
}
FIVES = TRULA | {f"{s}-king" for s in ("hearts", "diamonds", "spades", "clubs")}


@dataclass(frozen=True)
class Count:
    """The points of a pile, its cards by canonical name, and what they complete."""

    points: int | Decimal
    cards: tuple[str, ...]
    oudlers: int  # French: petit, 21 and excuse in the pile
    trula: bool  # pagat, mond and škis (trull) all in the pile
    kings: bool  # all four kings in the pile


def value(card: str, family: str) -> int:
    """Plain card value: trula and kings 5, queens 4, cavalls 3, jacks 2, the rest 1 (0 for
    the Zwanzigerrufen low suit cards). French halves are applied by ``count``."""
    if card in FIVES:
        return 5
    rank = card.rsplit("-", 1)[1]
    if card.startswith("tarok-"):
        return 1
    return {"queen": 4, "cavall": 3, "jack": 2, "low": 0}.get(rank, 1)


def count(variant_id: str, cards: list[str] | tuple[str, ...]) -> Count:
    """Count a pile; an unknown or repeated card raises ``RulesError`` naming it."""
    family = get_variant(variant_id).family
    deck = DECKS[family]
    known = set(deck.cards())
    problems = Problems()
    pile: list[str] = []
    for i, name in enumerate(cards):
        card = parse_card(name)
        if card is None or card not in known:
            problems.add(f"cards[{i}]", "unknown-card", value=name, family=family)
        elif card in pile:
            problems.add(f"cards[{i}]", "duplicate-card", value=name)
        else:
            pile.append(card)
    problems.raise_if_any()
    values = [value(c, family) for c in pile]
    total, n = sum(values), len(pile)
    if family == "french":
        points: int | Decimal = sum(values) - Decimal("0.5") * n
        if points == int(points):
            points = int(points)
    elif family == "zwanzigerrufen":
        points = total
    elif family == "czech":
        points = total - 2 * (n // 3) - (1 if n % 3 else 0)
    else:
        points = total - 2 * (n // 3)
        if n % 3 == 2 or (n % 3 == 1 and not any(v >= 2 for v in values)):
            points -= 1
    return Count(
        points=points,
        cards=tuple(pile),
        oudlers=len(TRULA.intersection(pile)),
        trula=TRULA <= set(pile),
        kings=all(f"{s}-king" in pile for s in ("hearts", "diamonds", "spades", "clubs")),
    )


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
