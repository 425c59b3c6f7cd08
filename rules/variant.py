"""What a variant declares — its names and words, deck, players, contracts, bonuses, presets,
switches — and the registry.

The app builds its forms and pages from these declarations, so nothing about a variant is
repeated outside ``rules/``, and nobody outside it branches on a family's name. A family module
defines a ``Variant`` subclass and lists its variants in ``VARIANTS``; ``rules/__init__.py``
registers those lists in the order of HANDS.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

from rules import labels
from rules.fields import COMMON_FIELDS, CONTRACT_FIELDS, HAND_FIELDS, Field, field_range, fields_of
from rules.model import Hand, Line
from rules.problems import Problems, RulesError, field_name
from rules.words import Say

if TYPE_CHECKING:  # counting reads the registry: the deck's module is not imported here
    from rules.counting import Count, Deck


def contract_words(contract_id: str) -> Say | str:
    """A contract's name, said when shown; an id the engine has no words for (a test's or a
    plug-in's own contract) stands for itself."""
    return labels.CONTRACTS.get(contract_id, contract_id)


@dataclass(frozen=True)
class Contract:
    """A contract's id and the hand fields and bonuses it uses (RULES.md §11)."""

    id: str
    required: frozenset[str] = frozenset()
    optional: frozenset[str] = frozenset()
    bonuses: frozenset[str] = frozenset()

    @property
    def words(self) -> Say | str:
        return contract_words(self.id)

    @property
    def label(self) -> str:
        return str(self.words)

    @property
    def fields(self) -> frozenset[str]:
        return self.required | self.optional

    @property
    def takes_contra(self) -> bool:
        return "contra" in self.optional


def contract(id: str, required: str = "", optional: str = "", bonuses=()) -> Contract:
    """Shorthand for the contract tables of the family modules: fields as space-separated words."""
    return Contract(
        id, frozenset(required.split()), frozenset(optional.split()), frozenset(bonuses)
    )


# The largest number a switch takes (a contract's or a bonus's value, a penalty): far above
# any real table's (valat 500), so that no session's frozen rules break on it, and small
# enough that no amount overflows a stored column (×16 contra, ×2 radelc).
MAX_SWITCH_NUMBER = 100_000

# The two rows every variant has (RULES.md §0).
REDEAL = contract("redeal")
ADJUSTMENT = contract("adjustment", required="adjustments")
# Rows that are no deal: nothing is played, no rating changes, no dealer moves on for a redeal.
NOT_DEALS = frozenset({REDEAL.id, ADJUSTMENT.id})


@dataclass(frozen=True)
class BonusSpec:
    """How a bonus may be recorded; the generic checks of the hand reader use it."""

    id: str
    announce: bool = True  # may be announced
    silent_fail: bool = False  # silent and not made exists (pagat ultimo, king ultimo)
    player: bool = False  # belongs to, or is paid by, one player
    levels: tuple[str, ...] = ()  # French poignée
    per_player: bool = False  # may appear once per player rather than once per hand
    level_words: tuple[str, ...] = ()  # the levels as problems name them (French: trump counts)
    # ``made`` may be left out (then None): the family works it out (Zwanzigerrufen absolut
    # follows from the points) and checks a given one against that.
    made_optional: bool = False

    @property
    def words(self) -> Say:
        return labels.BONUSES[self.id]

    @property
    def label(self) -> str:
        return str(self.words)


@dataclass(frozen=True)
class Carried:
    """What a sheet shows of the state a game carries from hand to hand, where that state is a
    count per player (Slovenian radelci; ``Variant.held`` reads the counts from a carry): its
    words, and the marks a screen draws after an amount (paper draws circles)."""

    name: Say | str  # the foot's row of what each player holds: "Radelci"
    gained: Say | str  # one more of them in a hand: "radelc"
    used: Say | str  # one of them used up: "radelc used"
    mark: str = "○"
    used_mark: str = "⊘"


