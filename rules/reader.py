"""Reading a hand's JSON into a ``Hand``: every type, range, name and field-use check that
does not depend on the family, each problem with its JSON path (RULES.md §0, §11)."""

from __future__ import annotations

import math
import unicodedata
from decimal import Decimal
from types import MappingProxyType
from typing import Any, NamedTuple

from rules import labels
from rules.fields import (
    ADJUSTMENTS,
    BONUSES,
    BOOLEAN,
    BY_PLAYER,
    CONTRA,
    DECLARATIONS,
    HAND_FIELDS,
    INTEGER,
    MAX_ADJUSTMENT,
    MAX_STORED_ADJUSTMENT,
    PLAYER,
    POINTS,
    RADELCI,
    READ,
    Field,
    fields_of,
    in_order,
)
from rules.model import DECLARER, DEFENDERS, Adjustment, Bonus, Declaration, Hand
from rules.problems import Problems, RulesError, field_name
from rules.variant import ADJUSTMENT, BonusSpec, Contract, Rules, Variant, _known, get_variant

# The fields a hand is read by, in the reader's order (a game with fields of its own adds them).
READ_FIELDS = tuple(in_order(READ))

BONUS_KEYS = frozenset({"name", "side", "announced", "made", "contra", "player", "level"})
DECLARATION_KEYS = frozenset({"player", "name"})
ADJUSTMENT_KEYS = frozenset({"player", "amount", "reason"})
HUNDREDTH = Decimal("0.01")
TENTH = Decimal("0.1")
MAX_NAME = 60  # characters of a player's name: the roster's (scorebook Player.name)
MAX_REASON = 200  # characters of an adjustment's reason: a void reason's (Hand.void_reason)
MAX_HOUSE_RULES = 60  # characters of a sheet's house rules name (HANDS.md, "A sheet")
LINE_CONTROLS = frozenset("\t\n\r")  # the control characters a multi-line text may hold
# A number read from the input is bounded before any arithmetic: one of 10**16 or more stands
# for every such number (each range check refuses it) and one nearer zero than 10**-16 for
# every such number (never whole, a half or hundredths), so no huge exponent is expanded.
BOUND = 16
LIMIT = 10**BOUND
HUGE = Decimal(LIMIT)
TINY = Decimal(f"1E-{BOUND}")


class Sheet:
    """What a hand in a sheet takes from the sheet: variant, rules and the seated players."""

    __slots__ = ("variant", "rules", "players", "seated", "house_rules")

    def __init__(
        self, variant: Variant, rules: Rules, players: tuple[str, ...], house_rules: str = ""
    ):
        self.variant = variant
        self.rules = rules
        self.players = players
        self.seated = frozenset(players)
        # The name of the club's rules the sheet was played by: kept and shown, never scored.
        self.house_rules = house_rules


def read_hand(
    data: Any,
    problems: Problems,
    path: str = "",
    sheet: Sheet | None = None,
    *,
    entered: bool = True,
) -> tuple[Variant, Rules, Hand] | None:
    """Read one hand; on any problem add it to ``problems`` and return None.

    Whatever ``data`` holds (any JSON value, or Python values such as huge ints, NaN and
    infinite floats or Decimals, a list where a name belongs), reading it either succeeds or
    adds problems: it raises nothing else.

    ``entered`` (the default) says that the hand is being entered: new, edited, imported, or
    handed to ``score_hand``/``score_sheet``/the command line. Then the checks a hand must
    pass to be written down apply too, those added after hands were recorded without them:

    - ``Variant.check_entered`` (a ``slovenian-2`` hand's piles add up to 70 or 71, §1.6);
    - names of at most ``MAX_NAME`` characters and reasons of at most ``MAX_REASON``, with
      no control character (a reason may hold tabs and line breaks);
    - adjustments within ±``MAX_ADJUSTMENT``, ints as well as decimals.

    A hand already stored is read with ``entered=False`` when its session is rescored (an
    edit or a void before it, a replay of the sheet): it keeps the score it was recorded
    with, and an older hand never makes a rescoring fail. Every check on which scoring
    safely depends (types, ranges, names, bounded numbers) applies either way; a stored
    adjustment is still held to ±``MAX_STORED_ADJUSTMENT``.
    """
    at = f"{path}." if path else ""
    if not isinstance(data, dict):
        problems.add(path, "not-an-object")
        return None
    before = len(problems)
    _read_keys(data, problems, at, _known_keys(data, sheet))
    if sheet is None:
        table = _read_own_table(data, problems, at, entered)
    else:
        table = _read_sheet_table(data, problems, at, sheet, entered)
    if table is None:
        return None
    variant, rules, players = table
    contract = _read_contract(data, problems, at, rules)
    if contract is None:
        return None
    data = _used_fields(data, problems, at, rules, contract)
    seated = sheet.seated if sheet is not None and players is sheet.players else set(players)
    reading = Reading(problems, at, variant, rules, contract, players, seated, entered)
    fields = reading.fields(data)
    if len(problems) > before:
        return None
    hand = Hand(variant.id, players, contract.id, **fields)
    _check(hand, variant, rules, problems, at, entered)
    if len(problems) > before:
        return None
    return variant, rules, hand


