"""The club's house rules: members read them, admins add, change and delete them.

The form is built from what the variant declares (``variant.switches``, its presets and their
values) and the engine checks what it says (``scorebook.house_rules.save``): each of the
engine's problems is shown at its switch's field.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import rules
from rules import jsontext
from scorebook import house_rules
from scorebook.access import club_view, get_for_club
from scorebook.errors import ServiceError
from scorebook.models import MAX_HOUSE_RULES_NAME, HouseRules, Role
from scorebook.textinput import InputError, PlainTextForm, number, plain_text_field
from scorebook.views.confirm import ASK, confirm_page

EDIT = ("GET", "HEAD", "POST")
MAX_MAP_BYTES = 4_000  # a map switch typed as JSON: a contract table is a few hundred bytes
SWITCH_PREFIX = "switch_"


class HouseRulesForm(PlainTextForm, forms.Form):
    name = forms.CharField(label=gettext_lazy("name"), max_length=MAX_HOUSE_RULES_NAME)
    preset = forms.ChoiceField(label=gettext_lazy("preset"))
    # A select, not a checkbox: a thumb finds it on a phone.
    is_default = forms.TypedChoiceField(
        label=gettext_lazy("new sessions of the variant start with these"),
        choices=[("", gettext_lazy("no")), ("1", gettext_lazy("yes"))],
        coerce=bool,
        empty_value=False,
        required=False,
    )

    def __init__(self, *args, variant: rules.Variant, **kwargs):
        super().__init__(*args, **kwargs)
        self.variant = variant
        self.fields["preset"].choices = [(name, name) for name in variant.presets]
        self.fields["preset"].initial = variant.default_preset
        for name, switch in variant.switches.items():
            self.fields[SWITCH_PREFIX + name] = _switch_field(variant, name, switch)

    def switch_fields(self):
        return [self[SWITCH_PREFIX + name] for name in self.variant.switches]

    def clean(self):
        cleaned = super().clean()
        overrides = {}
        for name in self.variant.switches:
            value = cleaned.get(SWITCH_PREFIX + name)
            if value is not None:
                overrides[name] = value
        cleaned["overrides"] = overrides
        return cleaned

    def add_problems(self, problems) -> None:
        """The engine's problems with the rules (paths ``rules.<switch>…``), each at its field;
        the rest of a path (a contract of a map) starts the message."""
        for problem in problems:
            _rules, _dot, rest = problem.path.partition(".")
            switch, _dot, inner = rest.partition(".")
            field = SWITCH_PREFIX + switch
            if switch == "preset":
                self.add_error("preset", problem.message)
            elif field in self.fields:
                self.add_error(field, f"{inner}: {problem.message}" if inner else problem.message)
            else:
                self.add_error(None, str(problem))


def _switch_field(variant: rules.Variant, name: str, switch) -> forms.Field:
    """One switch's field: a select of its choices, a whole number, or a map as JSON; empty
    keeps the preset's value, which the help beside it shows for every preset."""
    presets = {preset: values[name] for preset, values in variant.presets.items()}
    shown = " · ".join(
        f"{preset}: {house_rules.value_text(name, value)}" for preset, value in presets.items()
    )
    help_text = _("Empty keeps the preset's value (%(presets)s).") % {"presets": shown}
    label = switch.label
    if switch.choices:
        choices = [("", _("the preset's"))] + [
            (json.dumps(choice), house_rules.value_text(name, choice)) for choice in switch.choices
        ]
        return SwitchChoiceField(label=label, choices=choices, required=False, help_text=help_text)
    if switch.read_map is not None:
        example = json.dumps(dict(list(presets[variant.default_preset].items())[:1]))
        field = MapField(
            label=label,
            required=False,
            max_length=MAX_MAP_BYTES,
            widget=forms.Textarea(attrs={"rows": 2, "spellcheck": "false"}),
            help_text=_("Only the entries that change, as JSON: %(example)s. %(help)s")
            % {"example": example, "help": help_text},
        )
        plain_text_field(field)  # added after PlainTextForm looked at the form's fields
        return field
    field = WholeNumberField(label=label, required=False, max_length=20, help_text=help_text)
    plain_text_field(field)
    return field


