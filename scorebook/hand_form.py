"""The hand form: POSTed fields <-> the hand JSON of HANDS.md, built from the engine's registry.

Nothing about a variant is written here or in the templates: the contracts, the fields each
contract uses, the bonuses and their states, the contra levels and every label come from
``rules`` (the variant, its ``Rules`` and ``rules.labels``). Seats are posted as their position
(1, 2, …) so that a player's name never has to survive being a form value or a field name.

The engine checks the hand; this module only turns text into JSON types. A problem the engine
finds comes back with a JSON path (``points``, ``bonuses[1].contra``) that ``HandForm.add_problems``
puts next to the form field it concerns.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _

import rules
from rules import counting, labels
from rules.items import multiplier
from rules.model import DECLARER, DEFENDERS
from scorebook import textinput

# The states of a bonus chip; which of them a bonus offers follows from its BonusSpec.
NONE = ""
SILENT = "silent"
SILENT_DEFENDERS = "silent-defenders"
ANNOUNCED = "announced"
ANNOUNCED_FAILED = "announced-failed"
DEFENDERS_ANNOUNCED = "defenders-announced"
DEFENDERS_ANNOUNCED_FAILED = "defenders-announced-failed"
LOST = "lost"
LOST_DEFENDERS = "lost-defenders"

# state -> (side, announced, made)
STATE_BONUS = {
    SILENT: (DECLARER, False, True),
    SILENT_DEFENDERS: (DEFENDERS, False, True),
    ANNOUNCED: (DECLARER, True, True),
    ANNOUNCED_FAILED: (DECLARER, True, False),
    DEFENDERS_ANNOUNCED: (DEFENDERS, True, True),
    DEFENDERS_ANNOUNCED_FAILED: (DEFENDERS, True, False),
    LOST: (DECLARER, False, False),
    LOST_DEFENDERS: (DEFENDERS, False, False),
}

# The form fields the engine's top-level paths concern; the rest are mapped in `_field_of`.
DIRECT_FIELDS = (
    "contract",
    "declarer",
    "partner",
    "points",
    "made",
    "level",
    "oudlers",
    "announcer",
    "dealer",
)
TOP = "__all__"
# An adjustment's reason is a line of the sheet: a short text, like a void reason.
MAX_REASON_LENGTH = 200


def state_labels() -> dict[str, str]:
    side = labels.SIDES
    return {
        NONE: "–",
        SILENT: _("silent"),
        SILENT_DEFENDERS: _("silent, %(side)s") % {"side": side[DEFENDERS]},
        ANNOUNCED: _("announced"),
        ANNOUNCED_FAILED: _("announced, failed"),
        DEFENDERS_ANNOUNCED: _("announced by the %(side)s") % {"side": side[DEFENDERS]},
        DEFENDERS_ANNOUNCED_FAILED: _("announced by the %(side)s, failed")
        % {"side": side[DEFENDERS]},
        LOST: _("lost"),
        LOST_DEFENDERS: _("lost, %(side)s") % {"side": side[DEFENDERS]},
    }


def contra_choices(variant, max_level: int) -> list[tuple[int, str]]:
    words = labels.CONTRA_WORDS_BY_FAMILY.get(variant.family, labels.CONTRA_WORDS)
    out = [(0, _("none"))]
    for level in range(1, max_level + 1):
        out.append((level, f"{words[level]} ×{multiplier(level)}"))
    return out


@dataclass
class BonusField:
    """One bonus of the chosen contract as the form shows it."""

    spec: Any
    key: str
    label: str
    states: list[tuple[str, str]] = field(default_factory=list)
    takes_contra: bool = False
    takes_player: bool = False
    levels: list[tuple[str, str]] = field(default_factory=list)  # per-player level (poignée)

    @property
    def per_player(self) -> bool:
        return bool(self.levels)


@dataclass
class Seat:
    position: int
    name: str

    @property
    def value(self) -> str:
        return str(self.position)


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def json_number(number: int | Decimal) -> int | float:
    """A number for the hand JSON, which has no decimals: the engine reads a float back by its
    digits, so a half point or a hundredth stays exact."""
    return number if isinstance(number, int) else float(number)


class Values:
    """What the form shows: one string (or a list, for checkboxes) per field name."""

    def __init__(self, data: Mapping[str, Any] | None = None):
        self._single: dict[str, str] = {}
        self._lists: dict[str, list[str]] = {}
        if data is None:
            return
        getlist = getattr(data, "getlist", None)
        for key in data:
            if getlist is not None:
                items = [str(v) for v in getlist(key)]
            else:
                raw = data[key]
                items = [str(v) for v in raw] if isinstance(raw, list) else [_text(raw)]
            self._lists[key] = items
            self._single[key] = items[-1].strip() if items else ""

    def get(self, key: str, default: str = "") -> str:
        return self._single.get(key, default)

    def getlist(self, key: str) -> list[str]:
        return self._lists.get(key, [])

    def set(self, key: str, value: Any) -> None:
        self._single[key] = _text(value)
        self._lists[key] = [_text(value)]

    def add(self, key: str, value: Any) -> None:
        self._lists.setdefault(key, []).append(_text(value))
        self._single[key] = _text(value)

    def __contains__(self, key: str) -> bool:
        return key in self._single


class HandForm:
    """The hand form of one session, bound to posted values (or a stored hand's values)."""

    def __init__(self, session, seat_names: list[str], values: Values | None = None):
        self.session = session
        self.variant = rules.get_variant(session.variant)
        self.rules = self.variant.rules(session.rules)
        self.seats = [Seat(i, name) for i, name in enumerate(seat_names, start=1)]
        self.values = values if values is not None else Values()
        self.errors: dict[str, list[str]] = {}
        # JSON path prefix -> form field, filled while the hand is built.
        self._paths: dict[str, str] = {}

    # -- what the template shows ---------------------------------------------------------

    @property
    def contracts(self) -> list[tuple[str, str]]:
        return [(c.id, c.label) for c in self.rules.contracts.values()]

    @property
    def default_contract(self) -> str:
        """The first contract of the variant: the most common one is listed first."""
        return next(iter(self.rules.contracts))

    @property
    def contract_id(self) -> str:
        chosen = self.values.get("contract")
        return chosen if chosen in self.rules.contracts else self.default_contract

    @property
    def contract(self):
        return self.rules.contracts[self.contract_id]

    def uses(self, name: str) -> bool:
        return name in self.contract.fields

    @property
    def needs_sitting_out(self) -> bool:
        return len(self.seats) not in self.variant.player_counts

    @property
    def dealt_seats(self) -> list[Seat]:
        if not self.needs_sitting_out:
            return self.seats
        out = self.values.get("sits_out")
        return [s for s in self.seats if s.value != out]

    @property
    def contra_levels(self) -> list[tuple[int, str]]:
        return contra_choices(self.variant, self.rules.max_contra)

    @property
    def takes_game_contra(self) -> bool:
        return self.uses("contra") and self.rules.max_contra > 0

    @property
    def bonus_fields(self) -> list[BonusField]:
        contract = self.contract
        if "bonuses" not in contract.fields | self.variant.hand_fields:
            return []
        words = state_labels()
        defenders_announce = self.variant.defenders_may_announce(self.rules)
        out = []
        for bonus_id, spec in self.variant.bonus_specs.items():
            if bonus_id not in contract.bonuses:
                continue
            bonus = BonusField(spec, f"bonus-{bonus_id}", spec.label)
            if spec.levels:
                names = spec.level_words or [labels.POIGNEE_LEVELS.get(v, v) for v in spec.levels]
                bonus.levels = [("", "–"), *zip(spec.levels, names, strict=True)]
            elif spec.player and not spec.announce:
                bonus.takes_player = True
            else:
                states = [NONE]
                if not spec.made_optional:  # a silent one follows from the points
                    states += [SILENT, SILENT_DEFENDERS]
                if spec.announce:
                    states += [ANNOUNCED, ANNOUNCED_FAILED]
                    if defenders_announce:
                        states += [DEFENDERS_ANNOUNCED, DEFENDERS_ANNOUNCED_FAILED]
                if spec.silent_fail:
                    states += [LOST, LOST_DEFENDERS]
                bonus.states = [(s, words[s]) for s in states]
                bonus.takes_player = spec.player
                bonus.takes_contra = spec.announce and self.rules.max_contra > 0
            out.append(bonus)
        return out

    @property
    def declarations(self) -> list[tuple[str, str]]:
        return list(labels.DECLARATIONS.items()) if self.uses("declarations") else []

    @property
    def half_points(self) -> bool:
        return self.variant.half_points

    @property
    def card_points(self) -> int:
        return self.variant.card_points

    # -- form -> hand JSON ---------------------------------------------------------------

    def error(self, key: str, message: str) -> None:
        messages = self.errors.setdefault(key, [])
        if message not in messages:
            messages.append(message)

    def _seat_name(self, key: str) -> str | None:
        value = self.values.get(key)
        if not value:
            return None
        for seat in self.seats:
            if seat.value == value:
                return seat.name
        self.error(key, _("Choose one of the seated players."))
        return None

    def _number(self, key: str, *, whole: bool = False) -> int | Decimal | None:
        """The number typed at `key` (textinput.number), or None with the problem at the field."""
        try:
            return textinput.number(self.values.get(key), whole=whole)
        except textinput.InputError as exc:
            self.error(key, exc.message)
            return None

    def _amount(self, key: str) -> int | Decimal | None:
        try:
            return textinput.amount(self.values.get(key))
        except textinput.InputError as exc:
            self.error(key, exc.message)
            return None

    def _plain_text(self, key: str, max_length: int) -> str:
        """The one-line text typed at `key`, or "" with the problem at the field."""
        try:
            return textinput.check_text(self.values.get(key), max_length=max_length)
        except textinput.InputError as exc:
            self.error(key, exc.message)
            return ""

    def hand_data(self) -> dict[str, Any]:
        """The hand's own fields (HANDS.md) from the posted values; `errors` holds what could
        not even be read. The session's variant, rules and players are added by the service."""
        self._paths = {}
        contract = self.contract
        data: dict[str, Any] = {}
        chosen = self.values.get("contract")
        if chosen and chosen not in self.rules.contracts:
            self.error("contract", _("Choose one of the listed contracts."))
        if self.needs_sitting_out:
            if not self.values.get("sits_out"):
                self.error("sits_out", _("Choose who sits out this hand."))
            else:
                self._seat_name("sits_out")
            data["players"] = [s.name for s in self.dealt_seats]
            self._paths["players"] = "sits_out"
        data["contract"] = contract.id
        dealer = self._seat_name("dealer")
        if dealer is not None:
            data["dealer"] = dealer
        for key in ("declarer", "partner", "announcer"):
            if self.uses(key):
                name = self._seat_name(key)
                if name is not None:
                    data[key] = name
        if self.uses("points"):
            points = self._number("points")
            if points is not None:
                if self.values.get("points_side") == DEFENDERS:
                    points = self.card_points - points
                data["points"] = json_number(points)
        if self.uses("made"):
            made = self.values.get("made")
            if made in ("yes", "no"):
                data["made"] = made == "yes"
        for key in ("level", "oudlers"):
            if self.uses(key):
                number = self._number(key, whole=True)
                if number is not None:
                    data[key] = number
        if self.takes_game_contra:
            level = self._number("contra", whole=True)
            if level:
                data["contra"] = {"game": level}
            self._paths["contra"] = "contra"
        bonuses = self._bonuses()
        if bonuses:
            data["bonuses"] = bonuses
        for key, prefix in (("points_by_player", "pbp"), ("tricks_by_player", "tricks")):
            if self.uses(key):
                by_player = {}
                for seat in self.dealt_seats:
                    number = self._number(
                        f"{prefix}-{seat.position}", whole=key != "points_by_player"
                    )
                    if number is not None:
                        by_player[seat.name] = json_number(number)
                    self._paths[f"{key}.{seat.name}"] = f"{prefix}-{seat.position}"
                self._paths[key] = prefix
                if by_player or key in contract.required:
                    data[key] = by_player
        if self.uses("declarations"):
            declarations = []
            for decl_id, _label in self.declarations:
                for value in self.values.getlist(f"decl-{decl_id}"):
                    name = next((s.name for s in self.seats if s.value == value), None)
                    if name is not None:
                        self._paths[f"declarations[{len(declarations)}]"] = f"decl-{decl_id}"
                        declarations.append({"player": name, "name": decl_id})
            if declarations:
                data["declarations"] = declarations
        if contract.id == "adjustment":
            adjustments = []
            reason = self._plain_text("adj_reason", MAX_REASON_LENGTH)
            for seat in self.dealt_seats:
                amount = self._amount(f"adj-{seat.position}")
                if amount:
                    self._paths[f"adjustments[{len(adjustments)}]"] = f"adj-{seat.position}"
                    item = {"player": seat.name, "amount": json_number(amount)}
                    if reason:
                        item["reason"] = reason
                    adjustments.append(item)
            self._paths["adjustments"] = "adjustments"
            data["adjustments"] = adjustments
        return data

    def _bonuses(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for bonus in self.bonus_fields:
            name = bonus.spec.id
            if bonus.per_player:
                for seat in self.dealt_seats:
                    key = f"{bonus.key}-{seat.position}"
                    level = self.values.get(key)
                    if level:
                        self._paths[f"bonuses[{len(out)}]"] = key
                        out.append({"name": name, "player": seat.name, "level": level})
                continue
            if bonus.takes_player and not bonus.states:
                player = self._seat_name(f"{bonus.key}-player")
                if player is not None:
                    self._paths[f"bonuses[{len(out)}]"] = f"{bonus.key}-player"
                    out.append({"name": name, "player": player})
                continue
            state = self.values.get(bonus.key)
            if not state:
                continue
            if state not in dict(bonus.states):
                self.error(bonus.key, _("Choose one of the listed states."))
                continue
            side, announced, made = STATE_BONUS[state]
            item: dict[str, Any] = {"name": name}
            if side != DECLARER:
                item["side"] = side
            if announced:
                item["announced"] = True
            if not (bonus.spec.made_optional and made):
                item["made"] = made
            if bonus.takes_contra:
                level = self._number(f"{bonus.key}-contra", whole=True)
                if level:
                    item["contra"] = level
            if bonus.takes_player:
                player = self._seat_name(f"{bonus.key}-player")
                if player is not None:
                    item["player"] = player
            index = f"bonuses[{len(out)}]"
            self._paths[index] = bonus.key
            self._paths[f"{index}.contra"] = f"{bonus.key}-contra"
            self._paths[f"{index}.player"] = f"{bonus.key}-player"
            out.append(item)
        return out

    # -- the engine's problems at their fields ---------------------------------------------

    def _field_of(self, path: str) -> str:
        if path in self._paths:
            return self._paths[path]
        # The longest known prefix: bonuses[1].side -> the bonus, points_by_player.Ana -> …
        parts = re.split(r"(?=[.\[])", path)
        while parts:
            prefix = "".join(parts)
            if prefix in self._paths:
                return self._paths[prefix]
            parts.pop()
        head = re.split(r"[.\[]", path, maxsplit=1)[0]
        if head in DIRECT_FIELDS:
            return head
        if head == "bonuses":
            return "bonuses"
        if head == "declarations":
            return "declarations"
        return TOP

    def add_problems(self, problems) -> None:
        for problem in problems:
            self.error(self._field_of(problem.path), problem.message)

    @property
    def top_errors(self) -> list[str]:
        return self.errors.get(TOP, [])

    # -- hand JSON -> form ---------------------------------------------------------------

    @classmethod
    def values_from_hand(cls, session, seat_names: list[str], hand: Mapping[str, Any]) -> Values:
        """The form values that give back `hand` (a stored hand, for editing)."""
        position = {name: str(i) for i, name in enumerate(seat_names, start=1)}
        values = Values()
        values.set("contract", hand.get("contract", ""))
        players = hand.get("players") or seat_names
        out = [n for n in seat_names if n not in players]
        if out:
            values.set("sits_out", position[out[0]])
        for key in ("declarer", "partner", "announcer", "dealer"):
            if hand.get(key):
                values.set(key, position.get(hand[key], ""))
        for key in ("points", "made", "level", "oudlers"):
            if key in hand:
                values.set(key, hand[key])
        values.set("points_side", DECLARER)
        if "contra" in hand:
            values.set("contra", hand["contra"].get("game", 0))
        state_of = {v: k for k, v in STATE_BONUS.items()}
        for bonus in hand.get("bonuses", []):
            key = f"bonus-{bonus['name']}"
            if bonus.get("level"):
                values.set(f"{key}-{position.get(bonus.get('player'), '')}", bonus["level"])
                continue
            if (
                "announced" in bonus
                or "side" in bonus
                or "made" in bonus
                or not bonus.get("player")
            ):
                made = bonus.get("made", True)
                state = state_of[
                    (bonus.get("side", DECLARER), bool(bonus.get("announced")), made is not False)
                ]
                values.set(key, state)
            if bonus.get("contra"):
                values.set(f"{key}-contra", bonus["contra"])
            if bonus.get("player"):
                values.set(f"{key}-player", position.get(bonus["player"], ""))
        for key, prefix in (("points_by_player", "pbp"), ("tricks_by_player", "tricks")):
            for name, number in (hand.get(key) or {}).items():
                values.set(f"{prefix}-{position.get(name, '')}", number)
        for declaration in hand.get("declarations", []):
            values.add(f"decl-{declaration['name']}", position.get(declaration["player"], ""))
        for adjustment in hand.get("adjustments", []):
            values.set(f"adj-{position.get(adjustment['player'], '')}", adjustment["amount"])
            if adjustment.get("reason"):
                values.set("adj_reason", adjustment["reason"])
        return values


def note(result) -> str:
    """A paper-style note for a sheet row: "+44 two tr. p.u.(×2)"."""
    hand = result.hand
    parts = []
    if hand.declarer is not None:
        amount = result.amounts.get(hand.declarer, 0)
        parts.append(f"{'+' if amount > 0 else ''}{_number_text(amount)}")
    parts.append(labels.CONTRACTS.get(hand.contract, hand.contract))
    if hand.made is False:
        parts[-1] += " ✗"
    for bonus in hand.bonuses:
        text = labels.BONUS_ABBREVIATIONS.get(bonus.name, bonus.name)
        if bonus.side != DECLARER:
            text = "/" + text  # the defenders' column on paper
        if bonus.made is False:
            text = "−" + text
        if bonus.contra:
            text += f"(×{multiplier(bonus.contra)})"
        parts.append(text)
    if hand.contra:
        parts.append(f"×{multiplier(hand.contra)}")
    return " ".join(parts)


def _number_text(amount) -> str:
    if isinstance(amount, Decimal):
        text = format(amount.normalize(), "f")
    else:
        text = str(amount)
    return text.replace("-", "−")


# --- What the template draws ------------------------------------------------------------------


@dataclass
class Option:
    value: str
    label: str
    checked: bool = False


@dataclass
class Widget:
    """One control of the hand form, resolved for a generic template (nothing variant-specific
    is decided in HTML). kind: choice (radio chips), checks (checkbox chips), select, number,
    text, check (one checkbox), group (a fieldset of widgets)."""

    kind: str
    name: str
    label: str
    options: list[Option] = field(default_factory=list)
    value: str = ""
    errors: list[str] = field(default_factory=list)
    children: list[Widget] = field(default_factory=list)
    help: str = ""
    inputmode: str = ""
    css: str = ""
    open: bool = False  # a fold shown open
    groups: list[Any] = field(default_factory=list)  # the card counter's chips by suit

    @property
    def id(self) -> str:
        return "id_" + re.sub(r"[^\w-]", "_", self.name)


def _choice(form: HandForm, kind: str, name: str, label: str, options, *, default="", **kw):
    current = form.values.getlist(name) if kind == "checks" else [form.values.get(name, default)]
    opts = [Option(str(v), str(lbl), str(v) in current) for v, lbl in options]
    return Widget(kind, name, label, opts, errors=form.errors.get(name, []), **kw)


def _number_widget(form: HandForm, name: str, label: str, *, decimal: bool = False, **kw):
    return Widget(
        "number",
        name,
        label,
        value=form.values.get(name),
        errors=form.errors.get(name, []),
        inputmode="decimal" if decimal else "numeric",
        **kw,
    )


def redraw_widgets(form: HandForm) -> list[Widget]:
    """The controls that change which fields the form shows: the contract and who sits out."""
    out = [
        _choice(
            form,
            "choice",
            "contract",
            _("Contract"),
            form.contracts,
            default=form.default_contract,
            css="contracts",
        )
    ]
    if form.needs_sitting_out:
        seats = [(s.value, s.name) for s in form.seats]
        out.append(_choice(form, "choice", "sits_out", _("Sits out"), seats, css="seats"))
    return out


def widgets(form: HandForm) -> list[Widget]:
    """The controls of the chosen contract, in the order a hand is told at the table."""
    out: list[Widget] = []
    seats = [(s.value, s.name) for s in form.seats]
    dealt = [(s.value, s.name) for s in form.dealt_seats]
    if form.uses("declarer"):
        out.append(_choice(form, "choice", "declarer", _("Declarer"), dealt, css="seats"))
    if form.uses("partner"):
        out.append(
            _choice(
                form, "choice", "partner", _("Partner"), [("", _("alone")), *dealt], css="seats"
            )
        )
    if form.uses("announcer"):
        out.append(
            _choice(
                form,
                "choice",
                "announcer",
                _("Announced"),
                [("", _("nobody")), *dealt],
                css="seats",
            )
        )
    if form.uses("points"):
        points = _number_widget(
            form,
            "points",
            _("Card points of the declarer's side (of %(total)d)") % {"total": form.card_points},
            decimal=form.half_points,
        )
        points.children.append(
            Widget(
                "check",
                "points_side",
                _("these are the defenders' points"),
                [Option(DEFENDERS, "", form.values.get("points_side") == DEFENDERS)],
            )
        )
        out.append(points)
        counter = card_counter(form)
        if counter is not None:
            out.append(counter)
    if form.uses("oudlers"):
        out.append(_choice(form, "choice", "oudlers", _("Oudlers"), [(n, n) for n in range(4)]))
    if form.uses("made"):
        out.append(
            _choice(
                form,
                "choice",
                "made",
                labels.LINE_WORDS["made"].capitalize(),
                [("yes", _("yes")), ("no", _("no"))],
            )
        )
    if form.uses("level"):
        out.append(
            _choice(
                form,
                "choice",
                "level",
                labels.LINE_WORDS["level"].capitalize(),
                [(n, n) for n in range(1, 4)],
            )
        )
    for key, prefix, label, decimal in (
        ("points_by_player", "pbp", _("Card points of each player"), form.half_points),
        ("tricks_by_player", "tricks", _("Tricks of each player (optional)"), False),
    ):
        if form.uses(key):
            group = Widget(
                "group", prefix, label, errors=form.errors.get(prefix, []), css="per-player"
            )
            for value, name in dealt:
                group.children.append(
                    _number_widget(form, f"{prefix}-{value}", name, decimal=decimal)
                )
            out.append(group)
    if form.declarations:
        group = Widget(
            "group", "declarations", _("Declarations"), errors=form.errors.get("declarations", [])
        )
        for decl_id, label in form.declarations:
            group.children.append(
                _choice(form, "checks", f"decl-{decl_id}", label, dealt, css="seats")
            )
        # Folded away until one is ticked: most hands have none.
        group.kind = "fold"
        group.open = bool(group.errors) or any(
            option.checked or child.errors for child in group.children for option in child.options
        )
        out.append(group)
    if form.takes_game_contra:
        out.append(
            _choice(
                form, "choice", "contra", _("Contra on the game"), form.contra_levels, default="0"
            )
        )
    bonus_fields = form.bonus_fields
    if bonus_fields:
        group = Widget(
            "group", "bonuses", _("Bonuses"), errors=form.errors.get("bonuses", []), css="bonuses"
        )
        for bonus in bonus_fields:
            row = Widget("group", f"{bonus.key}-row", bonus.label, css="bonus")
            if bonus.states:
                row.children.append(
                    _choice(form, "choice", bonus.key, bonus.label, bonus.states, css="states")
                )
            else:
                row.errors = form.errors.get(bonus.key, [])
            if bonus.takes_player:
                row.children.append(
                    _choice(form, "select", f"{bonus.key}-player", _("Player"), [("", "–"), *dealt])
                )
            if bonus.takes_contra:
                row.children.append(
                    _choice(
                        form,
                        "select",
                        f"{bonus.key}-contra",
                        _("Contra"),
                        form.contra_levels,
                        default="0",
                    )
                )
            for value, name in dealt if bonus.per_player else ():
                row.children.append(
                    _choice(form, "select", f"{bonus.key}-{value}", name, bonus.levels)
                )
            group.children.append(row)
        out.append(group)
    if form.contract.id == "adjustment":
        group = Widget(
            "group",
            "adjustments",
            labels.CONTRACTS["adjustment"].capitalize(),
            errors=form.errors.get("adjustments", []),
            css="per-player",
        )
        for value, name in dealt:
            group.children.append(_number_widget(form, f"adj-{value}", name, decimal=True))
        group.children.append(
            Widget(
                "text",
                "adj_reason",
                _("Reason"),
                value=form.values.get("adj_reason"),
                errors=form.errors.get("adj_reason", []),
            )
        )
        out.append(group)
    out.append(
        _choice(
            form,
            "select",
            "dealer",
            _("Dealer (when not the next in turn)"),
            [("", "–"), *seats],
            css="more",
        )
    )
    return out


# --- Counting cards (RULES.md §5): the cards are counted by rules.counting, never here ------

SUIT_SIGNS = {"hearts": "♥", "diamonds": "♦", "spades": "♠", "clubs": "♣"}
RED_SUITS = ("hearts", "diamonds")
ROMAN_OF = {n: roman for roman, n in counting.ROMAN.items()}


def suit_names() -> dict[str, str]:
    return {
        "hearts": _("Hearts"),
        "diamonds": _("Diamonds"),
        "spades": _("Spades"),
        "clubs": _("Clubs"),
    }


def card_label(card: str, family: str) -> str:
    """A short chip label: "I", "XXI", "Škis", "K♥", "Q♠", "7♣"."""
    kind, rank = card.rsplit("-", 1)
    if kind == "tarok":
        number = int(rank)
        if number == 22:
            return {"french": _("Excuse"), "zwanzigerrufen": "Sküs"}.get(family, "Škis")
        return ROMAN_OF[number]
    sign = SUIT_SIGNS[kind]
    short = {"king": "K", "queen": "Q", "cavall": "C", "jack": "J", "low": _("low") + " "}
    return short.get(rank, rank) + sign


@dataclass
class CardGroup:
    key: str
    label: str
    options: list[Option]
    red: bool = False


def count_cards(form: HandForm):
    """The engine's count of the ticked cards (None when none is ticked); an unknown or
    repeated card is the engine's problem at the "cards" field."""
    cards = [c for c in form.values.getlist("cards") if c]
    if not cards:
        return None
    try:
        return counting.count(form.variant.id, cards)
    except rules.RulesError as exc:
        for problem in exc.problems:
            form.error("cards", problem.message)
        return None


def use_card_count(form: HandForm):
    """Fill the card points (and, French, the oudlers) with the count of the ticked cards:
    the declarer's side's own pile, so the points are the declarer's side's."""
    counted = count_cards(form)
    if counted is None:
        if not form.errors.get("cards"):
            form.error("cards", _("Tick the cards the declarer's side took."))
        return None
    form.values.set("points", counted.points)
    form.values.set("points_side", DECLARER)
    if form.uses("oudlers"):
        form.values.set("oudlers", counted.oudlers)
    return counted


def count_summary(form: HandForm, counted) -> str:
    """ "43 points, trula complete, kings complete" or "45.5 points, oudlers 2"."""
    if counted is None:
        return ""
    family = form.variant.family
    parts = [_("%(points)s points") % {"points": _number_text(counted.points)}]
    if counted.trula and family != "french":
        word = "trull" if family == "zwanzigerrufen" else "trula"
        parts.append(_("%(trula)s complete") % {"trula": labels.BONUSES.get(word, word)})
    if counted.kings:
        parts.append(_("kings complete"))
    if family == "french":
        parts.append(_("oudlers %(count)d") % {"count": counted.oudlers})
    n = len(counted.cards)
    parts.append(_("%(n)d cards") % {"n": n})
    return ", ".join(parts)


def card_counter(form: HandForm) -> Widget | None:
    """The folded "Count cards" helper next to the card points: the family's deck as chips."""
    if not form.uses("points"):
        return None
    family = form.variant.family
    ticked = set(form.values.getlist("cards"))
    deck = counting.DECKS[family].cards()
    groups = [
        CardGroup(
            "taroks",
            _("Excuse and trumps") if family == "french" else _("Taroks"),
            [Option(c, card_label(c, family), c in ticked) for c in deck if c.startswith("tarok-")],
        )
    ]
    for suit, name in suit_names().items():
        groups.append(
            CardGroup(
                suit,
                f"{name} {SUIT_SIGNS[suit]}",
                [
                    Option(c, card_label(c, family), c in ticked)
                    for c in deck
                    if c.startswith(suit + "-")
                ],
                red=suit in RED_SUITS,
            )
        )
    counted = count_cards(form)
    errors = form.errors.get("cards", [])
    widget = Widget(
        "cards",
        "cards",
        _("Count cards"),
        errors=errors,
        value=count_summary(form, counted),
        help=_("Tap the cards the declarer's side took."),
        css="card-counter",
        open=bool(ticked) or bool(errors),
        groups=groups,
    )
    return widget