def _known_keys(data: dict, sheet: Sheet | None) -> frozenset[str]:
    """The fields a hand of its game may have: HANDS.md's, and the game's own (a hand scored
    alone names its game; one it does not know has no fields of its own)."""
    variant = sheet.variant if sheet is not None else None
    if variant is None and isinstance(data.get("variant"), str):
        try:
            variant = get_variant(data["variant"])
        except RulesError:
            return HAND_FIELDS
    if variant is None or not variant.own_fields:
        return HAND_FIELDS
    return frozenset(fields_of(variant))


def _read_keys(data: dict, problems: Problems, at: str, known: frozenset[str]) -> None:
    """No key a hand does not have, and the one format this engine reads. Problems come in the
    order of the hand's keys (a set's order would change from one run to the next)."""
    if not known.issuperset(data):
        for key in (key for key in data if key not in known):
            problems.add(f"{at}{field_name(key)}", "unknown-key", key=key)
    if "format" in data and not known_format(data["format"]):
        problems.add(f"{at}format", "unknown-format", value=data["format"])


def _read_own_table(data: dict, problems: Problems, at: str, entered: bool):
    """A hand scored alone: its own variant, rules and players."""
    variant, rules = _read_variant_and_rules(data, problems, at)
    if variant is None or rules is None:
        return None
    players = read_players(
        data.get("players"),
        problems,
        f"{at}players",
        variant,
        variant.player_counts,
        entered=entered,
    )
    return None if players is None else (variant, rules, players)


def _read_sheet_table(data: dict, problems: Problems, at: str, sheet: Sheet, entered: bool):
    """A hand of a sheet: the sheet's variant and rules, and the seated players (those dealt
    in, when a player sits out)."""
    variant, rules = sheet.variant, sheet.rules
    if "rules" in data:
        problems.add(f"{at}rules", "own-rules-in-sheet")
    if "variant" in data and not (
        isinstance(data["variant"], str) and data["variant"] == variant.id
    ):
        problems.add(f"{at}variant", "other-variant-in-sheet")
    if "radelci" in data:
        problems.add(f"{at}radelci", "radelci-in-sheet")
    if "players" in data:
        players = read_players(
            data["players"],
            problems,
            f"{at}players",
            variant,
            variant.player_counts,
            sheet.players,
            entered=entered,
        )
    else:
        players = sheet.players
        if len(players) not in variant.player_counts:
            problems.add(f"{at}players", "missing")  # a table with one to sit out
            return None
    return None if players is None else (variant, rules, players)


def _read_contract(data: dict, problems: Problems, at: str, rules: Rules) -> Contract | None:
    contract_id = data.get("contract")
    contract = rules.contracts.get(contract_id) if isinstance(contract_id, str) else None
    if contract is None:
        if contract_id is None:
            problems.add(f"{at}contract", "missing")
        else:
            problems.add(
                f"{at}contract",
                "unknown-contract",
                value=contract_id,
                known=_known(rules.contracts),
            )
    return contract


