"""Czech tarok for four players (RULES.md §2, seed 001).

Every hand is zero-sum: the game, the pagat ultimo, the valat and each declaration are
separate side items (§0), added. The partner in the obligations is the holder of the called
XIX; a declarer who holds it himself plays alone, 1 v 3, at the same rate.
"""

from __future__ import annotations

import functools
from decimal import Decimal
from typing import Any

from rules import labels
from rules.counting import PIPS_54, Deck, in_threes_rest_less_one
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
from rules.model import DECLARER, DEFENDERS, Hand, Line
from rules.problems import Problems
from rules.variant import BonusSpec, Contract, Rules, Switch, Variant, contract
from rules.words import Phrase, Say

WIN = 35  # the declarer's side wins with more than 35 of the 70 card points
CARD_POINTS = 70
DECK = Deck("czech", tuple(range(1, 23)), PIPS_54, in_threes_rest_less_one)
TRICKS = 12
MAX_CONTRA = 3  # contra ×2, re ×4, sub ×8

OBLIGATIONS = ("first-obligation", "second-obligation")
# Units per card point over or under 35; trojka's rate is its level.
RATES = {"first-obligation": 1, "second-obligation": 1, "solo": 6}
BONUS_VALUES = {"pagat-ultimo": (10, 20), "valat": (70, 140)}  # silent, announced

DECLARATION_UNITS = {
    "trumps-10": 10,
    "no-trumps": 10,
    "trumps-8": 5,
    "trumps-1": 5,
    "trul": 5,
    "honours": 5,
    "four-kings": 10,
}
TRUMP_COUNTS = frozenset({"trumps-10", "no-trumps", "trumps-8", "trumps-1"})
# Pairs one player cannot declare together (besides two of the trump counts).
INCOMPATIBLE = frozenset(
    {
        frozenset({"honours", "four-kings"}),
        frozenset({"trul", "no-trumps"}),
        frozenset({"trul", "trumps-1"}),
    }
)
ONE_HOLDER = frozenset({"trul", "four-kings"})  # only one player in a hand can hold these

# Varsovia: what the loser pays each other player, by the loser's own points.
VARSOVIA_LOW, VARSOVIA_HIGH = 69, 71  # all cards are taken; piles counted one by one
NO_TRICK: Phrase = (Say("line.no-trick"),)


def varsovia_payment(points: int) -> int:
    """Up to 29 → 10, 30–39 → 20, 40 or more → 40.

    >>> [varsovia_payment(points) for points in (29, 30, 39, 40)]
    [10, 20, 20, 40]
    """
    return 10 if points <= 29 else 20 if points <= 39 else 40


def incompatible(first: str, second: str) -> bool:
    if first in TRUMP_COUNTS and second in TRUMP_COUNTS:
        return True
    return frozenset({first, second}) in INCOMPATIBLE


SWITCHES = {"declarations_payer": Switch("declarations_payer", choices=("side", "individual"))}
PRESETS = {"seed": {"declarations_payer": "side"}}
BONUS_SPECS = {
    "pagat-ultimo": BonusSpec("pagat-ultimo", silent_fail=True),
    "valat": BonusSpec("valat"),
}


