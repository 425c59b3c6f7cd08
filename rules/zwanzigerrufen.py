"""Zwanzigerrufen (RULES.md §3, seed 000): four players, a deck of 40 worth 88 card points.

Rufer is 2 v 2 (or 1 v 3 when the declarer holds every callable tarock), solo and suit solo
are 1 v 3. Every item is zero-sum (§0): the game, absolut (from the points, announced by
either side), pagat ultimo, valat, and the premiums trull, king trull and mond caught, which
belong to one player or, with ``premium_payer = "side"``, to his side.

A rufer with Cene, all 88 points and a silent valat (RULES.md §9): game 1, absolut 1 and
valat 6, each side item ±8 between the pairs.

>>> from rules import score_hand
>>> score_hand({"variant": "zwanzigerrufen", "players": ["Ana", "Bor", "Cene", "Dani"],
...     "contract": "rufer", "declarer": "Ana", "partner": "Cene", "points": 88,
...     "bonuses": [{"name": "valat"}]}).amounts
{'Ana': 8, 'Bor': -8, 'Cene': 8, 'Dani': -8}
"""

from __future__ import annotations

import functools
from typing import Any

from rules import labels
from rules.counting import Deck, card_by_card
from rules.items import (
    LOST,
    SHARED_PHRASES,
    bonus_value,
    bonus_words,
    contra_words,
    multiplier,
    side_line,
    zero_sum,
)
from rules.model import DECLARER, DEFENDERS, Bonus, Hand, Line
from rules.problems import Problems
from rules.variant import BonusSpec, Contract, Rules, Switch, Variant, contract
from rules.words import Phrase, Say

FAMILY = "zwanzigerrufen"
CARD_POINTS = 88
# Tarocks I and IV–XXI plus the sküs, and one low card per suit; counted card by card.
DECK = Deck(
    FAMILY,
    (1, *range(4, 23)),
    dict.fromkeys(("hearts", "diamonds", "spades", "clubs"), ("low",)),
    card_by_card,
    fool="Sküs",
)
CONTRA_WORDS = labels.ZWANZIGERRUFEN_CONTRA_WORDS
WIN = 45  # the declarer's side wins with 45; 44:44 loses
ABSOLUT = 56  # a side with 56 card points or more has absolut

# Values per item: (rufer, solo / suit solo); bonuses as (silent, announced).
GAME = {"rufer": 1, "solo": 4, "suit-solo": 4}
RUFER_BONUSES = {"absolut": (1, 2), "pagat-ultimo": (1, 2), "valat": (6, 12)}
SOLO_BONUSES = {"absolut": (2, 4), "pagat-ultimo": (2, 4), "valat": (12, 24)}
RUFER_PREMIUMS = {"trull": 1, "king-trull": 1, "mond-caught": 1}
SOLO_PREMIUMS = {"trull": 2, "king-trull": 2, "mond-caught": 2}
PREMIUMS = ("trull", "king-trull", "mond-caught")
HELD = ("trull", "king-trull")  # paid to the holder; mond caught is paid by who played it

ALL_BONUSES = ("absolut", "pagat-ultimo", "valat", "trull", "king-trull", "mond-caught")
# In a suit solo tarocks are not trumps: no pagat, trull or mond caught (the seed).
SUIT_SOLO_BONUSES = ("absolut", "valat", "king-trull")

SWITCHES = {
    s.name: s
    for s in (
        Switch("valat_scoring", choices=("sum", "plus-game", "replaces-game")),
        Switch("premium_payer", choices=("individual", "side")),
    )
}
PRESETS = {"seed": {"valat_scoring": "sum", "premium_payer": "individual"}}

BONUS_SPECS = {
    "absolut": BonusSpec("absolut", made_optional=True),
    "pagat-ultimo": BonusSpec("pagat-ultimo", silent_fail=True),
    "valat": BonusSpec("valat"),
    "trull": BonusSpec("trull", announce=False, player=True),
    "king-trull": BonusSpec("king-trull", announce=False, player=True),
    "mond-caught": BonusSpec("mond-caught", announce=False, player=True),
}


def side_points(hand: Hand, side: str) -> int:
    """The card points of a side: ``points`` is the declarer's side's own pile."""
    return hand.points if side == DECLARER else CARD_POINTS - hand.points


def other(side: str) -> str:
    return DEFENDERS if side == DECLARER else DECLARER