def _used_fields(data: dict, problems: Problems, at: str, rules: Rules, contract: Contract):
    """The fields this contract uses: any other is a problem (a null partner excepted), and
    so is a required one left out. Only the used ones are read on; every problem in them is
    still reported. Unused fields are reported in the hand's order, missing ones in the order
    of HANDS.md."""
    unused = rules.unused_fields[contract.id]
    if not unused.isdisjoint(data):
        for key, value in data.items():
            if key == "radelci":  # no contract of these rules uses them: say why
                problems.add(f"{at}{key}", "radelci-off")
            elif key in unused and not (key == "partner" and value is None):
                problems.add(f"{at}{key}", "unused-field", contract=contract.words)
        data = {key: value for key, value in data.items() if key not in unused}
    if not data.keys() >= contract.required:
        fields = fields_of(rules.variant)
        for key in (key for key in fields if key in contract.required and key not in data):
            problems.add(f"{at}{key}", "missing")
    return data


class Reading(NamedTuple):
    """One hand's fields being read: where their problems go and what they are checked
    against. ``fields`` reads each field by its kind (``READERS``), with the ranges of
    ``rules.fields`` (resolved once for the rules: ``Rules.ranges``)."""

    problems: Problems
    at: str
    variant: Variant
    rules: Rules
    contract: Contract
    players: tuple[str, ...]
    seated: set[str] | frozenset[str]
    entered: bool

    def fields(self, data: dict) -> dict[str, Any]:
        """The fields of `data` (those its contract uses), in the reader's order (READ, then
        the game's own): who plays, what they made, then the lists. A field that may be null
        (a partner, an announcer) is left out when it is; a field unlike another (a partner,
        the declarer) may not name his player. The game's own go into ``own_fields``."""
        out: dict[str, Any] = {}
        own_fields = self.variant.own_fields
        for field in in_order(READ, self.variant) if own_fields else READ_FIELDS:
            value = data.get(field.name)
            if field.name not in data or (value is None and field.nullable):
                continue
            path = f"{self.at}{field.name}"
            out[field.name] = READERS[field.kind](self, field, value, path)
            if field.unlike and out[field.name] is not None:
                if out[field.name] == out.get(field.unlike):
                    self.problems.add(path, "partner-is-declarer")
        own = {
            field.name: out.pop(field.name)
            for field in self.variant.own_fields
            if field.name in out
        }
        if own:
            out["own_fields"] = MappingProxyType(own)
        return out

    def player(self, field: Field, value: Any, path: str) -> str | None:
        return _player(value, self.problems, path, self.seated)

    def points(self, field: Field, value: Any, path: str):
        return _points(value, self.problems, path, self.rules, self.rules.ranges[field.name])

    def integer(self, field: Field, value: Any, path: str) -> int | None:
        return _integer(value, self.problems, path, *self.rules.ranges[field.name])

    def boolean(self, field: Field, value: Any, path: str) -> bool | None:
        return _boolean(value, self.problems, path)

    def contra(self, field: Field, value: Any, path: str) -> int | None:
        return _contra(value, self.problems, path, self.rules)

    def bonuses(self, field: Field, value: Any, path: str) -> tuple[Bonus, ...]:
        problems, variant, rules = self.problems, self.variant, self.rules
        return _bonuses(value, problems, path, variant, rules, self.contract, self.seated)

    def by_player(self, field: Field, value: Any, path: str) -> dict | None:
        """A number for each player dealt in, each read as its own kind (``Field.values``)
        within the field's range."""
        read = READERS[field.values]
        return _by_player(
            value, self.problems, path, self.players, lambda item, at: read(self, field, item, at)
        )

    def declarations(self, field: Field, value: Any, path: str) -> tuple[Declaration, ...]:
        return _declarations(value, self.problems, path, self.seated)

    def radelci(self, field: Field, value: Any, path: str) -> dict[str, int]:
        return _radelci(value, self.problems, path, self.seated, field)

    def adjustments(self, field: Field, value: Any, path: str) -> tuple[Adjustment, ...]:
        return _adjustments(value, self.problems, path, self.seated, self.entered)


# How each kind of field is read (the table's own fields are read before: rules.fields).
READERS = {
    PLAYER: Reading.player,
    POINTS: Reading.points,
    INTEGER: Reading.integer,
    BOOLEAN: Reading.boolean,
    CONTRA: Reading.contra,
    BONUSES: Reading.bonuses,
    BY_PLAYER: Reading.by_player,
    DECLARATIONS: Reading.declarations,
    RADELCI: Reading.radelci,
    ADJUSTMENTS: Reading.adjustments,
}


