"""The club's own house rules: per variant, a preset and overrides of RULES.md §10's switches.

The engine alone says what is allowed (``Variant.rules`` raises RulesError with each problem
at ``rules.<switch>``; ``save`` refuses with them as RulesRefused); this module only keeps the
club's sets, picks one for a new session and says in words how a session's frozen rules
differ from their preset. A session freezes the rules a set resolves to when it starts
(services.start_session) and keeps the set's name, so changing or deleting a set never
changes a session.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

import rules
from rules import labels
from rules.notes import number_text
from scorebook.errors import ServiceError
from scorebook.models import Club, HouseRules, Session, preset_label

# The start form's value for one of the club's sets: "house-12"; a bare word is a preset.
CHOICE_PREFIX = "house-"


def rules_data(preset: str, overrides: Mapping[str, Any]) -> dict[str, Any]:
    """The rules JSON of HANDS.md for a preset and its overrides."""
    return {"preset": preset, **overrides}


class RulesRefused(ServiceError):
    """The engine refuses a set's rules: each of its problems at ``rules.<switch>[.<key>]``."""


def save(house_rules: HouseRules) -> HouseRules:
    """Add or change a set. Raises RulesRefused when the engine refuses its rules, ServiceError
    when the club already has a set of that name for the variant. A set made the default
    takes over from the variant's previous default."""
    try:
        variant = rules.get_variant(house_rules.variant)
        variant.rules(rules_data(house_rules.preset, house_rules.overrides))
    except rules.RulesError as exc:
        raise RulesRefused.of(exc.problems) from None
    taken = house_rules.club.house_rules.filter(
        variant=variant.id, name__iexact=house_rules.name
    ).exclude(pk=house_rules.pk)
    if taken.exists():
        raise _name_taken(house_rules, variant)
    try:
        with transaction.atomic():
            if house_rules.is_default:
                house_rules.club.house_rules.filter(variant=variant.id, is_default=True).exclude(
                    pk=house_rules.pk
                ).update(is_default=False)
            house_rules.save()
    except IntegrityError:  # the same name saved at the same moment by another admin
        raise _name_taken(house_rules, variant) from None
    return house_rules


def _name_taken(house_rules: HouseRules, variant: rules.Variant) -> ServiceError:
    return ServiceError(
        _("The club already has house rules called %(name)s for %(variant)s.")
        % {"name": house_rules.name, "variant": variant.label},
        "name",
    )


def delete(house_rules: HouseRules) -> None:
    """Delete a set; the sessions started with it keep their frozen rules and its name."""
    house_rules.delete()


# --- A new session's rules --------------------------------------------------------------------


@dataclass(frozen=True)
class Chosen:
    """What a new session starts with: a preset, the switches overridden, the set's name."""

    preset: str
    overrides: Mapping[str, Any]
    name: str = ""


def choose(club: Club, variant: rules.Variant, choice: str) -> Chosen:
    """The rules of the start form's choice: "" the club's default set for the variant (else
    the variant's default preset), "house-<id>" one of the club's sets, else a preset's name.
    Raises ServiceError at "preset" for a choice the variant does not have."""
    if not choice:
        default = club.house_rules.filter(variant=variant.id, is_default=True).first()
        return _chosen(default) if default else Chosen(variant.default_preset, {})
    if choice.startswith(CHOICE_PREFIX):
        pk = choice.removeprefix(CHOICE_PREFIX)
        found = club.house_rules.filter(pk=int(pk)).first() if pk.isdigit() else None
        if found is None:
            raise ServiceError(_("These house rules are no longer there; choose again."), "preset")
        if found.variant != variant.id:
            raise ServiceError(
                _("%(name)s are house rules for %(other)s, not for %(variant)s.")
                % {
                    "name": found.name,
                    "other": rules.get_variant(found.variant).label,
                    "variant": variant.label,
                },
                "preset",
            )
        return _chosen(found)
    if choice not in variant.presets:
        raise ServiceError(
            _("%(variant)s has no house rules called %(preset)s; choose one of %(names)s.")
            % {
                "variant": variant.label,
                "preset": preset_label(choice),
                "names": ", ".join(name for _id, name in preset_choices(variant)),
            },
            "preset",
        )
    return Chosen(choice, {})


