"""The fields of a hand (HANDS.md), declared once: name, kind, range and JSON path.

The reader checks a hand against this table, and a form builds its controls from it; neither
writes a field's range again. A range is a number or a rule resolved per variant (its card
points) or per rules (their highest contra): ``field_range``.

>>> FIELDS["oudlers"].single, FIELDS["oudlers"].low, FIELDS["oudlers"].high
(True, 0, 3)
>>> from rules import get_variant
>>> field_range("points", get_variant("french-4"))
(0, 91)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rules.variant import Rules, Variant

# Kinds of one value, which a form shows as one control; the others are lists or maps.
SINGLE_KINDS = frozenset(
    {"format", "variant", "contract", "player", "points", "integer", "boolean"}
)

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


@dataclass(frozen=True)
class Field:
    """One field of a hand. ``low``/``high`` bound its value, or each value of a list or map
    (a player's points, an adjustment's amount), where it has a range. ``path`` is where a
    problem with that value is reported, ``{player}`` and ``{i}`` standing for a key and an
    index."""

    name: str
    kind: str
    scope: str
    low: int | str | None = None
    high: int | str | None = None
    path: str = ""

    @property
    def single(self) -> bool:
        """One value (a player, a number, true or false), not a list or a map."""
        return self.kind in SINGLE_KINDS

    @property
    def value_path(self) -> str:
        return self.path or self.name


def _fields(*fields: Field) -> Mapping[str, Field]:
    return MappingProxyType({f.name: f for f in fields})


# In the order of HANDS.md's table.
FIELDS: Mapping[str, Field] = _fields(
    Field("format", "format", EVERY_HAND, 1, 1),
    Field("variant", "variant", EVERY_HAND),
    Field("rules", "rules", EVERY_HAND),
    Field("players", "players", EVERY_HAND),
    Field("dealer", "player", ANY_CONTRACT),
    Field("contract", "contract", EVERY_HAND),
    Field("declarer", "player", BY_CONTRACT),
    Field("partner", "player", BY_CONTRACT),
    Field("points", "points", BY_CONTRACT, 0, CARD_POINTS),
    Field("made", "boolean", BY_CONTRACT),
    Field("level", "integer", BY_CONTRACT, 1, 3),
    Field("oudlers", "integer", BY_CONTRACT, 0, 3),
    Field("contra", "contra", BY_CONTRACT, 0, MAX_CONTRA, "contra.game"),
    Field("bonuses", "bonuses", BY_CONTRACT, path="bonuses[{i}]"),
    Field(
        "points_by_player", "by_player", BY_CONTRACT, 0, CARD_POINTS, "points_by_player.{player}"
    ),
    # A player's tricks: at most the 78 cards of the largest deck.
    Field("tricks_by_player", "by_player", BY_CONTRACT, 0, 78, "tricks_by_player.{player}"),
    Field("declarations", "declarations", BY_CONTRACT, path="declarations[{i}]"),
    Field("announcer", "player", BY_CONTRACT),
    Field("radelci", "radelci", ANY_CONTRACT, 0, 99, "radelci.{player}"),
    Field(
        "adjustments",
        "adjustments",
        ANY_CONTRACT,
        -MAX_ADJUSTMENT,
        MAX_ADJUSTMENT,
        "adjustments[{i}].amount",
    ),
)


def _names(scope: str) -> frozenset[str]:
    return frozenset(name for name, f in FIELDS.items() if f.scope == scope)


COMMON_FIELDS = _names(EVERY_HAND)
CONTRACT_FIELDS = _names(BY_CONTRACT)
HAND_FIELDS = frozenset(FIELDS)


def field_range(name: str, variant: Variant, rules: Rules | None = None) -> tuple[Any, Any]:
    """``(low, high)`` of a field's values in this variant (``contra`` needs the rules too)."""
    field = FIELDS[name]
    return _resolve(field.low, variant, rules), _resolve(field.high, variant, rules)


def _resolve(bound: int | str | None, variant: Variant, rules: Rules | None) -> Any:
    if bound == CARD_POINTS:
        return variant.card_points
    if bound == MAX_CONTRA:
        if rules is None:
            raise ValueError("the contra's range depends on the rules: pass them")
        return rules.max_contra
    return bound
