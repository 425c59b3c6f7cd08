"""How the hand form reads and refills each kind of field (rules.fields): the field's own keys
(``Field.form``) to its value in the hand, and a stored hand's value back to those keys.

A kind is written by one class here, for every field of that kind, a game's own fields
included: nothing below names a field. Numbers stay ints and Decimals (the pipeline writes them
to JSON); the engine checks every value, this only turns text into values. What each of a
field's keys is, by its place in ``Field.form``, is said with each kind.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from rules.fields import (
    ADJUSTMENTS,
    BONUSES,
    BOOLEAN,
    BY_PLAYER,
    CONTRA,
    CONTRACT,
    DECLARATIONS,
    INTEGER,
    PLAYER,
    PLAYERS,
    POINTS,
    Field,
)
from rules.model import DECLARER, DEFENDERS
from scorebook.handform.bonuses import bonuses_of, refill_bonuses
from scorebook.handform.values import Values, item_key, seat_key

if TYPE_CHECKING:
    from scorebook.handform.mapping import HandForm

# An adjustment's reason is a line of the sheet: a short text, like a void reason.
MAX_REASON_LENGTH = 200
# A boolean's two chips.
YES, NO = "yes", "no"


class FormKind:
    """One kind of field on the form: its own key holds the value."""

    def asked(self, form: HandForm, field: Field) -> bool:
        """Whether the form asks this field for the chosen contract."""
        return form.uses_field(field)

    def write(self, form: HandForm, field: Field, data: dict[str, Any]) -> None:
        raise NotImplementedError

    def refill(
        self, values: Values, field: Field, hand: Mapping[str, Any], position: Mapping[str, str]
    ) -> None:
        if field.name in hand:
            values.set(field.home, hand[field.name])


class Table(FormKind):
    """Who is dealt in: the seat that sits out (its key), when the table has one more player
    than the game."""

    def asked(self, form, field):
        return form.needs_sitting_out

    def write(self, form, field, data):
        if not self.asked(form, field):
            return
        if not form.values.get(field.home):
            form.error(field.home, _("Choose who sits out this hand."))
        else:
            form.seat_name(field.home)
        data[field.name] = [s.name for s in form.dealt_seats]
        form.paths[field.name] = field.home

    def refill(self, values, field, hand, position):
        players = hand.get(field.name) or list(position)
        out = [name for name in position if name not in players]
        if out:
            values.set(field.home, position[out[0]])


class Contract(FormKind):
    """The contract: always asked, and read before anything else (HandForm.contract)."""

    def asked(self, form, field):
        return True

    def write(self, form, field, data):
        data[field.name] = form.contract.id

    def refill(self, values, field, hand, position):
        values.set(field.home, hand.get(field.name, ""))


class Player(FormKind):
    """A seated player, posted as his seat's position."""

    def write(self, form, field, data):
        if self.asked(form, field):
            name = form.seat_name(field.home)
            if name is not None:
                data[field.name] = name

    def refill(self, values, field, hand, position):
        if hand.get(field.name):
            values.set(field.home, position.get(hand[field.name], ""))


class Points(FormKind):
    """Card points, typed as the declarer's side's or (its second key ticked) the defenders'."""

    def write(self, form, field, data):
        if not self.asked(form, field):
            return
        points = form.number(field.home)
        if points is not None:
            if form.values.get(field.key(1)) == DEFENDERS:
                points = form.card_points - points
            data[field.name] = points

    def refill(self, values, field, hand, position):
        super().refill(values, field, hand, position)
        values.set(field.key(1), DECLARER)


class Whole(FormKind):
    """A whole number within the field's range, as chips."""

    def write(self, form, field, data):
        if self.asked(form, field):
            number = form.number(field.home, whole=True)
            if number is not None:
                data[field.name] = number


class YesNo(FormKind):
    """True or false, as two chips."""

    def write(self, form, field, data):
        if self.asked(form, field):
            answer = form.values.get(field.home)
            if answer in (YES, NO):
                data[field.name] = answer == YES