def _chosen(house_rules: HouseRules) -> Chosen:
    return Chosen(house_rules.preset, dict(house_rules.overrides), house_rules.name)


def start_choices(club: Club) -> list[tuple[str, Any]]:
    """The start form's choices: the club's default, then per variant (a group named by the
    variant, which the page's script shows alone once the variant is chosen) the club's sets
    for it and its presets, each in the reader's words."""
    groups: dict[str, list[tuple[str, str]]] = {}
    for found in club.house_rules.all():
        text = _("%(name)s (default)") % {"name": found.name} if found.is_default else found.name
        groups.setdefault(found.variant, []).append((f"{CHOICE_PREFIX}{found.pk}", text))
    return [
        ("", _("the club's default for the variant")),
        *(
            (variant.label, [*groups.get(variant.id, []), *preset_choices(variant)])
            for variant in rules.variants()
        ),
    ]


def preset_choices(variant: rules.Variant) -> list[tuple[str, str]]:
    """The variant's presets: (id, name in the reader's words)."""
    return [(name, preset_label(name)) for name in variant.presets]


@dataclass(frozen=True)
class VariantSets:
    """A variant with the club's sets for it."""

    variant: rules.Variant
    sets: list[HouseRules]

    @property
    def default(self) -> str:
        """The name a new session of the variant starts with: the default set's, else the
        variant's default preset's, in the reader's words."""
        found = [s.name for s in self.sets if s.is_default]
        return found[0] if found else preset_label(self.variant.default_preset)

    @property
    def preset_names(self) -> list[str]:
        return [name for _id, name in preset_choices(self.variant)]


def by_variant(club: Club) -> list[VariantSets]:
    """Every variant with the club's sets for it, in the engine's order."""
    sets: dict[str, list[HouseRules]] = {}
    for found in club.house_rules.all():
        sets.setdefault(found.variant, []).append(found)
    return [VariantSets(variant, sets.get(variant.id, [])) for variant in rules.variants()]


# --- The rules in words ---------------------------------------------------------------------


@dataclass(frozen=True)
class Difference:
    """A switch whose value differs from its preset's, in words."""

    label: str
    value: str
    preset_value: str


def value_text(switch_name: str, value: Any) -> str:
    """A switch's value as a member reads it: "on", "−100", "the game only", "beggar 80"."""
    if isinstance(value, bool):
        return _("on") if value else _("off")
    if isinstance(value, Mapping):
        return ", ".join(f"{key} {value_text(switch_name, v)}" for key, v in value.items())
    if isinstance(value, list | tuple):
        return "/".join(value_text(switch_name, v) for v in value)
    if isinstance(value, int):
        return number_text(value)
    return labels.SWITCH_CHOICES.get((switch_name, value), str(value))


def differences(variant: rules.Variant, frozen: Mapping[str, Any]) -> list[Difference]:
    """Each switch of `frozen` rules (a session's, or a set resolved) that differs from its
    preset; of a map (contract values) only the entries that differ."""
    preset = str(frozen.get("preset", variant.default_preset))
    if preset not in variant.presets:
        return []
    plain = rules.resolve_rules(variant.id, {"preset": preset})
    found = []
    for name, switch in variant.switches.items():
        value, before = frozen.get(name, plain.get(name)), plain.get(name)
        if isinstance(value, Mapping) and isinstance(before, Mapping):
            keys = [key for key in value if value[key] != before.get(key)]
            value = {key: value[key] for key in keys}
            before = {key: before.get(key) for key in keys}
        if value != before:
            found.append(
                Difference(switch.label, value_text(name, value), value_text(name, before))
            )
    return found


def resolved(house_rules: HouseRules) -> dict[str, Any]:
    """The full rules a set resolves to (what a session started with it freezes)."""
    return rules.resolve_rules(
        house_rules.variant, rules_data(house_rules.preset, house_rules.overrides)
    )


def set_differences(house_rules: HouseRules) -> list[Difference]:
    """How a set differs from its preset; none when the engine no longer reads it."""
    try:
        return differences(rules.get_variant(house_rules.variant), resolved(house_rules))
    except rules.RulesError:
        return []


def session_differences(session: Session) -> list[Difference]:
    return differences(rules.get_variant(session.variant), session.rules)
