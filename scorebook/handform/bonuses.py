"""The bonuses on the hand form: each bonus of the chosen contract as a row of chips (its state:
silent, announced, lost, by which side), with its contra, its player or each player's level,
as its BonusSpec allows.

Each bonus has keys of its own, made from the bonuses field's (rules.fields): after the
field's own key, one for the bonus ("bonus-{id}": its state), its contra, its player, and one
a seat (a level per player).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from rules import labels
from rules.fields import Field
from rules.model import DECLARER, DEFENDERS
from scorebook.handform.values import Values, item_key, seat_key

if TYPE_CHECKING:
    from scorebook.handform.mapping import HandForm

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
STATE_OF = {value: state for state, value in STATE_BONUS.items()}


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


@dataclass
class BonusField:
    """One bonus of the chosen contract as the form shows it, with its keys."""

    spec: Any
    key: str  # its state
    label: str
    contra_key: str = ""
    player_key: str = ""
    seat_template: str = ""  # its level for one seat: the "{seat}" filled in
    states: list[tuple[str, str]] = field(default_factory=list)
    takes_contra: bool = False
    takes_player: bool = False
    levels: list[tuple[str, str]] = field(default_factory=list)  # per-player level (poignée)

    @property
    def per_player(self) -> bool:
        return bool(self.levels)

    def seat_key(self, position: int | str) -> str:
        return seat_key(self.seat_template, position)


def bonus_fields(form: HandForm, bonuses: Field) -> list[BonusField]:
    """Each bonus the chosen contract allows, as its spec says it is told."""
    if not form.uses_field(bonuses):
        return []
    variant, rules = form.variant, form.rules
    defenders_announce = variant.defenders_may_announce(rules)
    keys = list(bonuses.form)[1:5]
    out = []
    for bonus_id, spec in variant.bonus_specs.items():
        if bonus_id not in form.contract.bonuses:
            continue
        own, contra, player, seat = (item_key(key, bonus_id) for key in keys)
        bonus = BonusField(spec, own, spec.label, contra, player, seat)
        if spec.levels:
            names = spec.level_words or [labels.POIGNEE_LEVELS.get(v, v) for v in spec.levels]
            bonus.levels = [("", "–"), *zip(spec.levels, names, strict=True)]
        elif spec.player and not spec.announce:
            bonus.takes_player = True
        else:
            bonus.states = _states(spec, defenders_announce, variant)
            bonus.takes_player = spec.player
            bonus.takes_contra = spec.announce and rules.max_contra > 0
        out.append(bonus)
    return out


def _states(spec, defenders_announce: bool, variant) -> list[tuple[str, str]]:
    states = [NONE]
    if not spec.made_optional:  # a silent one follows from the points
        states += [SILENT, SILENT_DEFENDERS]
    if spec.announce:
        states += [ANNOUNCED, ANNOUNCED_FAILED]
        if defenders_announce:
            states += [DEFENDERS_ANNOUNCED, DEFENDERS_ANNOUNCED_FAILED]
    if spec.silent_fail:
        states += [LOST, LOST_DEFENDERS]
    words = state_labels(variant, announce=spec.announce)
    return [(s, words[s]) for s in states]


def bonuses_of(form: HandForm, bonuses: Field) -> list[dict[str, Any]]:
    """The bonuses the form's chips say, each item's problems placed at its keys."""
    out: list[dict[str, Any]] = []
    for bonus in form.bonus_fields:
        name = bonus.spec.id
        if bonus.per_player:
            for seat in form.dealt_seats:
                key = bonus.seat_key(seat.position)
                level = form.values.get(key)
                if level:
                    form.paths[f"{bonuses.name}[{len(out)}]"] = key
                    out.append({"name": name, "player": seat.name, "level": level})
            continue
        if bonus.takes_player and not bonus.states:
            player = form.seat_name(bonus.player_key)
            if player is not None:
                form.paths[f"{bonuses.name}[{len(out)}]"] = bonus.player_key
                out.append({"name": name, "player": player})
            continue
        item = _told(form, bonus)
        if item is not None:
            index = f"{bonuses.name}[{len(out)}]"
            form.paths[index] = bonus.key
            form.paths[f"{index}.contra"] = bonus.contra_key
            form.paths[f"{index}.player"] = bonus.player_key
            out.append(item)
    return out


def _told(form: HandForm, bonus: BonusField) -> dict[str, Any] | None:
    """A bonus told by its state chip (and its contra and player), or None."""
    state = form.values.get(bonus.key)
    if not state:
        return None
    if state not in dict(bonus.states):
        form.error(bonus.key, _("Choose one of the listed states."))
        return None
    side, announced, made = STATE_BONUS[state]
    item: dict[str, Any] = {"name": bonus.spec.id}
    if side != DECLARER:
        item["side"] = side
    if announced:
        item["announced"] = True
    if not (bonus.spec.made_optional and made):
        item["made"] = made
    if bonus.takes_contra:
        level = form.number(bonus.contra_key, whole=True)
        if level:
            item["contra"] = level
    if bonus.takes_player:
        player = form.seat_name(bonus.player_key)
        if player is not None:
            item["player"] = player
    return item


def refill_bonuses(
    values: Values, bonuses: Field, items: list[Mapping[str, Any]], position: Mapping[str, str]
) -> None:
    """The chips that give back a stored hand's bonuses."""
    own, contra, player, seat = list(bonuses.form)[1:5]
    for bonus in items:
        name = bonus["name"]
        if bonus.get("level"):
            key = seat_key(item_key(seat, name), position.get(bonus.get("player"), ""))
            values.set(key, bonus["level"])
            continue
        if "announced" in bonus or "side" in bonus or "made" in bonus or not bonus.get("player"):
            made = bonus.get("made", True)
            told = (bonus.get("side", DECLARER), bool(bonus.get("announced")), made is not False)
            values.set(item_key(own, name), STATE_OF[told])
        if bonus.get("contra"):
            values.set(item_key(contra, name), bonus["contra"])
        if bonus.get("player"):
            values.set(item_key(player, name), position.get(bonus["player"], ""))
