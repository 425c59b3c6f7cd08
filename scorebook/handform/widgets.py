"""The controls of the hand form, in the order a hand is told at the table."""

from __future__ import annotations

from django.utils.translation import gettext as _

from rules.fields import field_range
from rules.model import DEFENDERS
from scorebook import textinput
from scorebook.handform.controls import Option, Widget
from scorebook.handform.counter import card_counter
from scorebook.handform.mapping import HandForm


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
    out = [
        _choice(
            form,
            "choice",
            "contract",
            form.label_of("contract"),
            form.contracts,
            default=form.default_contract,
            css="contracts",
        )
    ]
    if form.needs_sitting_out:
        seats = [(s.value, s.name) for s in form.seats]
        out.append(
            _choice(form, "choice", "sits_out", form.label_of("sits_out"), seats, css="seats")
        )
    return out


def widgets(form: HandForm) -> list[Widget]:
    """The controls of the chosen contract, in the order a hand is told at the table."""
    dealt = [(s.value, s.name) for s in form.dealt_seats]
    out: list[Widget] = []
    for part in (
        _players,
        _points,
        _outcome,
        _per_player,
        _declarations,
        _game_contra,
        _bonuses,
        _adjustments,
    ):
        out += part(form, dealt)
    out.append(_dealer(form))
    return out


def _players(form: HandForm, dealt) -> list[Widget]:
    """Who plays: the declarer, the partner (or alone), who announced (or nobody)."""
    out = []
    for key, nobody in (("declarer", None), ("partner", _("alone")), ("announcer", _("nobody"))):
        if form.uses(key):
            label = form.label_of(key)
            options = dealt if nobody is None else [("", nobody), *dealt]
            out.append(_choice(form, "choice", key, label, options, css="seats"))
    return out


def _points(form: HandForm, dealt) -> list[Widget]:
    """The card points of the declarer's side (or, ticked, the defenders'), with the counter."""
    if not form.uses("points"):
        return []
    points = _number_widget(form, "points", form.label_of("points"), decimal=form.half_points)
    points.children.append(
        Widget(
            "check",
            "points_side",
            _("these are the points of the %(side)s")
            % {"side": form.variant.side_words[DEFENDERS]},
            [Option(DEFENDERS, "", form.values.get("points_side") == DEFENDERS)],
        )
    )
    counter = card_counter(form)
    return [points] if counter is None else [points, counter]


def _outcome(form: HandForm, dealt) -> list[Widget]:
    """What the contract counts besides the points: oudlers, made or not, the level."""
    out = []
    if form.uses("oudlers"):
        out.append(
            _choice(form, "choice", "oudlers", form.label_of("oudlers"), _range(form, "oudlers"))
        )
    if form.uses("made"):
        label = form.label_of("made")
        out.append(_choice(form, "choice", "made", label, [("yes", _("yes")), ("no", _("no"))]))
    if form.uses("level"):
        label = form.label_of("level")
        out.append(_choice(form, "choice", "level", label, _range(form, "level")))
    return out


def _range(form: HandForm, name: str) -> list[tuple[int, int]]:
    """Each whole number the engine accepts for the field, as chips."""
    low, high = field_range(name, form.variant, form.rules)
    return [(n, n) for n in range(low, high + 1)]


def _per_player(form: HandForm, dealt) -> list[Widget]:
    """A number for each player dealt in: card points, tricks."""
    out = []
    for key, prefix, label, decimal in (
        ("points_by_player", "pbp", form.label_of("pbp"), form.half_points),
        ("tricks_by_player", "tricks", form.label_of("tricks"), False),
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
    return out


def _declarations(form: HandForm, dealt) -> list[Widget]:
    if not form.declarations:
        return []
    group = Widget(
        "fold",
        "declarations",
        form.label_of("declarations"),
        errors=form.errors.get("declarations", []),
    )
    for decl_id, label in form.declarations:
        group.children.append(_choice(form, "checks", f"decl-{decl_id}", label, dealt, css="seats"))
    # Open whenever the contract takes them (issue 26: folded, they were missed); a contract
    # that takes none shows none (form.declarations is empty).
    group.open = True
    return [group]


def _game_contra(form: HandForm, dealt) -> list[Widget]:
    if not form.takes_game_contra:
        return []
    label = form.label_of("contra")
    return [_choice(form, "choice", "contra", label, form.contra_levels, default="0")]


def _bonuses(form: HandForm, dealt) -> list[Widget]:
    bonus_fields = form.bonus_fields
    if not bonus_fields:
        return []
    group = Widget(
        "group",
        "bonuses",
        form.label_of("bonuses"),
        errors=form.errors.get("bonuses", []),
        css="bonuses",
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
                aria_label=_("Contra on %(bonus)s") % {"bonus": bonus.label},
            )
        )
    for value, name in dealt if bonus.per_player else ():
        row.children.append(_choice(form, "select", f"{bonus.key}-{value}", name, bonus.levels))
    return row


def _adjustments(form: HandForm, dealt) -> list[Widget]:
    """An adjustment: an amount for each player dealt in, and the reason."""
    if not form.is_adjustment:
        return []
    group = Widget(
        "group",
        "adjustments",
        form.label_of("adjustments"),
        errors=form.errors.get("adjustments", []),
        css="per-player",
    )
    for value, name in dealt:
        group.children.append(_number_widget(form, f"adj-{value}", name, decimal=True, signed=True))
    group.children.append(
        Widget(
            "text",
            "adj_reason",
            form.label_of("adj_reason"),
            value=form.values.get("adj_reason"),
            errors=form.errors.get("adj_reason", []),
        )
    )
    return [group]


def _dealer(form: HandForm) -> Widget:
    seats = [(s.value, s.name) for s in form.seats]
    label = form.label_of("dealer")
    return _choice(form, "select", "dealer", label, [("", "–"), *seats], css="more")