class SwitchChoiceField(forms.ChoiceField):
    """A switch's choice, posted as its JSON (1, "hand", true) and given back as the value."""

    def clean(self, value):
        key = super().clean(value)
        return json.loads(key) if key else None


class WholeNumberField(forms.CharField):
    def clean(self, value):
        try:
            return number(super().clean(value), whole=True)
        except InputError as error:
            raise forms.ValidationError(error.message) from None


class MapField(forms.CharField):
    def clean(self, value):
        text = super().clean(value).strip()
        if not text:
            return None
        try:
            return jsontext.loads(text.encode(), max_bytes=MAX_MAP_BYTES, decimals=False)
        except jsontext.UnreadableJSON as error:
            raise forms.ValidationError(error.problems[0].message) from None


def _initial(found: HouseRules, variant: rules.Variant) -> dict[str, Any]:
    initial = {"name": found.name, "preset": found.preset, "is_default": "1" * found.is_default}
    for name, value in found.overrides.items():
        switch = variant.switches.get(name)
        if switch is None:
            continue
        if switch.choices:
            initial[SWITCH_PREFIX + name] = json.dumps(value)
        elif switch.read_map is not None:
            initial[SWITCH_PREFIX + name] = json.dumps(value, ensure_ascii=False)
        else:
            initial[SWITCH_PREFIX + name] = str(value)
    return initial


# --- Views ------------------------------------------------------------------------------------


@club_view(role=Role.VIEWER)
def house_rules_list(request):
    rows = [
        (row, [(found, house_rules.set_differences(found)) for found in row.sets])
        for row in house_rules.by_variant(request.club)
    ]
    return render(
        request,
        "scorebook/house_rules.html",
        {
            "club": request.club,
            "rows": rows,
            "has_sets": any(sets for _row, sets in rows),
            "variants": rules.variants(),
        },
    )


def _variant_or_404(variant_id: str) -> rules.Variant:
    try:
        return rules.get_variant(variant_id)
    except rules.RulesError:
        raise Http404 from None


@club_view(role=Role.ADMIN, methods=EDIT)
def house_rules_add(request):
    """Add a set for the variant of ``?variant=``; without one, the list asks which."""
    if not request.GET.get("variant"):
        return redirect("scorebook:house_rules", club=request.club.slug)
    variant = _variant_or_404(request.GET["variant"])
    found = HouseRules(club=request.club, variant=variant.id)
    form = HouseRulesForm(request.POST or None, variant=variant)
    return _edit(request, form, found, _("House rules %(name)s added."))


@club_view(role=Role.ADMIN, methods=EDIT)
def house_rules_edit(request, house_rules_id):
    found = get_for_club(HouseRules, request.club, pk=house_rules_id)
    variant = _variant_or_404(found.variant)
    form = HouseRulesForm(request.POST or None, variant=variant, initial=_initial(found, variant))
    return _edit(request, form, found, _("House rules %(name)s saved."))


def _edit(request, form: HouseRulesForm, found: HouseRules, done: str):
    """Save a valid form through the service; the engine's and the club's refusals show at
    their fields, on the form drawn again."""
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        found.name = data["name"]
        found.preset = data["preset"]
        found.overrides = data["overrides"]
        found.is_default = data["is_default"]
        try:
            house_rules.save(found)
        except rules.RulesError as exc:
            form.add_problems(exc.problems)
        except ServiceError as exc:
            form.add_error(exc.field, exc.message)
        else:
            messages.success(request, done % {"name": found.name})
            return redirect("scorebook:house_rules", club=request.club.slug)
    return render(
        request,
        "scorebook/house_rules_form.html",
        {"club": request.club, "form": form, "found": found, "variant": form.variant},
    )


@club_view(role=Role.ADMIN, methods=ASK)
def house_rules_delete(request, house_rules_id):
    found = get_for_club(HouseRules, request.club, pk=house_rules_id)
    if request.method != "POST":
        return confirm_page(
            request,
            _("Delete the house rules %(name)s?") % {"name": found.name},
            _("Delete"),
            reverse("scorebook:house_rules", kwargs={"club": request.club.slug}),
            detail=_("Sessions started with them keep their rules."),
        )
    house_rules.delete(found)
    messages.success(request, _("House rules %(name)s deleted.") % {"name": found.name})
    return redirect("scorebook:house_rules", club=request.club.slug)