def _check(hand: Hand, variant: Variant, rules: Rules, problems: Problems, at: str, entered):
    """What depends on the fields together: an adjustment row adjusts someone, and a deal
    passes its family's checks (and, being entered, those added since hands were stored)."""
    if hand.contract == ADJUSTMENT.id and not hand.adjustments:
        problems.add(f"{at}adjustments", "no-adjustments")
    # On every row, a redeal's or an adjustment's too: radelci these rules do not keep.
    if hand.radelci is not None and not variant.keeps_radelci(rules):
        problems.add(f"{at}radelci", "radelci-off")
    if variant.is_deal(hand.contract):
        variant.check(hand, rules, problems, at)
        if entered:
            variant.check_entered(hand, rules, problems, at)


def known_format(value: Any) -> bool:
    """``format`` is 1 (or 1.0): compared only once known to be a number, so that no NaN or
    other strange value is ever compared."""
    exact = _number(value)
    return exact is not None and exact == 1


def _read_variant_and_rules(data: dict, problems: Problems, at: str):
    try:
        variant = get_variant(data.get("variant"), f"{at}variant")
    except RulesError as error:
        problems.extend(error.problems)
        return None, None
    return variant, variant.read_rules(data.get("rules"), f"{at}rules", problems)


def read_players(
    value: Any,
    problems: Problems,
    path: str,
    variant: Variant,
    counts: tuple[int, ...],
    seated: tuple[str, ...] | None = None,
    *,
    entered: bool = True,
) -> tuple[str, ...] | None:
    """Unique names, as many as ``counts`` allows, all of them ``seated`` when given. A name
    being entered is text of at most ``MAX_NAME`` characters with no control character (when
    ``seated`` is given, being one of those names is enough: the table's were checked)."""
    if value is None:
        problems.add(path, "missing")
        return None
    if not isinstance(value, list):
        problems.add(path, "not-a-list")
        return None
    if len(value) > max(counts) + 1:  # far too many: the count says it, not each name
        _wrong_count(value, problems, path, variant, counts)
        return None
    before = len(problems)
    seen: set[str] = set()
    for i, name in enumerate(value):
        if not isinstance(name, str) or not name.strip():
            problems.add(f"{path}[{i}]", "not-a-string")
        elif entered and seated is None and not _text(name, problems, f"{path}[{i}]", MAX_NAME):
            pass
        elif name in seen:
            problems.add(f"{path}[{i}]", "duplicate-player", value=name)
        elif seated is not None and name not in seated:
            problems.add(f"{path}[{i}]", "unknown-sheet-player", value=name)
        else:
            seen.add(name)
    if len(value) not in counts:
        _wrong_count(value, problems, path, variant, counts)
    if len(problems) > before:
        return None
    if seated is not None and list(value) != [p for p in seated if p in seen]:
        # Keep the table's seat order whatever order the hand lists its players in.
        return tuple(p for p in seated if p in seen)
    return tuple(value)


def _wrong_count(value: list, problems: Problems, path: str, variant: Variant, counts) -> None:
    problems.add(
        path,
        "player-count",
        variant=labels.VARIANTS.get(variant.id, variant.id),
        count=len(value),
        counts="/".join(map(str, counts)),
    )


def _player(value: Any, problems: Problems, path: str, seated: set[str]) -> str | None:
    if not isinstance(value, str):
        problems.add(path, "not-a-string")
        return None
    if value not in seated:
        problems.add(path, "unknown-player", value=value)
        return None
    return value


def _boolean(value: Any, problems: Problems, path: str) -> bool | None:
    if type(value) is not bool:
        problems.add(path, "not-a-boolean")
        return None
    return value


def has_control_characters(text: str, *, multiline: bool = False) -> bool:
    r"""Whether ``text`` holds a control character (NUL, escape, …) or a lone surrogate: no
    database stores the one or the other as text, and they break a page or a printout. A
    multi-line text (a reason, a note) may hold tabs and line breaks.

    >>> has_control_characters("Ana\x00"), has_control_characters("late\nagain", multiline=True)
    (True, False)
    """
    allowed = LINE_CONTROLS if multiline else ()
    return not text.isprintable() and any(
        unicodedata.category(c) in ("Cc", "Cs") and c not in allowed for c in text
    )


def read_house_rules(value: Any, problems: Problems, path: str = "house_rules") -> str:
    """A sheet's ``house_rules``: a name of at most MAX_HOUSE_RULES characters ("" if wrong)."""
    if not isinstance(value, str):
        problems.add(path, "not-a-string")
        return ""
    return value if _text(value, problems, path, MAX_HOUSE_RULES) else ""