class GameContra(FormKind):
    """The contra on the game: its level (none: left out), where the rules take contras."""

    def asked(self, form, field):
        return form.takes_game_contra

    def write(self, form, field, data):
        if self.asked(form, field):
            level = form.number(field.home, whole=True)
            if level:
                data[field.name] = {"game": level}
            form.paths[field.name] = field.home

    def refill(self, values, field, hand, position):
        if field.name in hand:
            values.set(field.home, hand[field.name].get("game", 0))


class EachPlayer(FormKind):
    """A number for each player dealt in: its own key is the group, the second one key a seat.
    Its values are whole numbers or card points, as the field's ``values`` says."""

    def write(self, form, field, data):
        if not self.asked(form, field):
            return
        by_player = {}
        for seat in form.dealt_seats:
            key = seat_key(field.key(1), seat.position)
            number = form.number(key, whole=field.values is not POINTS)
            if number is not None:
                by_player[seat.name] = number
            form.paths[f"{field.name}.{seat.name}"] = key
        form.paths[field.name] = field.home
        if by_player or field.name in form.contract.required:
            data[field.name] = by_player

    def refill(self, values, field, hand, position):
        for name, number in (hand.get(field.name) or {}).items():
            values.set(seat_key(field.key(1), position.get(name, "")), number)

    def missing(self, form: HandForm, field: Field) -> list[str]:
        """The players dealt in whose number is left blank."""
        template = field.key(1)
        return [
            s.name for s in form.dealt_seats if not form.values.get(seat_key(template, s.position))
        ]


class Declarations(FormKind):
    """Who declared what: the second key, one per declaration, ticks the seats."""

    def write(self, form, field, data):
        if not self.asked(form, field):
            return
        declarations: list[dict[str, str]] = []
        for decl_id, _label in form.declarations:
            key = item_key(field.key(1), decl_id)
            for value in form.values.getlist(key):
                name = next((s.name for s in form.seats if s.value == value), None)
                if name is not None:
                    form.paths[f"{field.name}[{len(declarations)}]"] = key
                    declarations.append({"player": name, "name": decl_id})
        if declarations:
            data[field.name] = declarations

    def refill(self, values, field, hand, position):
        for declaration in hand.get(field.name, []):
            key = item_key(field.key(1), declaration["name"])
            values.add(key, position.get(declaration["player"], ""))


class Adjustments(FormKind):
    """An amount for each player dealt in (the second key, one a seat) and one reason for them
    all (the third)."""

    def write(self, form, field, data):
        if not self.asked(form, field):
            return
        adjustments = []
        reason = form.plain_text(field.key(2), MAX_REASON_LENGTH)
        for seat in form.dealt_seats:
            key = seat_key(field.key(1), seat.position)
            amount = form.amount(key)
            if amount:
                form.paths[f"{field.name}[{len(adjustments)}]"] = key
                item = {"player": seat.name, "amount": amount}
                if reason:
                    item["reason"] = reason
                adjustments.append(item)
        form.paths[field.name] = field.home
        data[field.name] = adjustments

    def refill(self, values, field, hand, position):
        for adjustment in hand.get(field.name, []):
            key = seat_key(field.key(1), position.get(adjustment["player"], ""))
            values.set(key, adjustment["amount"])
            if adjustment.get("reason"):
                values.set(field.key(2), adjustment["reason"])


class Bonuses(FormKind):
    """The bonuses of the chosen contract, each with keys of its own (the second key and those
    after it: scorebook.handform.bonuses)."""

    def write(self, form, field, data):
        bonuses = bonuses_of(form, field)
        if bonuses:
            data[field.name] = bonuses

    def refill(self, values, field, hand, position):
        refill_bonuses(values, field, hand.get(field.name, []), position)


# The form side of each kind; a field of a kind not here (the format, the rules, radelci held
# before a hand scored alone) is not on the form.
FORM_KINDS: dict[Any, FormKind] = {
    PLAYERS: Table(),
    CONTRACT: Contract(),
    PLAYER: Player(),
    POINTS: Points(),
    INTEGER: Whole(),
    BOOLEAN: YesNo(),
    CONTRA: GameContra(),
    BONUSES: Bonuses(),
    BY_PLAYER: EachPlayer(),
    DECLARATIONS: Declarations(),
    ADJUSTMENTS: Adjustments(),
}