@dataclass(frozen=True)
class Switch:
    """One of RULES.md §10's switches: a fixed set of choices, an integer range, or a map."""

    name: str
    choices: tuple[Any, ...] = ()
    low: int | None = None
    high: int | None = None
    read_map: Callable[[Any, str, Problems, Any], Any] | None = None
    # A map's keys, in the order a form lists them, and their words; ``pair``: each value is
    # [silent, announced] (a bonus's two values), not one number.
    keys: tuple[str, ...] = ()
    key_words: Callable[[str], Any] | None = None
    pair: bool = False

    @property
    def label(self) -> str:
        return str(labels.SWITCHES[self.name])

    def key_label(self, key: str) -> str:
        """A key of a map in the reader's words ("beggar", "trula"); an unknown one as it is."""
        return str(self.key_words(key)) if self.key_words is not None else key

    def read(self, value: Any, path: str, problems: Problems, current: Any) -> Any:
        if self.read_map is not None:
            return self.read_map(value, path, problems, current)
        if self.choices:
            if type(value) is not type(self.choices[0]) or value not in self.choices:
                problems.add(path, "bad-switch-value", value=value, known=_known(self.choices))
                return current
            return value
        if type(value) is not int:
            problems.add(path, "not-an-integer")
            return current
        if self.low is not None and value < self.low:
            problems.add(path, "at-least", low=self.low)
            return current
        if self.high is not None and value > self.high:
            problems.add(path, "at-most", high=self.high)
            return current
        if not -MAX_SWITCH_NUMBER <= value <= MAX_SWITCH_NUMBER:
            problems.add(path, "out-of-range", low=-MAX_SWITCH_NUMBER, high=MAX_SWITCH_NUMBER)
            return current
        return value


def _known(values) -> str:
    return ", ".join(str(v).lower() if isinstance(v, bool) else str(v) for v in values)