def _text(value: str, problems: Problems, path: str, limit: int, multiline=False) -> bool:
    """A name or a reason: at most ``limit`` characters, none of them a control character."""
    if len(value) > limit:
        problems.add(path, "too-long", limit=limit)
        return False
    if has_control_characters(value, multiline=multiline):
        problems.add(path, "control-character")
        return False
    return True


def _whole(value: Any, problems: Problems, path: str) -> int | None:
    """A JSON number without a fractional part, ``2`` or ``2.0`` alike, as an int (RULES.md
    §11); None, with the problem, for anything else."""
    if type(value) is int:
        return value
    exact = _number(value)
    if exact is None or exact != exact.to_integral_value():
        problems.add(path, "not-an-integer")
        return None
    return int(exact)  # bounded by _number: at most 10**16


def _integer(value: Any, problems: Problems, path: str, low: int, high: int) -> int | None:
    value = _whole(value, problems, path)
    if value is None:
        return None
    if not low <= value <= high:
        problems.add(path, "out-of-range", low=low, high=high)
        return None
    return value


def _number(value: Any) -> Decimal | None:
    """A JSON number as an exact Decimal (a float from ``json.loads`` converted by its
    digits); None for anything else, NaN and infinities included. Never raises, and bounded
    before any arithmetic: a magnitude of 10**16 or more comes back as ±``HUGE`` and one below
    10**-16 as ±``TINY``, so that no caller ever expands a huge exponent (``int()`` of
    ``Decimal("1e1000000")`` takes half a minute)."""
    if type(value) is int:
        if -LIMIT < value < LIMIT:  # an int against an int: Decimal(huge) is slow
            return Decimal(value)
        return HUGE if value > 0 else -HUGE
    if type(value) is float:
        if not math.isfinite(value):
            return None
        value = Decimal(repr(value))
    elif not isinstance(value, Decimal) or not value.is_finite():
        return None
    if not value:
        return Decimal(0)
    adjusted = value.adjusted()
    if adjusted >= BOUND:
        return HUGE.copy_sign(value)
    if adjusted < -BOUND:
        return TINY.copy_sign(value)
    return value


def _points(value: Any, problems: Problems, path: str, rules: Rules, bounds: tuple[Any, Any]):
    variant = rules.variant
    if type(value) is int:
        number = value
    else:
        exact = _number(value)
        if exact is None:
            problems.add(path, "not-a-number")
            return None
        if exact == exact.to_integral_value():
            number = int(exact)  # bounded by _number: at most 10**16
        elif (
            variant.half_points
            and exact.quantize(TENTH) == exact
            and exact * 2 == (exact * 2).to_integral_value()
        ):
            number = exact.quantize(TENTH).normalize()
        else:
            problems.add(path, "not-a-half" if variant.half_points else "not-an-integer")
            return None
    low, high = bounds
    if not low <= number <= high:
        problems.add(path, "out-of-range", low=low, high=high)
        return None
    return number


def _contra(value: Any, problems: Problems, path: str, rules: Rules) -> int | None:
    if not isinstance(value, dict):
        problems.add(path, "not-an-object")
        return None
    for key in value:
        if not (isinstance(key, str) and key == "game"):
            problems.add(f"{path}.{field_name(key)}", "unknown-key", key=key)
    level = value.get("game", 0)
    return _contra_level(level, problems, f"{path}.game", rules)


def _contra_level(level: Any, problems: Problems, path: str, rules: Rules) -> int | None:
    level = _whole(level, problems, path)
    if level is None:
        return None
    if level and not rules.max_contra:
        problems.add(path, "contra-not-allowed")
        return None
    if not 0 <= level <= rules.max_contra:
        problems.add(path, "contra-too-high", high=rules.max_contra)
        return None
    return level


def _objects(value: Any, problems: Problems, path: str, keys: frozenset[str]):
    """Each object of a list field with its path, unknown keys and non-objects reported."""
    if not isinstance(value, list):
        problems.add(path, "not-a-list")
        return
    for i, item in enumerate(value):
        at = f"{path}[{i}]"
        if not isinstance(item, dict):
            problems.add(at, "not-an-object")
            continue
        if not keys.issuperset(item):
            for key in (key for key in item if key not in keys):  # in the item's order
                problems.add(f"{at}.{field_name(key)}", "unknown-key", key=key)
        yield at, item


