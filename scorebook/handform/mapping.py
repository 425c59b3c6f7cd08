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

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

import rules
from rules import labels
from rules.fields import FIELDS
from rules.items import multiplier
from rules.model import DECLARER, DEFENDERS
from scorebook import textinput
from scorebook.handform.values import Values, json_number

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

# The form fields named as the engine names a hand's single-valued field (rules.fields); the
# rest are mapped in `_field_of`.
DIRECT_FIELDS = frozenset(name for name, spec in FIELDS.items() if spec.single) - {
    "format",
    "variant",
}
TOP = "__all__"
# An adjustment's reason is a line of the sheet: a short text, like a void reason.
MAX_REASON_LENGTH = 200


def state_labels(variant, *, announce: bool = True) -> dict[str, str]:
    """The words of a bonus's chips. A bonus nobody announces is made by one side or the
    other, so its chips name the side in the game's words (French petit au bout: attack,
    defence)."""
    side = variant.side_words
    words = {
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
    if not announce:
        words[SILENT] = side[DECLARER]
        words[SILENT_DEFENDERS] = side[DEFENDERS]
    return words


def contra_choices(variant, max_level: int) -> list[tuple[int, str]]:
    words = variant.contra_words
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
        return [(c.id, self.variant.contract_label(c.id)) for c in self.rules.contracts.values()]

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
    def is_adjustment(self) -> bool:
        """The hand is a correction of the sheet (an amount for each player), not a deal."""
        return self.contract.id == "adjustment"

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
                words = state_labels(self.variant, announce=spec.announce)
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
        if self.is_adjustment:
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

    def _placed(self, problem) -> tuple[str, str]:
        """The form field of an engine problem and the problem in the form's words."""
        key = self._field_of(problem.path)
        words = problem.message
        if problem.code == "missing":
            words = _("required")
        elif problem.code == "not-every-player" and key in ("pbp", "tricks"):
            missing = [
                s.name for s in self.dealt_seats if not self.values.get(f"{key}-{s.position}")
            ]
            if missing:
                words = _("required for %(players)s") % {"players": ", ".join(missing)}
        return key, words

    def add_problems(self, problems) -> None:
        for problem in problems:
            self.error(*self._placed(problem))

    def described(self, problems) -> list[str]:
        """The engine's problems as the top of the form lists them: each names its field by
        the label the user sees ("Points: required"), none by its JSON path."""
        return [self.named(*self._placed(problem)) for problem in problems]

    def named(self, key: str, message: str) -> str:
        label = self.short_label(key)
        return f"{label}: {message}" if label else message

    @property
    def top_errors(self) -> list[str]:
        return self.errors.get(TOP, [])

    @property
    def problem_list(self) -> list[str]:
        """Every problem of the form, each naming its field by its label."""
        return [self.named(key, m) for key, messages in self.errors.items() for m in messages]

    # -- the words of the fields --------------------------------------------------------

    def role(self, key: str) -> str:
        """The game's word for a role: declarer, partner, defenders (French: taker, …); the
        declarer of a contract without a partner is the one who plays alone (German
        "Alleinspieler")."""
        if key == "declarer" and not self.uses("partner"):
            key = "alone"
        return self.variant.role_words[key]

    def label_of(self, key: str) -> str:
        """The label the form shows at the field `key`; "" for a key it does not know."""
        sides = self.variant.side_words
        fixed = {
            "contract": _("Contract"),
            "sits_out": _("Sits out"),
            "declarer": capfirst(self.role("declarer")),
            "partner": capfirst(self.role("partner")),
            "announcer": _("Announced"),
            "points": _("Card points of the %(side)s (of %(total)d)")
            % {"side": sides[DECLARER], "total": self.card_points},
            "oudlers": _("Oudlers"),
            "made": capfirst(labels.word("made")),
            "level": capfirst(labels.word("level")),
            "contra": _("Contra on the game"),
            "pbp": _("Card points of each player"),
            "tricks": _("Tricks of each player (optional)"),
            "declarations": _("Declarations"),
            "bonuses": _("Bonuses"),
            "adjustments": capfirst(self.variant.contract_label("adjustment")),
            "adj_reason": _("Reason"),
            "dealer": _("Dealer (when not the next in turn)"),
            "cards": _("Count cards"),
        }
        if key in fixed:
            return fixed[key]
        seat = re.fullmatch(r"(pbp|tricks|adj)-(\d+)", key)
        if seat:
            name = next((s.name for s in self.seats if s.value == seat[2]), seat[2])
            what = {
                "pbp": _("Card points of %(name)s"),
                "tricks": _("Tricks of %(name)s"),
                "adj": _("Adjustment for %(name)s"),
            }[seat[1]]
            return what % {"name": name}
        if key.startswith("decl-"):
            return labels.DECLARATIONS.get(key[5:], "")
        for bonus_id, spec in self.variant.bonus_specs.items():
            head = f"bonus-{bonus_id}"
            if key == head:
                return capfirst(spec.label)
            if key == f"{head}-contra":
                return _("%(bonus)s, contra") % {"bonus": capfirst(spec.label)}
            if key == f"{head}-player":
                return _("%(bonus)s, player") % {"bonus": capfirst(spec.label)}
            seat = re.fullmatch(re.escape(head) + r"-(\d+)", key)
            if seat:
                name = next((s.name for s in self.seats if s.value == seat[1]), seat[1])
                return _("%(bonus)s of %(name)s") % {"bonus": capfirst(spec.label), "name": name}
        return ""

    def short_label(self, key: str) -> str:
        """The field's label where a problem names it, shortened where the form's is long."""
        short = {
            "points": pgettext("card points", "Points"),
            "dealer": _("Dealer"),
            "tricks": _("Tricks of each player"),
        }
        return short.get(key) or self.label_of(key)

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