class Zwanzigerrufen(Variant):
    id = FAMILY
    family = FAMILY
    family_label = labels.FAMILIES["zwanzigerrufen"]
    player_counts = (4,)
    card_points = CARD_POINTS
    deck = DECK
    contra_words = CONTRA_WORDS
    trula_bonus = "trull"
    presets = PRESETS
    default_preset = "seed"
    switches = SWITCHES
    bonus_specs = BONUS_SPECS

    def contracts(self, rules: Rules) -> dict[str, Contract]:
        return {
            "rufer": contract("rufer", "declarer points", "partner contra", ALL_BONUSES),
            "suit-solo": contract("suit-solo", "declarer points", "contra", SUIT_SOLO_BONUSES),
            "solo": contract("solo", "declarer points", "contra", ALL_BONUSES),
        }

    def max_contra(self, rules: Rules) -> int:
        return 3

    def check(self, hand: Hand, rules: Rules, problems: Problems, path: str) -> None:
        for i, bonus in enumerate(hand.bonuses):
            at = f"{path}bonuses[{i}]"
            if bonus.name == "absolut":
                if not bonus.announced:
                    problems.add(f"{at}.announced", "absolut-silent")
                elif bonus.made is not None and bonus.made != _has_absolut(hand, bonus.side):
                    problems.add(
                        f"{at}.made",
                        "absolut-disagrees",
                        side=labels.SIDES[bonus.side],
                        points=side_points(hand, bonus.side),
                    )
            elif bonus.name == "valat" and bonus.made:
                needed = CARD_POINTS if bonus.side == DECLARER else 0
                if hand.points != needed:
                    problems.add(
                        f"{path}points",
                        "valat-points",
                        side=labels.SIDES[bonus.side],
                        points=needed,
                    )

    def score(self, hand: Hand, rules: Rules, carry: Any) -> tuple[list[Line], Any]:
        solo = hand.contract != "rufer"
        bonus_values = SOLO_BONUSES if solo else RUFER_BONUSES
        valat = hand.bonus("valat")
        valat_made = valat is not None and bool(valat.made)
        scoring = rules["valat_scoring"]

        if valat_made and scoring == "replaces-game":
            return [self._bonus(hand, valat, bonus_values)], carry
        game = self._game(hand)
        if valat_made and scoring == "plus-game":
            return [game, self._bonus(hand, valat, bonus_values)], carry

        lines = [game]
        lines.extend(self._absolut(hand, bonus_values))
        for bonus in hand.bonuses:
            if bonus.name in ("pagat-ultimo", "valat"):
                lines.append(self._bonus(hand, bonus, bonus_values))
        premiums = SOLO_PREMIUMS if solo else RUFER_PREMIUMS
        for bonus in hand.bonuses:
            if bonus.name in PREMIUMS:
                lines.append(self._premium(hand, bonus, premiums[bonus.name], rules))
        return lines, carry

    # -- items -----------------------------------------------------------------------------

    def _game(self, hand: Hand) -> Line:
        value = GAME[hand.contract]
        won = hand.points >= WIN
        text = _game_words(hand.contract, value, won, hand.contra)
        return side_line(
            hand, "game", text, DECLARER, value if won else -value, multiplier(hand.contra)
        )

    def _bonus(self, hand: Hand, bonus: Bonus, bonus_values) -> Line:
        """An announced bonus, or a silent pagat ultimo or valat: a side item of its side."""
        value = bonus_value(bonus, *bonus_values[bonus.name])
        level = bonus.contra
        text = bonus_words(bonus, value) + contra_words(level, CONTRA_WORDS)
        return side_line(hand, bonus.name, text, bonus.side, value, multiplier(level))

    def _absolut(self, hand: Hand, bonus_values) -> list[Line]:
        """The announced absolut, made or not by the points; a side with 56 that did not
        announce it scores it silently."""
        lines = []
        announced = hand.bonus("absolut")
        for side in (DECLARER, DEFENDERS):
            made = _has_absolut(hand, side)
            if announced is not None and announced.side == side:
                bonus = Bonus("absolut", side, True, made, announced.contra)
                lines.append(self._bonus(hand, bonus, bonus_values))
            elif made:
                lines.append(self._bonus(hand, Bonus("absolut", side), bonus_values))
        return lines

    def _premium(self, hand: Hand, bonus: Bonus, value: int, rules: Rules) -> Line:
        """Trull and king trull are paid to their holder, mond caught by who played the mond:
        one player against the other three, or (``premium_payer = "side"``) his side."""
        player = bonus.player
        gains = bonus.name in HELD
        text = _premium_words(bonus.name, value, player)
        if rules["premium_payer"] == "side":
            side = DECLARER if player in hand.declarer_side else DEFENDERS
            return side_line(hand, bonus.name, text, side, value if gains else -value)
        others = tuple(p for p in hand.players if p != player)
        if gains:
            amounts = zero_sum((player,), others, value)
        else:
            amounts = zero_sum(others, (player,), value)
        return Line(bonus.name, text, amounts, 1)


@functools.lru_cache(maxsize=SHARED_PHRASES)
def _game_words(contract: str, value: int, won: bool, level: int) -> Phrase:
    """ "rufer 1, lost, contra ×2": shared, as ``rules.items`` says."""
    text = (Say("line.value", what=labels.CONTRACTS[contract], value=value),)
    return (text if won else text + LOST) + contra_words(level, CONTRA_WORDS)


@functools.lru_cache(maxsize=SHARED_PHRASES)
def _premium_words(name: str, value: int, player: str) -> Phrase:
    """ "trull 1, Ana": shared, as ``rules.items`` says."""
    return (Say("line.premium", bonus=labels.BONUSES[name], value=value, player=player),)


def _has_absolut(hand: Hand, side: str) -> bool:
    return side_points(hand, side) >= ABSOLUT


VARIANTS = (Zwanzigerrufen(),)
