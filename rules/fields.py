"""The fields of a hand (HANDS.md), declared once: what each field is, where it may appear, and
how it goes between the hand form, the JSON and the engine.

Each field says its name and kind, where it may appear, its range, where a problem with it is
reported, the keys the hand form posts for it (with the form's words for each, ids of the
engine's glossary) and whether it names a player (its kind says how). Nothing else lists the
fields again: the reader reads each field by its kind and builds the engine's ``Hand`` record
from this table; the web form parses, refills, labels and places problems by it; renames follow
the players a hand names. A range is a number or a rule resolved per variant (its card points)
or per rules (their highest contra): ``field_range``. A game may declare fields of its own, of
these same kinds (``Variant.own_fields``): ``fields_of``.

Inside Python a hand's numbers are ints and Decimals; its JSON has no decimals, so ``hand_json``
writes a Decimal as a JSON number (the engine reads a float back by its digits: a half point
or a hundredth stays exact).

>>> FIELDS["oudlers"].single, FIELDS["oudlers"].low, FIELDS["oudlers"].high
(True, 0, 3)
>>> from rules import get_variant
>>> field_range("points", get_variant("french-4"))
(0, 91)
>>> sorted(players_named({"declarer": "Ana", "points_by_player": {"Bor": 40}}))
['Ana', 'Bor']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rules.variant import Rules, Variant

# How a kind's value names players: as the value itself, as the items of a list, as the keys
# of a map, or as the "player" of each item of a list.
VALUE, LIST, KEYS, ITEMS = "value", "list", "keys", "items"


@dataclass(frozen=True)
class Kind:
    """What the values of a kind of field are: one value or a list or a map, what the engine
    holds when a hand leaves the field out, and how the value names players."""

    name: str
    single: bool = False  # one value (a player, a number, true or false): one control
    empty: Any = None  # the engine's value of a field a hand leaves out
    names: str = ""  # VALUE, LIST, KEYS, ITEMS; "" when it names nobody
    in_hand: bool = True  # held by the engine's Hand (a sheet holds the format and rules)


FORMAT = Kind("format", single=True, in_hand=False)
VARIANT = Kind("variant", single=True)
RULES = Kind("rules", in_hand=False)
PLAYERS = Kind("players", names=LIST)
CONTRACT = Kind("contract", single=True)
PLAYER = Kind("player", single=True, names=VALUE)
POINTS = Kind("points", single=True)
INTEGER = Kind("integer", single=True)
BOOLEAN = Kind("boolean", single=True)
CONTRA = Kind("contra", empty=0)
BONUSES = Kind("bonuses", empty=(), names=ITEMS)
BY_PLAYER = Kind("by_player", names=KEYS)  # a number for each player dealt in
DECLARATIONS = Kind("declarations", empty=(), names=ITEMS)
RADELCI = Kind("radelci", names=KEYS)
ADJUSTMENTS = Kind("adjustments", empty=(), names=ITEMS)

KINDS = (FORMAT, VARIANT, RULES, PLAYERS, CONTRACT, PLAYER, POINTS, INTEGER, BOOLEAN, CONTRA)
KINDS += (BONUSES, BY_PLAYER, DECLARATIONS, RADELCI, ADJUSTMENTS)
# Kinds of one value, which a form shows as one control; the others are lists or maps.
SINGLE_KINDS = frozenset(kind.name for kind in KINDS if kind.single)

# Where a field may appear: in every hand, where a contract uses it (RULES.md §11), or in any
# hand whatever its contract.
EVERY_HAND, BY_CONTRACT, ANY_CONTRACT = "every hand", "by contract", "any contract"

# Rules for a range resolved per variant or per rules.
CARD_POINTS = "card_points"
MAX_CONTRA = "max_contra"

# An adjustment being entered is held to ±MAX_ADJUSTMENT; one already stored (recorded before
# ints were held to it) to what a stored entry holds, numeric(12,2): see ``read_hand``.
MAX_ADJUSTMENT = 1_000_000
MAX_STORED_ADJUSTMENT = 10**10

NO_KEYS: Mapping[str, str | None] = MappingProxyType({})


@dataclass(frozen=True, eq=False)
class Field:
    """One field of a hand. ``low``/``high`` bound its value, or each value of a list or map
    (a player's points, an adjustment's amount), where it has a range. ``path`` is where a
    problem with that value is reported, ``{player}`` and ``{i}`` standing for a key and an
    index.

    ``form`` holds the keys the hand form posts for the field, each with the form's words for
    it (an id of the engine's glossary; a game's own field may give plain text, which is said
    as it is; None: the game's own word, a role's or a bonus's). The first key is the field's
    own: where a problem with the field as a whole is shown. In a key ``{seat}`` stands for a
    seated player's position, ``{id}`` for a bonus's or a declaration's id; what the others
    are is the kind's (the web's hand form reads them)."""

    name: str
    kind: Kind
    scope: str
    low: int | str | None = None
    high: int | str | None = None
    path: str = ""
    form: Mapping[str, str | None] = dataclasses.field(default_factory=lambda: NO_KEYS)
    short: str = ""  # the form's word for it where a problem names it, when its label is long
    values: Kind | None = None  # a map's values: each of this kind (points, a whole number)
    nullable: bool = False  # null stands for nobody: no partner, nobody announced
    nobody: str = ""  # the form's word for choosing nobody
    unlike: str = ""  # the field it must not name the same player as: a partner, the declarer
    alone: bool = False  # called by the role "alone" where no field of its contract is unlike it
    every_row: bool = False  # asked on every row its game lets carry it, whatever the contract
    more: bool = False  # asked last, of every seat, folded: told only when it is not the usual
    glance: bool = False  # part of "the same score" at a glance: who played what, and how
    counted: str = ""  # what a counted pile fills it with (a Count's attribute)

    @property
    def single(self) -> bool:
        """One value (a player, a number, true or false), not a list or a map."""
        return self.kind.single

    @property
    def value_path(self) -> str:
        return self.path or self.name

    @property
    def home(self) -> str:
        """The form's own key of the field ("" when the form does not ask it)."""
        return next(iter(self.form), "")

    def key(self, position: int) -> str:
        """The form's key at `position` in ``form``: what it is is the kind's."""
        return list(self.form)[position]


