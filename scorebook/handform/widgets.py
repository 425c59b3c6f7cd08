"""The controls of the hand form, in the order a hand is told at the table: one builder per
kind of field (rules.fields), for every field of that kind, a game's own included."""

from __future__ import annotations

import html

from django.utils.safestring import SafeString, mark_safe
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
    return _drawn(out)


def widgets(form: HandForm) -> list[Widget]:
    """The controls of the chosen contract, in the order a hand is told at the table."""
    dealt = [(s.value, s.name) for s in form.dealt_seats]
    out: list[Widget] = []
    for field in form.asked_fields():
        out += WIDGETS[field.kind](form, field, dealt)
    return _drawn(out)


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


# --- The controls as HTML -------------------------------------------------------------------
# Written in Python, as the sheet's rows are (sheet_rows.py): the form draws some thirty
# controls, and through a template each cost an include and its gettext calls (issue 25). The
# HTML is the one templates/scorebook/_hand_widget.html drew, byte for byte (whitespace
# included: tests/scorebook/test_same_html.py); the card counter is still its template's.

SIGN_OF = "Change the sign of %(name)s's amount"


def _e(value) -> str:
    """conditional_escape without its checks for lazy arguments, which a form's thousand
    escapes spent more time in than in escaping: the same HTML."""
    if hasattr(value, "__html__"):
        return value.__html__()
    return html.escape(str(value))


def _html(template: str, *args) -> SafeString:
    """format_html, by _e."""
    return SafeString(template.format(*(_e(arg) for arg in args)))


def _join(template: str, rows) -> SafeString:
    return SafeString("".join(_html(template, *row) for row in rows))


def _errors(widget: Widget) -> str:
    if not widget.errors:
        return ""
    items = _join("<li>{}</li>", ((e,) for e in widget.errors))
    return _html('<ul class="errorlist" id="{}_error">{}</ul>', widget.id, items)


def _invalid(widget: Widget) -> str:
    if not widget.errors:
        return ""
    return _html(' aria-invalid="true" aria-describedby="{}_error"', widget.id)


def _chip(widget: Widget, counter: int, option: Option) -> str:
    kind = "checkbox" if widget.kind == "checks" else "radio"
    checked = " checked" if option.checked else ""
    label = (
        _html(
            '<span aria-hidden="true">{}</span><span class="visually-hidden">{}</span>',
            option.label,
            option.name,
        )
        if option.name
        else SafeString(_e(option.label))
    )
    return _html(
        '\n      <input type="{}" name="{}" id="{}_{}" value="{}"{}>'
        '\n      <label for="{}_{}">{}</label>\n    ',
        kind,
        widget.name,
        widget.id,
        counter,
        option.value,
        checked,
        widget.id,
        counter,
        label,
    )


def _chips_html(widget: Widget) -> str:
    chips = "".join(_chip(widget, n, option) for n, option in enumerate(widget.options, 1))
    return _html(
        '\n  <fieldset class="chips {}" id="{}"{}>\n    <legend>{}</legend>\n    {}\n    {}'
        "\n  </fieldset>\n",
        widget.css,
        widget.id,
        _invalid(widget),
        widget.label,
        mark_safe(chips),
        _errors(widget),
    )


def _select_html(widget: Widget) -> str:
    options = _join(
        '<option value="{}"{}>{}</option>',
        ((o.value, " selected" if o.checked else "", o.label) for o in widget.options),
    )
    aria = _html(' aria-label="{}"', widget.aria_label) if widget.aria_label else ""
    return _html(
        '\n  <label class="select {}" for="{}">{}\n    <select name="{}" id="{}"{}{}>'
        "\n      {}\n    </select>\n  </label>\n  {}\n",
        widget.css,
        widget.id,
        widget.label,
        widget.name,
        widget.id,
        aria,
        _invalid(widget),
        options,
        _errors(widget),
    )


def _switch(child: Widget) -> str:
    option = child.options[0]
    return _html(
        '\n      <label class="check" for="{}"><input type="checkbox" role="switch" name="{}" '
        'id="{}" value="{}"{}> {}</label>\n    ',
        child.id,
        child.name,
        child.id,
        option.value,
        " checked" if option.checked else "",
        child.label,
    )


def _sign(widget: Widget) -> str:
    """The ± button of a number that may be negative (static/scorebook/hand_form.js shows it)."""
    if not widget.signed:
        return ""
    name = mark_safe(_(SIGN_OF) % {"name": _e(widget.label)})  # noqa: S308
    return _html(
        '\n      <button type="button" class="secondary outline sign" data-sign-of="{}" '
        'aria-label="{}" hidden>±</button>\n    </div>',
        widget.id,
        name,
    )


def _number_html(widget: Widget) -> str:
    keypad = (
        _html(' inputmode="{}" pattern="{}" autocomplete="off"', widget.inputmode, widget.pattern)
        if widget.inputmode
        else ""
    )
    return _html(
        '\n  <div class="field {}">\n    <label for="{}">{}</label>\n    {}'
        '\n    <input type="text" name="{}" id="{}" value="{}"{}{}>\n    {}\n    {}\n    {}'
        "\n  </div>\n",
        widget.css,
        widget.id,
        widget.label,
        mark_safe('<div class="signed">') if widget.signed else "",
        widget.name,
        widget.id,
        widget.value,
        keypad,
        _invalid(widget),
        mark_safe(_sign(widget)),
        mark_safe("".join(_switch(child) for child in widget.children)),
        _errors(widget),
    )


def _group_html(widget: Widget) -> str:
    if widget.kind == "fold":
        opening = _html(
            '\n  <details class="group fold {}" id="{}"{}>\n    <summary>{}</summary>',
            widget.css,
            widget.id,
            " open" if widget.open else "",
            widget.label,
        )
    else:
        opening = _html(
            '\n  <fieldset class="group {}" id="{}"{}>\n    <legend>{}</legend>',
            widget.css,
            widget.id,
            _invalid(widget),
            widget.label,
        )
    closing = "details" if widget.kind == "fold" else "fieldset"
    return _html(
        "{}\n    {}\n    {}\n  </{}>\n",
        opening,
        _errors(widget),
        mark_safe("".join(drawn(child) for child in widget.children)),
        closing,
    )


DRAWN = {
    "choice": _chips_html,
    "checks": _chips_html,
    "select": _select_html,
    "number": _number_html,
    "text": _number_html,
    "group": _group_html,
    "fold": _group_html,
}


def drawn(widget: Widget) -> str:
    """The control as the hand form shows it ("" for the card counter: its template draws
    it, _hand_widget.html)."""
    draw = DRAWN.get(widget.kind)
    return "" if draw is None else mark_safe(f"\n{draw(widget)}\n")  # noqa: S308


def _drawn(out: list[Widget]) -> list[Widget]:
    for widget in out:
        widget.html = drawn(widget)
    return out