class Rules(dict):
    """A variant's switches resolved from a preset and overrides, with what follows from them.

    Read-only: a dict only so that the scoring code's many ``rules[switch]`` lookups run at
    dict speed; every method that would change it raises. ``contracts`` (id -> Contract, redeal
    and adjustment included) is derived once here, not again for every hand of a sheet.
    """

    def __init__(self, variant: Variant, preset: str, switches: dict[str, Any]):
        super().__init__(switches)
        self.variant = variant
        self.preset = preset
        contracts = variant.contracts(self)
        contracts[REDEAL.id] = REDEAL
        contracts[ADJUSTMENT.id] = ADJUSTMENT
        self.contracts: Mapping[str, Contract] = MappingProxyType(contracts)
        fields = fields_of(variant)
        # What each contract must not carry, derived once rather than for every hand.
        self.unused_fields = {
            cid: frozenset(fields) - COMMON_FIELDS - c.fields - variant.hand_fields
            for cid, c in contracts.items()
        }
        self.max_contra: int = variant.max_contra(self)
        # Each ranged field's (low, high) under these rules, also resolved once.
        self.ranges: Mapping[str, tuple[Any, Any]] = {
            name: field_range(name, variant, self)
            for name, field in fields.items()
            if field.high is not None
        }

    def _read_only(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("rules are read-only: resolve new ones from a preset and switches")

    __setitem__ = __delitem__ = __ior__ = _read_only
    clear = pop = popitem = setdefault = update = _read_only

    def to_json(self) -> dict[str, Any]:
        """The full switch values with the preset's name: what a session freezes."""
        return {"preset": self.preset, **_jsonable(dict(self))}


def _jsonable(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    return value


class Variant:
    """A game the engine scores. Family modules subclass it and fill in the class attributes.

    >>> from rules import get_variant
    >>> v = get_variant("slovenian-4")
    >>> str(v.family_label), v.table_sizes(), v.is_deal("redeal"), v.card_label("tarok-22")
    ('Slovenian tarok', (4, 5), False, 'Škis')
    """

    id: str
    family: str
    family_label: str  # the family's name: "Slovenian tarok", a league's heading
    player_counts: tuple[int, ...]
    card_points: int  # the whole deck: 70, 88 or 91
    half_points: bool = False  # French piles may end in .5
    deck: Deck  # its cards and how a pile of them is counted (RULES.md §5)
    # The words of its sides and its contra levels (Zwanzigerrufen: contra, recontra, subcontra).
    side_words: Mapping[str, str] = MappingProxyType(labels.SIDES)
    # The words of its roles, as the hand form names them: declarer, partner, defenders (French:
    # taker, called partner, defence), and "alone": the declarer of a contract without partner.
    role_words: Mapping[str, str] = MappingProxyType(labels.ROLES)
    contra_words: Mapping[int, str] = MappingProxyType(labels.CONTRA_WORDS)
    # What a counted pile shows besides its points: the bonus its three honours complete (None:
    # none, French) and whether its oudlers are told (French).
    trula_bonus: str | None = "trula"
    shows_oudlers: bool = False
    presets: Mapping[str, Mapping[str, Any]]
    default_preset: str
    switches: Mapping[str, Switch] = {}
    bonus_specs: Mapping[str, BonusSpec] = {}
    # Fields any contract may carry; a bonus a contract does not allow is reported per item.
    hand_fields: frozenset[str] = frozenset({"dealer", "adjustments", "bonuses"})
    # Fields of its own a hand of this game has, besides those of HANDS.md (rules.fields): each
    # of a kind the engine reads, and named on a contract that uses it, like any other.
    own_fields: tuple[Field, ...] = ()
    uses_radelci: bool = False
    zero_sum: bool = True

    @property
    def label(self) -> str:
        return str(labels.VARIANTS[self.id])

    def contract_label(self, contract_id: str) -> str:
        """The words for a contract of this game, from its id alone (a game of a plug-in or a
        test may name its own by overriding this)."""
        return str(contract_words(contract_id))

    def table_sizes(self) -> tuple[int, ...]:
        """A table seats the game's players, or one more who sits out each hand (RULES.md §0)."""
        return (*self.player_counts, max(self.player_counts) + 1)

    def is_deal(self, contract_id: str) -> bool:
        """Whether a row of this contract is a deal played: not a redeal, not an adjustment."""
        return contract_id not in NOT_DEALS

    def keeps_radelci(self, rules: Mapping[str, Any]) -> bool:
        """Whether a session with these rules (``Rules`` or their stored JSON) carries radelci."""
        return False

    def carried(self, rules: Mapping[str, Any]) -> Carried | None:
        """What the sheet of a session with these rules (``Rules`` or their stored JSON) shows of
        the state this game carries from hand to hand; None: nothing (the default)."""
        return None

    def held(self, carry: Any) -> Mapping[str, int]:
        """Each player's count in ``carry`` (a ``Running.carry``) as the sheet shows it
        (Slovenian: the radelci he holds); empty where the game carries no count."""
        return {}

    # -- cards ----------------------------------------------------------------------------

    def card_label(self, card: str) -> str:
        """A card's short label on a chip: "I", "XXI", "Škis", "K♥", "Q♠", "7♣", "low ♣"."""
        return self.deck.label(card)

    @property
    def trumps_label(self) -> str:
        """The heading of the deck's trumps: "Taroks", French "Excuse and trumps"."""
        return str(self.deck.trumps_label)

    def count(self, cards: list[str] | tuple[str, ...]) -> Count:
        """Count a pile of this game's cards; an unknown or repeated card raises ``RulesError``."""
        return self.deck.count(cards)

    def count_summary(self, count: Count) -> list[str]:  # said in the reader's language
        """What a counted pile shows, in words: "43 points", "trula complete", "12 cards"."""
        parts = [Say("count.points", points=count.points)]
        if count.trula and self.trula_bonus is not None:
            parts.append(Say("count.complete", what=labels.BONUSES[self.trula_bonus]))
        if count.kings:
            parts.append(Say("count.complete", what=labels.BONUSES["kings"]))
        if self.shows_oudlers:
            parts.append(Say("count.oudlers", count=count.oudlers))
        parts.append(Say("count.cards", count=len(count.cards)))
        return [part.text() for part in parts]

    # -- rules ----------------------------------------------------------------------------

    def rules(self, data: Any = None, path: str = "rules") -> Rules:
        """Resolve ``{"preset": NAME, SWITCH: VALUE, …}`` (or None) into ``Rules``."""
        problems = Problems()
        rules = self.read_rules(data, path, problems)
        problems.raise_if_any()
        return rules

    def read_rules(self, data: Any, path: str, problems: Problems) -> Rules | None:
        if data is None:
            data = {}
        if not isinstance(data, dict):
            problems.add(path, "not-an-object")
            return None
        preset = data.get("preset", self.default_preset)
        if not isinstance(preset, str):
            problems.add(f"{path}.preset", "not-a-string")
            return None
        if preset not in self.presets:
            problems.add(
                f"{path}.preset",
                "unknown-preset",
                value=preset,
                variant=self.id,
                known=_known(self.presets),
            )
            return None
        switches = dict(self.presets[preset])
        before = len(problems)
        for name, value in data.items():
            if name == "preset":
                continue
            switch = self.switches.get(name) if isinstance(name, str) else None
            if switch is None:
                problems.add(
                    f"{path}.{field_name(name)}",
                    "unknown-switch",
                    value=name,
                    variant=self.id,
                    known=_known(self.switches) or "none",
                )
                continue
            switches[name] = switch.read(value, f"{path}.{name}", problems, switches[name])
        if len(problems) > before:
            return None
        return Rules(self, preset, switches)

    # -- what the family modules provide ---------------------------------------------------

    def contracts(self, rules: Rules) -> dict[str, Contract]:
        """The contracts these rules allow (redeal and adjustment are added by ``Rules``)."""
        raise NotImplementedError

    def max_contra(self, rules: Rules) -> int:
        """The highest contra level; 0 where the game takes no contras."""
        return 0

    def defenders_may_announce(self, rules: Rules) -> bool:
        return True

    def check(self, hand: Hand, rules: Rules, problems: Problems, path: str) -> None:
        """Checks beyond the generic ones of the reader; add problems with ``path`` prefixed."""

    def check_entered(self, hand: Hand, rules: Rules, problems: Problems, path: str) -> None:
        """Checks only a hand being entered must pass (new, edited or imported), not one
        already stored that is read again to rescore its session: a check added to the rules
        after hands were recorded under the older ones. ``read_hand(..., entered=False)``
        skips it. Add problems with ``path`` prefixed."""

    def score(self, hand: Hand, rules: Rules, carry: Any) -> tuple[list[Line], Any]:
        """The lines of a hand (adjustments excepted) and the carry after it (radelci)."""
        raise NotImplementedError

    def play(self, hand: Hand, rules: Rules, carry: Any) -> Played:
        """What the sheet asks: ``score``'s lines and carry, and the players whose radelc the
        hand used. A family that spends from its carry overrides this rather than ``score``."""
        lines, carry = self.score(hand, rules, carry)
        return Played(lines, carry)

    def start_carry(self, players: tuple[str, ...], rules: Rules) -> Any:
        """What a sheet carries from hand to hand, before its first hand (radelci)."""
        return None

    def carry_of(self, hand: Hand, rules: Rules) -> Any:
        """The carry for a hand scored alone (Slovenian: its ``radelci`` field)."""
        return None

    def closing_lines(self, players: tuple[str, ...], carry: Any, rules: Rules) -> list[Line]:
        """Lines added when a session closes (Slovenian radelc penalties)."""
        return []

    def settlement_method(self, rules: Rules) -> str:
        """ "average" (total − mean) or "pairwise" (N × total − sum of totals), RULES.md §7."""
        return "average"


NOBODY: frozenset[str] = frozenset()  # no player's radelc used: the one empty set


class Played(NamedTuple):
    """A hand scored within its sheet: its lines, the carry after it, and the players whose
    radelc it used (a won hand of a declarer who held one, RULES.md §1.4).

    A carry is never changed once made: a hand that changes it returns a new one, so that a
    result may keep the carry after its hand as it is."""

    lines: list[Line]
    carry: Any
    radelci_used: frozenset[str] = NOBODY


# Every variant the engine scores, in the order they were registered: ``rules/__init__.py``
# registers the families' lists in the order of HANDS.md.
_REGISTRY: dict[str, Variant] = {}


def register(variant: Variant) -> Variant:
    """Add a variant (after the others); one with a registered id replaces it in its place."""
    _REGISTRY[variant.id] = variant
    return variant


def unregister(variant_id: str) -> None:
    """Remove a variant, as a test that registered a toy one does; an unknown id: KeyError."""
    del _REGISTRY[variant_id]


def variants() -> tuple[Variant, ...]:
    """Every variant the engine scores, in the order of HANDS.md."""
    return tuple(_REGISTRY.values())


def get_variant(variant_id: Any, path: str = "variant") -> Variant:
    """The variant with this id; an unknown id raises ``RulesError`` listing the known ones."""
    variant = _REGISTRY.get(variant_id) if isinstance(variant_id, str) else None
    if variant is None:
        problems = Problems()
        problems.add(path, "unknown-variant", value=variant_id, known=_known(_REGISTRY))
        raise RulesError(problems)
    return variant


def resolve_rules(variant_id: str, data: Any = None) -> dict[str, Any]:
    """The full switch values of a variant's preset and overrides, ready to store as JSON."""
    return get_variant(variant_id).rules(data).to_json()


__all__ = [
    "ADJUSTMENT",
    "COMMON_FIELDS",
    "CONTRACT_FIELDS",
    "HAND_FIELDS",
    "NOBODY",
    "NOT_DEALS",
    "REDEAL",
    "BonusSpec",
    "Carried",
    "Contract",
    "Played",
    "Rules",
    "Switch",
    "Variant",
    "contract",
    "get_variant",
    "register",
    "resolve_rules",
    "unregister",
    "variants",
]
