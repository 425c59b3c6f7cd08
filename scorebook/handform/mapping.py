"""The hand form: POSTed fields <-> the hand of HANDS.md, built from the engine's registry.

Nothing about a variant or a field is written here or in the templates: the contracts, the
fields each contract uses, the bonuses and their states, the contra levels and every label come
from ``rules`` (the variant, its ``Rules``, ``rules.fields`` and ``rules.labels``). A field's
keys and words are its own (``Field.form``), and each kind is read and refilled by
scorebook.handform.kinds. Seats are posted as their position (1, 2, …) so that a player's name
never has to survive being a form value or a field name.

The engine checks the hand; this module only turns text into values (ints and Decimals: the
pipeline writes the JSON). A problem the engine finds comes back with a JSON path (``points``,
``bonuses[1].contra``) that ``HandForm.add_problems`` puts next to the form field it concerns.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.utils.text import capfirst
from django.utils.translation import gettext as _

import rules
from rules import labels
from rules.fields import (
    ASKED,
    ASKED_LAST,
    BONUSES,
    BY_PLAYER,
    CONTRA,
    CONTRACT,
    DECLARATIONS,
    PLAYERS,
    WRITTEN,
    Field,
    field_of_kind,
    fields_of,
    in_order,
)
from rules.items import multiplier
from rules.model import DECLARER, DEFENDERS
from rules.variant import ADJUSTMENT
from rules.words import Say
from scorebook import textinput
from scorebook.handform.bonuses import BonusField, bonus_fields
from scorebook.handform.kinds import FORM_KINDS
from scorebook.handform.values import Values

TOP = "__all__"
# The card counter's key: no field's, the points are filled from it (handform.counter).
CARDS = "cards"
# The role of a declarer who plays without a partner (Variant.role_words).
ALONE = "alone"


def contra_choices(variant, max_level: int) -> list[tuple[int, str]]:
    words = variant.contra_words
    out = [(0, _("none"))]
    for level in range(1, max_level + 1):
        out.append((level, f"{words[level]} ×{multiplier(level)}"))
    return out


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
        self.fields = fields_of(self.variant)
        self.seats = [Seat(i, name) for i, name in enumerate(seat_names, start=1)]
        self.values = values if values is not None else Values()
        self.errors: dict[str, list[str]] = {}
        # JSON path -> form key, filled while the hand is written (each item of a list and
        # each player of a map where its problem goes).
        self.paths: dict[str, str] = {}

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
        chosen = self.values.get(field_of_kind(CONTRACT, self.fields).home)
        return chosen if chosen in self.rules.contracts else self.default_contract

    @property
    def contract(self):
        return self.rules.contracts[self.contract_id]

    def uses(self, name: str) -> bool:
        return name in self.contract.fields

    def uses_field(self, field: Field) -> bool:
        """Whether the chosen contract has the field, or its game lets every row carry it
        and the form asks it on every row (the dealer, the bonuses)."""
        return self.uses(field.name) or (field.every_row and field.name in self.variant.hand_fields)

    def asks(self, field: Field) -> bool:
        """Whether the form shows the field for the chosen contract (its kind says)."""
        kind = FORM_KINDS.get(field.kind)
        return bool(field.form) and kind is not None and kind.asked(self, field)

    @property
    def is_adjustment(self) -> bool:
        """The hand is a correction of the sheet (an amount for each player), not a deal."""
        return self.contract.id == ADJUSTMENT.id

    @property
    def needs_sitting_out(self) -> bool:
        return len(self.seats) not in self.variant.player_counts

    @property
    def dealt_seats(self) -> list[Seat]:
        if not self.needs_sitting_out:
            return self.seats
        out = self.values.get(field_of_kind(PLAYERS, self.fields).home)
        return [s for s in self.seats if s.value != out]

    @property
    def contra_levels(self) -> list[tuple[int, str]]:
        return contra_choices(self.variant, self.rules.max_contra)

    @property
    def takes_game_contra(self) -> bool:
        return self.uses_field(field_of_kind(CONTRA, self.fields)) and self.rules.max_contra > 0

    @property
    def bonus_fields(self) -> list[BonusField]:
        return bonus_fields(self, field_of_kind(BONUSES, self.fields))

    @property
    def declarations(self) -> list[tuple[str, str]]:
        declarations = field_of_kind(DECLARATIONS, self.fields)
        return list(labels.DECLARATIONS.items()) if self.uses_field(declarations) else []

    @property
    def half_points(self) -> bool:
        return self.variant.half_points

    @property
    def card_points(self) -> int:
        return self.variant.card_points

    def asked_fields(self) -> list[Field]:
        """The fields the form shows, in the order a hand is told at the table."""
        return [f for f in in_order(ASKED, self.variant, ASKED_LAST) if self.asks(f)]

    def opening_values(self, played: int) -> Values:
        """The values a new hand's form opens with, `played` hands into the session: the
        first contract, no contra, and the seat whose turn it is to sit out."""
        self.values.set(field_of_kind(CONTRACT, self.fields).home, self.default_contract)
        self.values.set(field_of_kind(CONTRA, self.fields).home, 0)
        if self.needs_sitting_out:
            # The seats sit out in turn; the scorekeeper changes it with one tap when it differs.
            table = field_of_kind(PLAYERS, self.fields)
            self.values.set(table.home, self.seats[played % len(self.seats)].value)
        return self.values

    # -- form -> hand --------------------------------------------------------------------

    def error(self, key: str, message: str) -> None:
        messages = self.errors.setdefault(key, [])
        if message not in messages:
            messages.append(message)

    def seat_name(self, key: str) -> str | None:
        value = self.values.get(key)
        if not value:
            return None
        for seat in self.seats:
            if seat.value == value:
                return seat.name
        self.error(key, _("Choose one of the seated players."))
        return None

    def number(self, key: str, *, whole: bool = False) -> int | Decimal | None:
        """The number typed at `key` (textinput.number), or None with the problem at the field."""
        try:
            return textinput.number(self.values.get(key), whole=whole)
        except textinput.InputError as exc:
            self.error(key, exc.message)
            return None

    def amount(self, key: str) -> int | Decimal | None:
        try:
            return textinput.amount(self.values.get(key))
        except textinput.InputError as exc:
            self.error(key, exc.message)
            return None

    def plain_text(self, key: str, max_length: int) -> str:
        """The one-line text typed at `key`, or "" with the problem at the field."""
        try:
            return textinput.check_text(self.values.get(key), max_length=max_length)
        except textinput.InputError as exc:
            self.error(key, exc.message)
            return ""

    def hand_data(self) -> dict[str, Any]:
        """The hand's own fields (HANDS.md) from the posted values, each written by its kind
        in the order a stored hand has always listed them; `errors` holds what could not even
        be read. The session's variant, rules and players are added by the pipeline."""
        self.paths = {}
        chosen = self.values.get(field_of_kind(CONTRACT, self.fields).home)
        if chosen and chosen not in self.rules.contracts:
            self.error(
                field_of_kind(CONTRACT, self.fields).home, _("Choose one of the listed contracts.")
            )
        data: dict[str, Any] = {}
        for field in in_order(WRITTEN, self.variant):
            kind = FORM_KINDS.get(field.kind)
            if kind is not None and field.form:
                kind.write(self, field, data)
        return data

    # -- the engine's problems at their fields ---------------------------------------------

    def _field_of(self, path: str) -> str:
        """The form key a problem at `path` goes to: the one that wrote it, else its field's
        own key, else the top of the form."""
        if path in self.paths:
            return self.paths[path]
        # The longest known prefix: bonuses[1].side -> the bonus, points_by_player.Ana -> …
        parts = re.split(r"(?=[.\[])", path)
        while parts:
            prefix = "".join(parts)
            if prefix in self.paths:
                return self.paths[prefix]
            parts.pop()
        field = self.fields.get(re.split(r"[.\[]", path, maxsplit=1)[0])
        return field.home if field is not None and field.form else TOP

    def _field_at(self, key: str) -> Field | None:
        """The field whose own key `key` is."""
        return next((f for f in self.fields.values() if f.form and f.home == key), None)

    def _placed(self, problem) -> tuple[str, str]:
        """The form field of an engine problem and the problem in the form's words."""
        key = self._field_of(problem.path)
        words = problem.message
        field = self._field_at(key)
        if problem.code == "missing":
            words = _("required")
        elif problem.code == "not-every-player" and field is not None and field.kind is BY_PLAYER:
            missing = FORM_KINDS[BY_PLAYER].missing(self, field)
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

    def role(self, field: Field) -> str:
        """The game's word for the role a field names: declarer, partner (French: taker, …);
        a declarer whose contract has no partner is the one who plays alone (German
        "Alleinspieler")."""
        if field.alone and not any(
            other.unlike == field.name and self.uses(other.name) for other in self.fields.values()
        ):
            return self.variant.role_words[ALONE]
        return self.variant.role_words[field.name]

    def label_of(self, key: str) -> str:
        """The label the form shows at the field `key`; "" for a key it does not know."""
        if key == CARDS:
            return _("Count cards")
        for field in self.fields.values():
            for template, words in field.form.items():
                found = self._match(field, template, key)
                if found is not None:
                    label = self._words(field, words, *found)
                    return capfirst(label) if template == field.home else label
        return ""

    def _match(self, field: Field, template: str, key: str) -> tuple[str, str] | None:
        """(the seat's name, the bonus's or declaration's id) where `key` is one of the keys
        `template` (one of `field`'s) stands for; None where it is not."""
        if "{" not in template:
            return ("", "") if key == template else None
        pattern = re.escape(template).replace(r"\{seat\}", r"(?P<seat>\d+)")
        pattern = pattern.replace(r"\{id\}", r"(?P<id>.+?)")
        match = re.fullmatch(pattern, key)
        if match is None:
            return None
        groups = match.groupdict()
        item = groups.get("id") or ""
        if "id" in groups and item not in self._items(field):
            return None
        seat = groups.get("seat")
        name = next((s.name for s in self.seats if s.value == seat), seat) if seat else ""
        return name, item

    def _items(self, field: Field) -> Mapping[str, Any]:
        """What a key's "{id}" may be: a bonus of the game, or a declaration."""
        if field.kind is BONUSES:
            return self.variant.bonus_specs
        return labels.DECLARATIONS if field.kind is DECLARATIONS else {}

    def _words(self, field: Field, words: str | None, name: str, item: str) -> str:
        """A key's words (an id of the engine's glossary, or a game's own text), said with
        the seat's player, the bonus, the sides and the deck's card points; the game's own
        word where the field has none (a role, a bonus, a declaration)."""
        bonus = self.variant.bonus_specs.get(item) if field.kind is BONUSES else None
        if words is None:
            if bonus is not None:
                return capfirst(bonus.label)
            if item:
                return str(labels.DECLARATIONS[item])
            return capfirst(self.role(field))
        sides = self.variant.side_words
        return Say(
            words,
            declarers=sides[DECLARER],
            defenders=sides[DEFENDERS],
            total=self.card_points,
            name=name,
            bonus=capfirst(bonus.label) if bonus is not None else "",
        ).text()

    def short_label(self, key: str) -> str:
        """The field's label where a problem names it, shortened where the form's is long."""
        field = self._field_at(key)
        if field is not None and field.short:
            return Say(field.short).text()
        return self.label_of(key)

    # -- hand -> form --------------------------------------------------------------------

    @classmethod
    def values_from_hand(cls, session, seat_names: list[str], hand: Mapping[str, Any]) -> Values:
        """The form values that give back `hand` (a stored hand, for editing)."""
        position = {name: str(i) for i, name in enumerate(seat_names, start=1)}
        values = Values()
        for field in fields_of(rules.get_variant(session.variant)).values():
            kind = FORM_KINDS.get(field.kind)
            if kind is not None and field.form:
                kind.refill(values, field, hand, position)
        return values
