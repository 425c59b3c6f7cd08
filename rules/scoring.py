"""Scoring one hand, and a whole sheet with what it carries from hand to hand."""

from __future__ import annotations

import gc
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, NamedTuple

from rules.model import Amount, Hand, Line, Result
from rules.problems import Problems, RulesError, field_name
from rules.reader import Sheet, known_format, read_hand, read_house_rules, read_players
from rules.settlement import Settlement, settle
from rules.variant import NOBODY, REDEAL, Rules, Variant, get_variant
from rules.words import Say

# "confirmations": what the players said of the hands (HANDS.md), carried beside them, never read.
SHEET_KEYS = frozenset(
    {"format", "variant", "rules", "house_rules", "players", "hands", "confirmations"}
)
MAX_HANDS = 1_000  # hands in a sheet: more than one session ever holds


def score_hand(data: Any, *, entered: bool = True) -> Result:
    """Validate and score one hand in the format of HANDS.md.

    Raises ``RulesError`` for anything that is not a hand the rules score, whatever ``data``
    holds. ``entered=False`` reads a hand already recorded (see ``read_hand``).

    >>> r = score_hand({"variant": "slovenian-3", "players": ["Ana", "Bor", "Cene"],
    ...     "contract": "two", "declarer": "Ana", "points": 39,
    ...     "bonuses": [{"name": "trula", "announced": True}]})
    >>> r.amounts
    {'Ana': 44, 'Bor': 0, 'Cene': 0}
    """
    problems = Problems()
    read = read_hand(data, problems, entered=entered)
    if read is None:
        raise RulesError(problems)
    variant, rules, hand = read
    result, _ = _play(variant, rules, hand, variant.carry_of(hand, rules))
    return result


def _play(variant: Variant, rules: Rules, hand: Hand, carry: Any) -> tuple[Result, Any]:
    lines: list[Line] = []
    used = NOBODY
    if variant.is_deal(hand.contract):
        lines, carry, used = variant.play(hand, rules, carry)
    for adjustment in hand.adjustments:
        if adjustment.reason:
            text = Say("line.adjustment-reason", reason=adjustment.reason)
        else:
            text = Say("line.adjustment")
        lines.append(Line("adjustment", (text,), {adjustment.player: adjustment.amount}))
    amounts: dict[str, Amount] = dict.fromkeys(hand.players, 0)
    for line in lines:
        for player, value in line.amounts.items():
            amounts[player] += value
    radelci = carry if variant.uses_radelci else None  # never changed once made (Played)
    return Result(hand, amounts, tuple(lines), radelci, used), carry


class Running(NamedTuple):
    """Where a sheet stands between two hands: enough to score the next hand without the ones
    before it. An app that stores it with each hand adds a hand at the cost of that hand alone.

    ``carry`` is what the variant carries (Slovenian radelci, else None); ``dealer_seat`` is the
    seat that deals next; ``played`` counts the hands so far.
    """

    totals: Mapping[str, Amount]
    carry: Any
    dealer_seat: int
    played: int

    def to_json(self) -> dict[str, Any]:
        """Plain JSON: an amount that is not a whole number is written as a string."""
        return {
            "totals": {player: amount_json(a) for player, a in self.totals.items()},
            "carry": self.carry,
            "dealer_seat": self.dealer_seat,
            "played": self.played,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Running:
        return cls(
            {player: amount_of(a) for player, a in data["totals"].items()},
            data["carry"],
            data["dealer_seat"],
            data["played"],
        )


def amount_json(amount: Amount) -> int | str:
    """An amount for JSON without losing a half point: whole numbers as ints, others as text."""
    if isinstance(amount, Decimal) and amount != amount.to_integral_value():
        return str(amount)
    return int(amount)


def amount_of(value: int | str) -> Amount:
    return Decimal(value) if isinstance(value, str) else value


def start(variant: Variant, rules: Rules, players: tuple[str, ...]) -> Running:
    """A sheet before its first hand."""
    return Running(dict.fromkeys(players, 0), variant.start_carry(players, rules), 0, 0)


class SheetRow(NamedTuple):
    """One hand of a sheet: its result, who dealt, and the running totals after it."""

    number: int
    dealer: str
    result: Result
    totals: Mapping[str, Amount]

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "dealer": self.dealer,
            **self.result.to_json(),
            "totals": dict(self.totals),
        }


@dataclass(frozen=True, slots=True)
class SheetResult:
    variant: str
    rules: Rules
    players: tuple[str, ...]
    rows: tuple[SheetRow, ...]
    closing: tuple[Line, ...]
    totals: Mapping[str, Amount]
    settlement: Settlement
    running: Running  # after the last hand, before any closing lines

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"hands": [row.to_json() for row in self.rows]}
        if self.closing:
            data["closing"] = [line.to_json() for line in self.closing]
        data["totals"] = dict(self.totals)
        data["settlement"] = self.settlement.to_json()
        return data