def _bonuses(value, problems, path, variant, rules, contract, seated) -> tuple[Bonus, ...]:
    bonuses = []
    seen: set = set()
    for at, item in _objects(value, problems, path, BONUS_KEYS):
        bonus = _bonus(item, problems, at, variant, rules, contract, seated)
        if bonus is None:
            continue
        spec = variant.bonus_specs[bonus.name]
        key = (bonus.name, bonus.player) if spec.per_player else bonus.name
        if key in seen:
            problems.add(f"{at}.name", "duplicate-bonus", bonus=spec.words)
            continue
        seen.add(key)
        bonuses.append(bonus)
    return tuple(bonuses)


def _bonus(item, problems, at, variant, rules, contract, seated) -> Bonus | None:
    """One bonus of a hand, or None with its problems added. A contra of 0.0 or false is no
    contra, read as the level 0:

    >>> from rules import score_hand
    >>> score_hand({"variant": "czech", "players": ["Ana", "Bor", "Cene", "Dani"],
    ...     "contract": "solo", "declarer": "Ana", "points": 40,
    ...     "bonuses": [{"name": "pagat-ultimo", "contra": 0.0}]}).hand.bonuses[0].contra
    0
    """
    before = len(problems)
    name = _bonus_name(item, problems, at, variant, contract)
    if name is None:
        return None
    spec = variant.bonus_specs[name]
    side, announced, made = _bonus_outcome(item, problems, at, spec, variant, rules)
    contra = _bonus_contra(item.get("contra", 0), announced, problems, at, rules)
    player = _bonus_player(item.get("player"), problems, at, spec, seated)
    level = _bonus_level(item.get("level"), problems, at, spec)
    if len(problems) > before:
        return None
    return Bonus(name, side, announced, made, contra, player, level)


def _bonus_name(item, problems, at, variant, contract) -> str | None:
    """The bonus's name, when it is one the contract allows."""
    name = item.get("name")
    if name is None:
        problems.add(f"{at}.name", "missing")
        return None
    if not isinstance(name, str):
        problems.add(f"{at}.name", "not-a-string")
        return None
    if name in contract.bonuses:
        return name
    if name in variant.bonus_specs and contract.bonuses:
        problems.add(
            f"{at}.name", "bonus-not-allowed", bonus=labels.BONUSES[name], contract=contract.words
        )
    elif name in variant.bonus_specs or not contract.bonuses:
        problems.add(f"{at}.name", "no-bonuses", contract=contract.words)
    else:
        known = _known(sorted(contract.bonuses))
        problems.add(f"{at}.name", "unknown-bonus", value=name, known=known)
    return None


def _bonus_outcome(item, problems, at, spec: BonusSpec, variant, rules):
    """Who announced or achieved it, whether it was announced, and whether it came off (None
    where the spec lets the family work it out)."""
    side = item.get("side", DECLARER)
    if not isinstance(side, str) or side not in (DECLARER, DEFENDERS):
        problems.add(f"{at}.side", "unknown-side")
    announced = _boolean(item.get("announced", False), problems, f"{at}.announced")
    if spec.made_optional and "made" not in item:
        made = None
    else:
        made = _boolean(item.get("made", True), problems, f"{at}.made")
    if announced and not spec.announce:
        problems.add(f"{at}.announced", "cannot-announce", bonus=spec.words)
    elif announced and side == DEFENDERS and not variant.defenders_may_announce(rules):
        problems.add(f"{at}.side", "defenders-cannot-announce")
    if announced is False and made is False and not spec.silent_fail:
        problems.add(f"{at}.made", "silent-not-made", bonus=spec.words)
    return side, announced, made


def _bonus_contra(contra, announced, problems, at, rules) -> int | None:
    """The bonus's own contra level: only an announced bonus has one."""
    if _is_zero(contra):
        return 0  # however written: the level the scoring multiplies by
    if announced is False:
        problems.add(f"{at}.contra", "contra-unannounced")
        return contra
    return _contra_level(contra, problems, f"{at}.contra", rules)