def _fields(*fields: Field) -> Mapping[str, Field]:
    return MappingProxyType({f.name: f for f in fields})


# In the order of HANDS.md's table.
FIELDS: Mapping[str, Field] = _fields(
    Field("format", FORMAT, EVERY_HAND, 1, 1),
    Field("variant", VARIANT, EVERY_HAND),
    Field("rules", RULES, EVERY_HAND),
    Field("players", PLAYERS, EVERY_HAND, form={"sits_out": "form.sits-out"}),
    Field(
        "dealer",
        PLAYER,
        ANY_CONTRACT,
        form={"dealer": "form.dealer"},
        short="form.dealer-short",
        every_row=True,
        more=True,
    ),
    Field("contract", CONTRACT, EVERY_HAND, form={"contract": "form.contract"}, glance=True),
    Field("declarer", PLAYER, BY_CONTRACT, form={"declarer": None}, alone=True, glance=True),
    Field(
        "partner",
        PLAYER,
        BY_CONTRACT,
        form={"partner": None},
        nullable=True,
        nobody="form.partner-alone",
        unlike="declarer",
        glance=True,
    ),
    Field(
        "points",
        POINTS,
        BY_CONTRACT,
        0,
        CARD_POINTS,
        form={"points": "form.points", "points_side": "form.points-side"},
        short="form.points-short",
        glance=True,
        counted="points",
    ),
    Field("made", BOOLEAN, BY_CONTRACT, form={"made": "word.made"}, glance=True),
    Field("level", INTEGER, BY_CONTRACT, 1, 3, form={"level": "word.level"}),
    Field(
        "oudlers", INTEGER, BY_CONTRACT, 0, 3, form={"oudlers": "form.oudlers"}, counted="oudlers"
    ),
    Field(
        "contra", CONTRA, BY_CONTRACT, 0, MAX_CONTRA, "contra.game", form={"contra": "form.contra"}
    ),
    Field(
        "bonuses",
        BONUSES,
        BY_CONTRACT,
        path="bonuses[{i}]",
        form={
            "bonuses": "form.bonuses",
            "bonus-{id}": None,
            "bonus-{id}-contra": "form.bonus-contra",
            "bonus-{id}-player": "form.bonus-player",
            "bonus-{id}-{seat}": "form.bonus-seat",
        },
        every_row=True,
    ),
    Field(
        "points_by_player",
        BY_PLAYER,
        BY_CONTRACT,
        0,
        CARD_POINTS,
        "points_by_player.{player}",
        form={"pbp": "form.pbp", "pbp-{seat}": "form.pbp-seat"},
        values=POINTS,
        glance=True,
    ),
    # A player's tricks: at most the 78 cards of the largest deck.
    Field(
        "tricks_by_player",
        BY_PLAYER,
        BY_CONTRACT,
        0,
        78,
        "tricks_by_player.{player}",
        form={"tricks": "form.tricks", "tricks-{seat}": "form.tricks-seat"},
        short="form.tricks-short",
        values=INTEGER,
    ),
    Field(
        "declarations",
        DECLARATIONS,
        BY_CONTRACT,
        path="declarations[{i}]",
        form={"declarations": "form.declarations", "decl-{id}": None},
    ),
    Field(
        "announcer",
        PLAYER,
        BY_CONTRACT,
        form={"announcer": "form.announcer"},
        nullable=True,
        nobody="form.announcer-nobody",
    ),
    Field("radelci", RADELCI, ANY_CONTRACT, 0, 99, "radelci.{player}"),
    Field(
        "adjustments",
        ADJUSTMENTS,
        ANY_CONTRACT,
        -MAX_ADJUSTMENT,
        MAX_ADJUSTMENT,
        "adjustments[{i}].amount",
        form={
            "adjustments": "contract.adjustment",
            "adj-{seat}": "form.adj-seat",
            "adj_reason": "form.adj-reason",
        },
    ),
)

