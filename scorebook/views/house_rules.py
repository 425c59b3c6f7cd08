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

from scorebook import house_rules
from scorebook.access import club_view, get_for_club
from scorebook.errors import ServiceError
from scorebook.models import MAX_HOUSE_RULES_NAME, HouseRules, Role, preset_label
from scorebook.textinput import InputError, PlainTextForm, number, plain_text_field
from scorebook.variants import Variant, all_variants, variant_of
from scorebook.views.confirm import ASK, confirm_page

EDIT = ("GET", "HEAD", "POST")
SWITCH_PREFIX = "switch_"
KEY = "__"  # a map's key (and a pair's half) in a field's name: switch_values__beggar
HALVES = (gettext_lazy("%(key)s, silent"), gettext_lazy("%(key)s, announced"))


class HouseRulesForm(PlainTextForm, forms.Form):
    """A set's name, preset and switches, one control per value the variant declares: a
    number per contract of a table, a silent/announced pair per bonus, a worded choice. What
    a stored set holds that no control knows (`kept`) is shown and saved back as it is."""

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

    def __init__(self, *args, variant: Variant, kept=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.variant = variant
        self.kept: dict[str, Any] = kept or {}
        self.fields["preset"].choices = house_rules.preset_choices(variant)
        self.fields["preset"].initial = variant.default_preset
        presets = variant.presets
        preset = presets.get(self.initial.get("preset"), presets[variant.default_preset])
        for name, switch in variant.switches.items():
            if switch.read_map is None:
                self.fields[SWITCH_PREFIX + name] = _switch_field(variant, name, switch)
            else:
                self.fields.update(_map_fields(name, switch, preset[name]))

    def switch_fields(self):
        return [self[name] for name in self.fields if name.startswith(SWITCH_PREFIX)]

    def switch_groups(self) -> list[dict[str, Any]]:
        """Each switch as the page shows it: a map's controls under its name, with what the
        set keeps that no control knows; any other switch alone."""
        groups = []
        for name, switch in self.variant.switches.items():
            if switch.read_map is None:
                groups.append({"fields": [self[SWITCH_PREFIX + name]]})
                continue
            kept = self.kept.get(name, {})
            groups.append(
                {
                    "label": switch.label,
                    "fields": [self[key] for key in _map_names(name, switch)],
                    "kept": [(key, json.dumps(value)) for key, value in kept.items()],
                }
            )
        if unknown := self._unknown_switches():
            groups.append({"kept": [(n, json.dumps(v)) for n, v in unknown.items()]})
        return groups

    def _unknown_switches(self) -> dict[str, Any]:
        """Kept switches the variant no longer has: shown, and saved back as they are."""
        return {n: v for n, v in self.kept.items() if n not in self.variant.switches}

    def clean(self):
        cleaned = super().clean()
        preset = self.variant.presets.get(cleaned.get("preset"), {})
        overrides = self._unknown_switches()
        for name, switch in self.variant.switches.items():
            if switch.read_map is None:
                value = cleaned.get(SWITCH_PREFIX + name)
            else:
                value = self._map_value(name, switch, preset.get(name, {}))
            if value is not None:
                overrides[name] = value
        cleaned["overrides"] = overrides
        return cleaned

    def _map_value(self, name: str, switch, preset_table) -> dict[str, Any] | None:
        """The entries typed for a map, over what the set keeps; a pair's empty half is the
        preset's (a bonus the preset has not: both halves are needed)."""
        entered = dict(self.kept.get(name, {}))
        for key in switch.keys:
            field = SWITCH_PREFIX + name + KEY + key
            if not switch.pair:
                if self.cleaned_data.get(field) is not None:
                    entered[key] = self.cleaned_data[field]
                continue
            halves = [self.cleaned_data.get(f"{field}{KEY}{i}") for i in (0, 1)]
            if halves == [None, None]:
                continue
            known = preset_table.get(key)
            for i, half in enumerate(halves):
                if half is None and known is None:
                    self.add_error(f"{field}{KEY}{i}", _("Enter both values of this bonus."))
                elif half is None:
                    halves[i] = known[i]
            entered[key] = halves
        return entered or None

    def add_problems(self, problems) -> None:
        """The engine's problems with the rules (paths ``rules.<switch>[.<key>]``), each at
        its control; one of a kept entry or of the set as a whole above the controls."""
        for problem in problems:
            _rules, _dot, rest = problem.path.partition(".")
            switch, _dot, key = rest.partition(".")
            field = SWITCH_PREFIX + switch
            candidates = [field, f"{field}{KEY}{key}", f"{field}{KEY}{key}{KEY}0"]
            if switch == "preset":
                self.add_error("preset", problem.message)
            elif field in self.fields:
                self.add_error(field, problem.message)
            elif key and any(name in self.fields for name in candidates[1:]):
                self.add_error(next(n for n in candidates[1:] if n in self.fields), problem.message)
            else:
                self.add_error(None, str(problem))


def _switch_field(variant: Variant, name: str, switch) -> forms.Field:
    """One switch's field: a select of its choices or a whole number; empty keeps the
    preset's value, which the help beside it shows for every preset."""
    presets = {preset: values[name] for preset, values in variant.presets.items()}
    shown = " · ".join(
        f"{preset_label(preset)}: {house_rules.value_text(name, value)}"
        for preset, value in presets.items()
    )
    help_text = _("Empty keeps the preset's value (%(presets)s).") % {"presets": shown}
    label = switch.label
    if switch.choices:
        choices = [("", _("the preset's"))] + [
            (json.dumps(choice), house_rules.value_text(name, choice)) for choice in switch.choices
        ]
        return SwitchChoiceField(label=label, choices=choices, required=False, help_text=help_text)
    return _number_field(label, help_text=help_text)


def _number_field(label: str, **kwargs) -> forms.Field:
    field = WholeNumberField(label=label, required=False, max_length=20, **kwargs)
    plain_text_field(field)  # added after PlainTextForm looked at the form's fields
    return field


def _map_names(name: str, switch) -> list[str]:
    base = SWITCH_PREFIX + name + KEY
    if switch.pair:
        return [f"{base}{key}{KEY}{i}" for key in switch.keys for i in (0, 1)]
    return [base + key for key in switch.keys]


def _map_fields(name: str, switch, preset_table) -> dict[str, forms.Field]:
    """A number per key of a map (two for a pair), labelled with the key's game word and
    showing the preset's value as its placeholder: empty keeps it."""
    fields = {}
    for field_name in _map_names(name, switch):
        key, *half = field_name.removeprefix(SWITCH_PREFIX + name + KEY).split(KEY)
        label = switch.key_label(key)
        preset_value = preset_table.get(key)
        if half:
            i = int(half[0])
            label = HALVES[i] % {"key": label}
            preset_value = None if preset_value is None else preset_value[i]
        field = _number_field(label)
        if preset_value is not None:
            field.widget.attrs["placeholder"] = house_rules.value_text(name, preset_value)
        fields[field_name] = field
    return fields


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


def _initial(found: HouseRules, variant: Variant) -> dict[str, Any]:
    """A stored set in its controls; what no control knows is `_kept`."""
    initial = {"name": found.name, "preset": found.preset, "is_default": "1" * found.is_default}
    for name, value in found.overrides.items():
        switch = variant.switches.get(name)
        if switch is None:
            continue
        if switch.read_map is not None and isinstance(value, dict):
            for key, entry in value.items():
                if key not in switch.keys:
                    continue
                field = SWITCH_PREFIX + name + KEY + key
                if switch.pair:
                    initial.update({f"{field}{KEY}{i}": str(v) for i, v in enumerate(entry)})
                else:
                    initial[field] = str(entry)
        elif switch.choices:
            initial[SWITCH_PREFIX + name] = json.dumps(value)
        elif switch.read_map is None:
            initial[SWITCH_PREFIX + name] = str(value)
    return initial


def _kept(found: HouseRules, variant: Variant) -> dict[str, Any]:
    """What a stored (or imported) set holds that no control knows: a switch the variant no
    longer has, a key of a map it does not list. Shown on the page, saved back as it is."""
    kept: dict[str, Any] = {}
    for name, value in found.overrides.items():
        switch = variant.switches.get(name)
        if switch is None:
            kept[name] = value
        elif switch.read_map is not None and isinstance(value, dict):
            unknown = {key: entry for key, entry in value.items() if key not in switch.keys}
            if unknown:
                kept[name] = unknown
    return kept


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
            "variants": all_variants(),
        },
    )


def _variant_or_404(variant_id: str) -> Variant:
    variant = variant_of(variant_id)
    if variant is None:
        raise Http404
    return variant


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
    form = HouseRulesForm(
        request.POST or None,
        variant=variant,
        initial=_initial(found, variant),
        kept=_kept(found, variant),
    )
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
        except house_rules.RulesRefused as exc:
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