def _bonus_player(player, problems, at, spec: BonusSpec, seated) -> str | None:
    """Whom a premium belongs to or who pays it, where the spec has one."""
    if not spec.player:
        if player is not None:
            problems.add(f"{at}.player", "player-not-used", bonus=spec.words)
        return player
    if player is None:
        problems.add(f"{at}.player", "player-required", bonus=spec.words)
        return None
    return _player(player, problems, f"{at}.player", seated)


def _bonus_level(level, problems, at, spec: BonusSpec):
    """A French poignée's level, where the spec has levels."""
    if not spec.levels:
        if level is not None:
            problems.add(f"{at}.level", "level-not-used", bonus=spec.words)
    elif level is None:
        problems.add(f"{at}.level", "level-required", bonus=spec.words, known=_levels(spec))
    elif not isinstance(level, str) or level not in spec.levels:
        problems.add(f"{at}.level", "unknown-level", value=level, known=_levels(spec))
    return level


def _levels(spec: BonusSpec) -> str:
    """A bonus's levels as a problem lists them (said only when there is a problem)."""
    return ", ".join(map(str, spec.level_words)) if spec.level_words else _known(spec.levels)


def _is_zero(value: Any) -> bool:
    """No contra of its own: 0 (or 0.0, false), compared only once known to be a number."""
    if type(value) is int or type(value) is bool:
        return not value
    exact = _number(value)
    return exact is not None and not exact


def _by_player(value, problems, path, players, read) -> dict | None:
    if not isinstance(value, dict):
        problems.add(path, "not-an-object")
        return None
    out = {}
    for key, item in value.items():
        if not isinstance(key, str) or key not in players:
            problems.add(f"{path}.{field_name(key)}", "unknown-player", value=key)
        else:
            out[key] = read(item, f"{path}.{key}")
    if set(value) < set(players):
        problems.add(path, "not-every-player", players=", ".join(players))
    return {p: out[p] for p in players if p in out}


def _declarations(value, problems, path, seated) -> tuple[Declaration, ...]:
    out = []
    for at, item in _objects(value, problems, path, DECLARATION_KEYS):
        player = _player(item.get("player"), problems, f"{at}.player", seated)
        name = item.get("name")
        if not isinstance(name, str):
            problems.add(f"{at}.name", "missing" if name is None else "not-a-string")
        elif name not in labels.DECLARATIONS:
            problems.add(
                f"{at}.name", "unknown-bonus", value=name, known=_known(labels.DECLARATIONS)
            )
        elif player is not None:
            out.append(Declaration(player, name))
    return tuple(out)


def _radelci(value, problems, path, seated, field: Field) -> dict[str, int]:
    if not isinstance(value, dict):
        problems.add(path, "not-an-object")
        return {}
    out = {}
    for key, count in value.items():
        if not isinstance(key, str) or key not in seated:
            problems.add(f"{path}.{field_name(key)}", "unknown-player", value=key)
            continue
        count = _integer(count, problems, f"{path}.{key}", field.low, field.high)
        if count is not None:
            out[key] = count
    return out


def _adjustments(value, problems, path, seated, entered=True) -> tuple[Adjustment, ...]:
    out = []
    for at, item in _objects(value, problems, path, ADJUSTMENT_KEYS):
        player = _player(item.get("player"), problems, f"{at}.player", seated)
        limit = MAX_ADJUSTMENT if entered else MAX_STORED_ADJUSTMENT
        amount = _amount(item.get("amount"), problems, f"{at}.amount", limit)
        reason = item.get("reason", "")
        if not isinstance(reason, str):
            problems.add(f"{at}.reason", "not-a-string")
        elif entered and not _text(reason, problems, f"{at}.reason", MAX_REASON, multiline=True):
            pass
        elif player is not None and amount is not None:
            out.append(Adjustment(player, amount, reason))
    return tuple(out)


def _amount(value: Any, problems: Problems, path: str, limit: int = MAX_ADJUSTMENT):
    """Within ±``limit``, whole or in hundredths: one range check for ints, floats and
    Decimals alike."""
    exact = _number(value)
    if exact is None:
        problems.add(path, "not-a-number" if value is not None else "missing")
        return None
    if abs(exact) > limit:
        problems.add(path, "out-of-range", low=-limit, high=limit)
        return None
    if type(value) is int:
        return value
    if exact == exact.to_integral_value():
        return int(exact)
    if exact != exact.quantize(HUNDREDTH):
        problems.add(path, "not-hundredths")
        return None
    return exact.quantize(HUNDREDTH)