# The orders the fields are gone through in besides HANDS.md's, each the order its readers
# always saw: problems come in it, and a stored hand's keys.
# The reader: who plays (the declarer first, whom a partner is told apart from), what they
# made, then the lists.
READ = (
    "declarer",
    "dealer",
    "partner",
    "announcer",
    "points",
    "made",
    "level",
    "oudlers",
    "contra",
    "bonuses",
    "points_by_player",
    "tricks_by_player",
    "declarations",
    "radelci",
    "adjustments",
)
# The form's hand, as it writes it: the table (who sits out, the contract), the dealer, who
# plays, then the rest as the reader reads it.
WRITTEN = ("players", "contract", "dealer", *(name for name in READ if name != "dealer"))
# The form's controls, in the order a hand is told at the table; a game's own fields after
# them, and last what is told only when it is not the usual (the dealer: not the next in turn).
ASKED = (
    "declarer",
    "partner",
    "announcer",
    "points",
    "oudlers",
    "made",
    "level",
    "points_by_player",
    "tricks_by_player",
    "declarations",
    "contra",
    "bonuses",
    "adjustments",
)
ASKED_LAST = tuple(name for name, f in FIELDS.items() if f.more)


def _names(scope: str) -> frozenset[str]:
    return frozenset(name for name, f in FIELDS.items() if f.scope == scope)


COMMON_FIELDS = _names(EVERY_HAND)
CONTRACT_FIELDS = _names(BY_CONTRACT)
HAND_FIELDS = frozenset(FIELDS)
# What makes two hands "the same score" at a glance.
GLANCE_FIELDS = tuple(name for name, f in FIELDS.items() if f.glance)
# The fields of the engine's Hand: those every hand has (its variant, players and contract),
# then the others, each with the value it holds when a hand leaves it out.
RECORD_HEAD = tuple(f.name for f in FIELDS.values() if f.kind.in_hand and f.scope == EVERY_HAND)
RECORD_FIELDS = tuple(
    (f.name, f.kind.empty) for f in FIELDS.values() if f.kind.in_hand and f.scope != EVERY_HAND
)


def field_of_kind(kind: Kind, fields: Mapping[str, Field] = FIELDS) -> Field:
    """The field of a kind only one field has: the contract, the table's players, the contra,
    the card points."""
    return next(field for field in fields.values() if field.kind is kind)