class Czech(Variant):
    id = "czech"
    family = "czech"
    family_label = labels.FAMILIES["czech"]
    player_counts = (4,)
    card_points = CARD_POINTS
    deck = DECK
    presets = PRESETS
    default_preset = "seed"
    switches = SWITCHES
    bonus_specs = BONUS_SPECS

    def contracts(self, rules: Rules) -> dict[str, Contract]:
        bonuses = tuple(BONUS_VALUES)
        out = {
            cid: contract(cid, "declarer points", "partner contra declarations", bonuses)
            for cid in OBLIGATIONS
        }
        out["trojka"] = contract("trojka", "declarer points level", "contra declarations", bonuses)
        out["solo"] = contract("solo", "declarer points", "contra declarations", bonuses)
        out["varsovia"] = contract("varsovia", "points_by_player", "tricks_by_player")
        return out

    def max_contra(self, rules: Rules) -> int:
        return MAX_CONTRA

    # -- checks ----------------------------------------------------------------------------

    def check(self, hand: Hand, rules: Rules, problems: Problems, path: str) -> None:
        if hand.contract == "varsovia":
            _check_varsovia(hand, problems, path)
            return
        if hand.contract == "second-obligation":
            _check_second_obligation(hand, problems, path)
        _check_valat(hand, problems, path)
        _check_declarations(hand, problems, path)

    # -- scoring ---------------------------------------------------------------------------

    def score(self, hand: Hand, rules: Rules, carry: Any) -> tuple[list[Line], Any]:
        if hand.contract == "varsovia":
            return _varsovia(hand), carry
        lines = [_game(hand)]
        for bonus in hand.bonuses:
            value = bonus_value(bonus, *BONUS_VALUES[bonus.name])
            text = bonus_words(bonus, value) + contra_words(bonus.contra)
            lines.append(
                side_line(hand, bonus.name, text, bonus.side, value, multiplier(bonus.contra))
            )
        individual = rules["declarations_payer"] == "individual"
        for declaration in hand.declarations:
            units = DECLARATION_UNITS[declaration.name]
            holder = declaration.player
            declared = labels.DECLARATIONS[declaration.name]
            text = (Say("line.declaration", player=holder, declaration=declared, units=units),)
            if individual:
                others = tuple(p for p in hand.players if p != holder)
                lines.append(Line(declaration.name, text, zero_sum((holder,), others, units)))
            else:
                side = DECLARER if holder in hand.declarer_side else DEFENDERS
                lines.append(side_line(hand, declaration.name, text, side, units))
        return lines, carry


def _game(hand: Hand) -> Line:
    """``d × rate`` for the declarer's side; 35:35 loses one unit whatever the rate."""
    rate = hand.level if hand.contract == "trojka" else RATES[hand.contract]
    difference = hand.points - WIN
    value = -1 if difference == 0 else difference * rate
    text = _game_words(hand.contract, hand.level, hand.points, rate, hand.contra)
    return side_line(hand, "game", text, DECLARER, value, multiplier(hand.contra))


@functools.lru_cache(maxsize=SHARED_PHRASES)
def _game_words(contract: str, level: int | None, points: int, rate: int, contra: int) -> Phrase:
    """ "solo, 40 points: difference +5 × 6, contra ×2": shared, as ``rules.items`` says."""
    label = labels.CONTRACTS[contract]
    if contract == "trojka":
        label = Say("line.contract-level", contract=label, level=level)
    difference = points - WIN
    if difference == 0:
        text = (Say("line.czech-even", contract=label),)
    else:
        signed = f"+{difference}" if difference > 0 else difference  # "+5", "−5"
        text = (
            Say(
                "line.czech-game",
                contract=label,
                points=points,
                difference=signed,
                rate=rate,
            ),
        )
        if difference < 0:
            text += LOST
    return text + contra_words(contra)


def _no_trick(hand: Hand) -> set[str]:
    tricks = hand.tricks_by_player
    points = hand.points_by_player
    if tricks is None:
        return {p for p in hand.players if points[p] == 0}
    return {p for p in hand.players if tricks[p] == 0}


def _cents(value: int) -> Any:
    """Hundredths as an exact amount: an int when whole, else a Decimal of two places."""
    return value // 100 if value % 100 == 0 else Decimal(value).scaleb(-2)


def _varsovia(hand: Hand) -> list[Line]:
    """The player with most points pays each other player; tied losers share each payment,
    each share truncated to the hundredth, the hundredths left over one each in seat order."""
    points = hand.points_by_player
    most = max(points.values())
    losers = tuple(p for p in hand.players if points[p] == most)
    payment = varsovia_payment(most)
    no_trick = _no_trick(hand)
    lines = []
    for payee in hand.players:
        if payee in losers:
            continue
        paid = payment * 2 if payee in no_trick else payment
        text = _varsovia_words(losers, most, payee, paid, payee in no_trick)
        share, left = divmod(paid * 100, len(losers))
        amounts = {loser: -_cents(share + (1 if i < left else 0)) for i, loser in enumerate(losers)}
        amounts[payee] = paid
        lines.append(Line("varsovia", text, amounts))
    return lines