def read_sheet(data: Any, problems: Problems, *, entered: bool = True) -> Sheet | None:
    """The sheet's own fields: variant, rules and the seated players (``entered``: see
    ``read_hand``).

    Returns a ``Sheet`` only when ``data["hands"]`` is a list of 1 to ``MAX_HANDS`` items, so
    that a caller may then go through them (each still to be read with ``read_hand``); else
    adds the problems and returns None.
    """
    if not isinstance(data, dict):
        problems.add("", "not-an-object")
        return None
    for key in data:
        if not (isinstance(key, str) and key in SHEET_KEYS):
            problems.add(field_name(key), "unknown-key", key=key)
    if "format" in data and not known_format(data["format"]):
        problems.add("format", "unknown-format", value=data["format"])
    try:
        variant = get_variant(data.get("variant"))
    except RulesError as error:
        problems.extend(error.problems)
        return None
    rules = variant.read_rules(data.get("rules"), "rules", problems)
    house_rules = read_house_rules(data["house_rules"], problems) if "house_rules" in data else ""
    players = read_players(
        data.get("players"), problems, "players", variant, variant.table_sizes(), entered=entered
    )
    hands = data.get("hands")
    before = len(problems)
    if not isinstance(hands, list):
        problems.add("hands", "missing" if hands is None else "not-a-list")
    elif not hands:
        problems.add("hands", "empty-sheet")
    elif len(hands) > MAX_HANDS:
        problems.add("hands", "too-many-hands", limit=MAX_HANDS, count=len(hands))
    if rules is None or players is None or len(problems) > before:
        return None
    return Sheet(variant, rules, players, house_rules)


def score_sheet(data: Any, closed: bool = True, *, entered: bool = True) -> SheetResult:
    """Validate and score a sheet (HANDS.md, "A sheet"): every hand in order, running totals,
    radelci carried from hand to hand, the closing penalties and the settlement.

    Every problem of every hand is reported at once, paths starting ``hands[i]``. With
    ``closed`` false the session is still running: no closing lines are added.
    ``entered=False`` reads hands already recorded (see ``read_hand``).
    """
    with collector_paused():
        problems = Problems()
        sheet = read_sheet(data, problems, entered=entered)
        if sheet is None:
            raise RulesError(problems)
        read = []
        for i, raw in enumerate(data["hands"]):
            hand = read_hand(raw, problems, f"hands[{i}]", sheet, entered=entered)
            if hand is not None:
                read.append(hand[2])
        problems.raise_if_any()
        return evaluate(sheet.variant, sheet.rules, sheet.players, read, closed)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector held off while a sheet is read or scored.

    A long sheet makes hundreds of thousands of small tuples and dicts, none in a reference
    cycle, so reference counting frees every one of them; yet the collector, started by the
    sheer number of new objects, walks them all again and again: about a quarter of the time. It
    runs as before once the sheet is done (and not at all if someone else had paused it).
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def evaluate(
    variant: Variant,
    rules: Rules,
    players: tuple[str, ...],
    hands: list[Hand],
    closed: bool,
    running: Running | None = None,
) -> SheetResult:
    """Score hands that were already read, in order; the app calls this for a session.

    With ``running`` the hands continue a sheet from where it stood (their rows are numbered
    on from it); without, they are a whole sheet.
    """
    with collector_paused():
        if running is None:
            running = start(variant, rules, players)
        rows = []
        for hand in hands:
            row, running = play(variant, rules, players, hand, running)
            rows.append(row)
        totals = dict(running.totals)
        closing = tuple(variant.closing_lines(players, running.carry, rules)) if closed else ()
        for line in closing:
            for player, value in line.amounts.items():
                totals[player] += value
        return SheetResult(
            variant.id,
            rules,
            players,
            tuple(rows),
            closing,
            totals,
            settle(totals, variant.settlement_method(rules)),
            running,
        )


def play(
    variant: Variant, rules: Rules, players: tuple[str, ...], hand: Hand, running: Running
) -> tuple[SheetRow, Running]:
    """One more hand of a sheet: its row, and where the sheet stands after it."""
    dealer_seat = running.dealer_seat if hand.dealer is None else players.index(hand.dealer)
    result, carry = _play(variant, rules, hand, running.carry)
    totals = dict(running.totals)
    for player, value in result.amounts.items():
        totals[player] += value
    number = running.played + 1
    row = SheetRow(number, players[dealer_seat], result, totals)
    if hand.contract != REDEAL.id:  # a redeal is dealt again by the same dealer
        dealer_seat = (dealer_seat + 1) % len(players)
    return row, Running(totals, carry, dealer_seat, number)