def fields_of(variant: Variant) -> Mapping[str, Field]:
    """Every field a hand of this game may have: FIELDS, then the game's own."""
    own = variant.own_fields
    if not own:
        return FIELDS
    return MappingProxyType({**FIELDS, **{f.name: f for f in own}})


def in_order(names: Iterable[str], variant: Variant | None = None, last=()) -> list[Field]:
    """The fields named, then the game's own, then those of `last`: an order of the form's or
    the reader's (READ, WRITTEN, ASKED)."""
    own = variant.own_fields if variant is not None else ()
    return [FIELDS[n] for n in names] + list(own) + [FIELDS[n] for n in last]


def field_range(name: str, variant: Variant, rules: Rules | None = None) -> tuple[Any, Any]:
    """``(low, high)`` of a field's values in this variant (``contra`` needs the rules too)."""
    field = fields_of(variant)[name]
    return _resolve(field.low, variant, rules), _resolve(field.high, variant, rules)


def _resolve(bound: int | str | None, variant: Variant, rules: Rules | None) -> Any:
    if bound == CARD_POINTS:
        return variant.card_points
    if bound == MAX_CONTRA:
        if rules is None:
            raise ValueError("the contra's range depends on the rules: pass them")
        return rules.max_contra
    return bound


# --- The JSON of a hand -------------------------------------------------------------------

# What a hand inside a sheet takes from its sheet, and leaves out (HANDS.md, "A sheet").
FROM_SHEET = tuple(f.name for f in FIELDS.values() if f.kind in (FORMAT, VARIANT, RULES))


def whole_hand(
    variant: str, rules: Mapping[str, Any], players: Iterable[str], own: Mapping[str, Any]
) -> dict[str, Any]:
    """A hand's own fields with what it takes from its sheet: the full hand of HANDS.md, as
    a hand scored alone is (its own players, when some sit out, stand)."""
    return {"format": 1, "variant": variant, "rules": dict(rules), "players": list(players), **own}


def in_sheet(data: Mapping[str, Any], players: Iterable[str]) -> dict[str, Any]:
    """A hand (whole, or its own fields) as it appears inside a sheet: nothing it takes from
    the sheet, and no players when all of the sheet's players were dealt in."""
    hand = {key: value for key, value in data.items() if key not in FROM_SHEET}
    if list(hand.get("players", ())) == list(players):
        del hand["players"]
    return hand


def hand_json(value: Any) -> Any:
    """A hand (or any part of it) as its JSON holds it: a Decimal as a JSON number, a tuple
    as a list. The stored hand, the exports and the phone's outbox hold these numbers."""
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, Mapping):
        return {key: hand_json(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [hand_json(item) for item in value]
    return value


# --- The players a hand names ---------------------------------------------------------------


def _renamed(value: Any, how: str, swap: Callable[[Any], Any]) -> Any:
    """`value`, of a kind that names players `how`, with each name swapped."""
    if how == VALUE:
        return swap(value)
    if how == LIST and isinstance(value, list):
        return [swap(name) for name in value]
    if how == KEYS and isinstance(value, dict):
        return {swap(name): item for name, item in value.items()}
    if how == ITEMS and isinstance(value, list):
        return [
            {**item, "player": swap(item["player"])}
            if isinstance(item, dict) and "player" in item
            else item
            for item in value
        ]
    return value


def rename(
    data: Mapping[str, Any], names: Mapping[str, str], fields: Mapping[str, Field] = FIELDS
) -> dict[str, Any]:
    """A hand with players renamed (old name -> new name) wherever a field names them, all at
    once (two players may swap names)."""

    def swap(value: Any) -> Any:
        return names.get(value, value) if isinstance(value, str) else value

    hand = dict(data)
    for key, value in list(hand.items()):
        field = fields.get(key)
        if field is not None and field.kind.names:
            hand[key] = _renamed(value, field.kind.names, swap)
    return hand


def players_named(data: Mapping[str, Any], fields: Mapping[str, Field] = FIELDS) -> set[str]:
    """Every name a hand's fields name (whatever the hand's players are)."""
    found: set[str] = set()

    def note(value: Any) -> Any:
        if isinstance(value, str):
            found.add(value)
        return value

    for key, value in data.items():
        field = fields.get(key)
        if field is not None and field.kind.names:
            _renamed(value, field.kind.names, note)
    return found