@functools.lru_cache(maxsize=SHARED_PHRASES)
def _varsovia_words(
    losers: tuple[str, ...], points: int, payee: str, paid: int, no_trick: bool
) -> Phrase:
    """ "varsovia: Ana 40 pays Dani 80 (no trick ×2)": shared, as ``rules.items`` says."""
    verb = "line.varsovia-pays" if len(losers) == 1 else "line.varsovia-pay"
    contract = labels.CONTRACTS["varsovia"]
    who = ", ".join(losers)
    text = (Say(verb, contract=contract, who=who, points=points, payee=payee, paid=paid),)
    return text + NO_TRICK if no_trick else text


# -- checks ---------------------------------------------------------------------------------


def _check_second_obligation(hand: Hand, problems: Problems, path: str) -> None:
    """The declarer holds the pagat and its announced ultimo is part of the contract."""
    for i, bonus in enumerate(hand.bonuses):
        if bonus.name != "pagat-ultimo":
            continue
        if bonus.side != DECLARER:
            problems.add(f"{path}bonuses[{i}].side", "second-obligation-pagat-side")
        if not bonus.announced:
            problems.add(f"{path}bonuses[{i}].announced", "second-obligation-pagat-announced")
        return
    problems.add(f"{path}bonuses", "second-obligation-pagat")


def _check_valat(hand: Hand, problems: Problems, path: str) -> None:
    """A side that took every trick holds far more than half the card points (at most the
    talon's or the discards' points stay with the other side), and no pagat of the other
    side can win the last trick."""
    valat = hand.bonus("valat")
    if valat is None or not valat.made:
        return
    i = hand.bonuses.index(valat)
    if valat.side == DECLARER and hand.points <= WIN:
        problems.add(f"{path}points", "valat-declarer-points", points=hand.points)
    elif valat.side == DEFENDERS and hand.points >= WIN:
        problems.add(f"{path}points", "valat-defenders-points", points=hand.points)
    pagat = hand.bonus("pagat-ultimo")
    if pagat is not None and pagat.made and pagat.side != valat.side:
        problems.add(
            f"{path}bonuses[{hand.bonuses.index(pagat)}].made",
            "valat-and-pagat",
            valat=f"bonuses[{i}]",
        )


def _check_declarations(hand: Hand, problems: Problems, path: str) -> None:
    """One player's declarations add up unless incompatible; trul and four kings have one
    holder in a hand."""
    holders: dict[str, str] = {}
    declared: dict[str, list[str]] = {}
    for i, declaration in enumerate(hand.declarations):
        at = f"{path}declarations[{i}].name"
        name, player = declaration.name, declaration.player
        mine = declared.setdefault(player, [])
        label = labels.DECLARATIONS[name]
        if name in mine:
            problems.add(at, "duplicate-declaration", player=player, declaration=label)
            continue
        if name in ONE_HOLDER and holders.get(name, player) != player:
            problems.add(at, "declaration-one-holder", declaration=label, other=holders[name])
            continue
        clash = next((other for other in mine if incompatible(name, other)), None)
        if clash is not None:
            problems.add(
                at,
                "declarations-incompatible",
                player=player,
                declaration=label,
                other=labels.DECLARATIONS[clash],
            )
            continue
        mine.append(name)
        if name in ONE_HOLDER:
            holders[name] = player


def _check_varsovia(hand: Hand, problems: Problems, path: str) -> None:
    points = hand.points_by_player
    total = sum(points.values())
    if not VARSOVIA_LOW <= total <= VARSOVIA_HIGH:
        problems.add(
            f"{path}points_by_player",
            "varsovia-points-total",
            total=total,
            low=VARSOVIA_LOW,
            high=VARSOVIA_HIGH,
        )
    tricks = hand.tricks_by_player
    if tricks is None:
        return
    total = sum(tricks.values())
    if total != TRICKS:
        problems.add(f"{path}tricks_by_player", "tricks-total", total=total, tricks=TRICKS)
    for player in hand.players:
        # The talon's cards go to the winners of the first six tricks: no trick, no cards.
        if tricks[player] == 0 and points[player] != 0:
            problems.add(
                f"{path}points_by_player.{player}", "no-trick-points", points=points[player]
            )


VARIANTS = (Czech(),)
