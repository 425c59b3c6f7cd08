"""The controls of the hand form, in the order a hand is told at the table: one builder per
kind of field (rules.fields), for every field of that kind, a game's own included."""

from __future__ import annotations

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
    field_of_kind,
    field_range,
)
from rules.model import DEFENDERS
from rules.words import Say
from scorebook import textinput
from scorebook.handform.controls import Option, Widget
from scorebook.handform.counter import card_counter
from scorebook.handform.kinds import NO, YES
from scorebook.handform.mapping import HandForm
from scorebook.handform.values import item_key, seat_key


def _choice(form: HandForm, kind: str, name: str, label: str, options, *, default="", **kw):
    current = form.values.getlist(name) if kind == "checks" else [form.values.get(name, default)]
    opts = [Option(str(v), str(lbl), str(v) in current) for v, lbl in options]
    return Widget(kind, name, label, opts, errors=form.errors.get(name, []), **kw)


def _number_widget(form: HandForm, name: str, label: str, *, decimal: bool = False, **kw):
    """A number as typed: "40,5" or "40.5" (textinput reads both); its value is what was typed,
    or a stored hand's number unlocalised ("40.5")."""
    return Widget(
        "number",
        name,
        label,
        value=form.values.get(name),
        errors=form.errors.get(name, []),
        inputmode="decimal" if decimal else "numeric",
        pattern=textinput.DECIMAL_PATTERN if decimal else textinput.WHOLE_PATTERN,
        **kw,
    )


def redraw_widgets(form: HandForm) -> list[Widget]:
    """The controls that change which fields the form shows: the contract and who sits out."""
    contract = field_of_kind(CONTRACT, form.fields).home
    out = [
        _choice(
            form,
            "choice",
            contract,
            form.label_of(contract),
            form.contracts,
            default=form.default_contract,
            css="contracts",
        )
    ]
    table = field_of_kind(PLAYERS, form.fields)
    if form.asks(table):
        seats = [(s.value, s.name) for s in form.seats]
        label = form.label_of(table.home)
        out.append(_choice(form, "choice", table.home, label, seats, css="seats"))
    return out


def widgets(form: HandForm) -> list[Widget]:
    """The controls of the chosen contract, in the order a hand is told at the table."""
    dealt = [(s.value, s.name) for s in form.dealt_seats]
    out: list[Widget] = []
    for field in form.asked_fields():
        out += WIDGETS[field.kind](form, field, dealt)
    return out


def _player(form: HandForm, field: Field, dealt) -> list[Widget]:
    """A seated player: a chip for each player dealt in (and one for nobody, where the field
    may name nobody); one told only when it is not the usual, in a select of every seat."""
    label = form.label_of(field.home)
    if field.more:
        seats = [(s.value, s.name) for s in form.seats]
        return [_choice(form, "select", field.home, label, [("", "–"), *seats], css="more")]
    options = [("", Say(field.nobody).text()), *dealt] if field.nobody else dealt
    return [_choice(form, "choice", field.home, label, options, css="seats")]


def _points(form: HandForm, field: Field, dealt) -> list[Widget]:
    """The card points of the declarer's side (or, ticked, the defenders'), with the counter."""
    points = _number_widget(form, field.home, form.label_of(field.home), decimal=form.half_points)
    side = field.key(1)
    points.children.append(
        Widget(
            "check",
            side,
            form.label_of(side),
            [Option(DEFENDERS, "", form.values.get(side) == DEFENDERS)],
        )
    )
    counter = card_counter(form)
    return [points] if counter is None else [points, counter]


def _whole(form: HandForm, field: Field, dealt) -> list[Widget]:
    """Each whole number the engine accepts for the field, as chips."""
    low, high = field_range(field.name, form.variant, form.rules)
    numbers = [(n, n) for n in range(low, high + 1)]
    return [_choice(form, "choice", field.home, form.label_of(field.home), numbers)]


def _yes_no(form: HandForm, field: Field, dealt) -> list[Widget]:
    label = form.label_of(field.home)
    return [_choice(form, "choice", field.home, label, [(YES, _("yes")), (NO, _("no"))])]


def _each_player(form: HandForm, field: Field, dealt) -> list[Widget]:
    """A number for each player dealt in: card points, tricks, a game's own count."""
    label = form.label_of(field.home)
    errors = form.errors.get(field.home, [])
    group = Widget("group", field.home, label, errors=errors, css="per-player")
    decimal = form.half_points and field.values is POINTS
    for value, name in dealt:
        key = seat_key(field.key(1), value)
        group.children.append(_number_widget(form, key, name, decimal=decimal))
    return [group]


def _declarations(form: HandForm, field: Field, dealt) -> list[Widget]:
    if not form.declarations:
        return []
    group = Widget(
        "fold",
        field.home,
        form.label_of(field.home),
        errors=form.errors.get(field.home, []),
    )
    for decl_id, label in form.declarations:
        key = item_key(field.key(1), decl_id)
        group.children.append(_choice(form, "checks", key, label, dealt, css="seats"))
    # Open whenever the contract takes them (issue 26: folded, they were missed); a contract
    # that takes none shows none (form.declarations is empty).
    group.open = True
    return [group]


def _game_contra(form: HandForm, field: Field, dealt) -> list[Widget]:
    label = form.label_of(field.home)
    return [_choice(form, "choice", field.home, label, form.contra_levels, default="0")]


def _bonuses(form: HandForm, field: Field, dealt) -> list[Widget]:
    bonus_fields = form.bonus_fields
    if not bonus_fields:
        return []
    group = Widget(
        "group",
        field.home,
        form.label_of(field.home),
        errors=form.errors.get(field.home, []),
        css=field.home,  # the stylesheet's class for the bonuses' rows is the field's key
    )
    group.children = [_bonus(form, bonus, dealt) for bonus in bonus_fields]
    return [group]


def _bonus(form: HandForm, bonus, dealt) -> Widget:
    """One bonus: its state chips, who (a player's bonus), its contra, or each player's level."""
    row = Widget("group", f"{bonus.key}-row", bonus.label, css="bonus")
    if bonus.states:
        states = _choice(form, "choice", bonus.key, bonus.label, bonus.states, css="states")
        for option in states.options:
            if option.value == "":  # the chip "–"
                option.name = _("no bonus")
        row.children.append(states)
    else:
        row.errors = form.errors.get(bonus.key, [])
    if bonus.takes_player:
        row.children.append(
            _choice(form, "select", bonus.player_key, _("Player"), [("", "–"), *dealt])
        )
    if bonus.takes_contra:
        row.children.append(
            _choice(
                form,
                "select",
                bonus.contra_key,
                _("Contra"),
                form.contra_levels,
                default="0",
                aria_label=_("Contra on %(bonus)s") % {"bonus": bonus.label},
            )
        )
    for value, name in dealt if bonus.per_player else ():
        row.children.append(_choice(form, "select", bonus.seat_key(value), name, bonus.levels))
    return row


def _adjustments(form: HandForm, field: Field, dealt) -> list[Widget]:
    """An adjustment: an amount for each player dealt in, and the reason."""
    group = Widget(
        "group",
        field.home,
        form.label_of(field.home),
        errors=form.errors.get(field.home, []),
        css="per-player",
    )
    for value, name in dealt:
        key = seat_key(field.key(1), value)
        group.children.append(_number_widget(form, key, name, decimal=True, signed=True))
    reason = field.key(2)
    group.children.append(
        Widget(
            "text",
            reason,
            form.label_of(reason),
            value=form.values.get(reason),
            errors=form.errors.get(reason, []),
        )
    )
    return [group]


# The controls of each kind the form asks (HandForm.asked_fields); the contract and the seat
# that sits out are drawn above them (redraw_widgets).
WIDGETS = {
    PLAYER: _player,
    POINTS: _points,
    INTEGER: _whole,
    BOOLEAN: _yes_no,
    BY_PLAYER: _each_player,
    DECLARATIONS: _declarations,
    CONTRA: _game_contra,
    BONUSES: _bonuses,
    ADJUSTMENTS: _adjustments,
}
