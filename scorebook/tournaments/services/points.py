"""Placement points (RULES.md §8): what each place at a table earns, how tied players share
them, the conventions clubs use and the organiser's own list as typed."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scorebook import textinput
from scorebook.errors import ServiceError
from scorebook.tournaments import ranking as pure
from scorebook.tournaments.models import Tournament
from scorebook.tournaments.services.variants import possible_table_sizes

# --- The points of each place ---------------------------------------------------------------


def points_for(tournament: Tournament, size: int) -> list[Decimal]:
    """Placement points for 1st … last at a table of `size`.

    The default, "n − place", is size−1, …, 0 at every table. The tournament's own points are
    for a full table; a smaller table gets the points of its first places.
    """
    own = [Decimal(str(p)) for p in tournament.placement_points or []]
    if not own:
        return [Decimal(size - 1 - i) for i in range(size)]
    return (own + [Decimal(0)] * size)[:size]


def points_text(points: Decimal) -> str:
    """2 -> "2", 0.5 -> "½", 2.5 -> "2½": placement points as clubs write them."""
    whole = int(points)
    if points == whole:
        return str(whole)
    return f"{whole or ''}½" if points - whole == Decimal("0.5") else str(points)


def points_scheme(tournament: Tournament) -> list[tuple[int, list[str]]]:
    """[(table size, points of 1st … last as written)] for every table the tournament can have."""
    return [
        (size, [points_text(p) for p in points_for(tournament, size)])
        for size in possible_table_sizes(tournament)
    ]


def share_places(totals: Sequence[tuple[object, Decimal]], points: Sequence[Decimal]):
    """[(key, total)] -> [(key, place, points)], best total first (RULES.md §8.4, by
    scorebook.tournaments.ranking.table_places).

    Tied players share the points of the places they cover, exactly, and all get the best of
    those places: totals 30, 10, 10, −5 with 3/2/1/0 points give places 1, 2, 2, 4 and 3,
    3/2, 3/2, 0; a three-way tie for 5/3/1 is 3 each, for 3/1/0 it is 4/3.
    """
    seats = pure.table_places(dict(totals), [Fraction(str(p)) for p in points])
    ordered = sorted(seats.items(), key=lambda kv: kv[1].place)
    return [(key, seat.place, seat.points) for key, seat in ordered]


# --- Placement points: presets and the organiser's own ----------------------------------------


@dataclass(frozen=True)
class PointsPreset:
    """A convention clubs use: the points of 1st, 2nd, … for each table size it is made for.
    `by_size` None is "n − place", which fits every table (stored as no points at all)."""

    label: str
    by_size: dict[int, tuple[str, ...]] | None


N_MINUS_PLACE = "n-place"
OWN_POINTS = "own"
POINTS_PRESETS = {
    N_MINUS_PLACE: PointsPreset(gettext_lazy("n − place (3, 2, 1, 0 at four)"), None),
    "three-player-championship": PointsPreset(
        gettext_lazy("three-player championship 2 / 1 / ½"), {3: ("2", "1", "0.5")}
    ),
    "four-player-league": PointsPreset(
        gettext_lazy("four-player league 4 / 3 / 2 / 1"), {4: ("4", "3", "2", "1")}
    ),
}

MAX_PLACEMENT_POINTS = 1000  # far above any club's convention; a ranking's sums stay small
# Points are typed "2, 1, ½" or "2/1/0.5": a comma separates, a point or ½ makes a half. Where
# a semicolon or a slash separates ("2; 1; 0,5"), a comma is the decimal comma of sl/cs/de/fr.
POINTS_SEPARATORS = re.compile(r"[\s,;/]+")
POINTS_SEPARATORS_BESIDE_DECIMAL_COMMAS = re.compile(r"[\s;/]+")


def _stored(value: Decimal) -> int | float:
    """A point value for the JSON field: whole numbers as ints, halves as floats (exact)."""
    return int(value) if value == int(value) else float(value)


def preset_points(preset_id: str, table_size: int) -> list[int | float]:
    """The points a preset gives a full table of `table_size`; [] for "n − place"."""
    preset = POINTS_PRESETS[preset_id]
    if preset.by_size is None:
        return []
    points = preset.by_size.get(table_size)
    if points is None:
        sizes = ", ".join(str(n) for n in sorted(preset.by_size))
        raise ServiceError(
            _("These points are for tables of %(sizes)s players: pick other points.")
            % {"sizes": sizes},
            "points_preset",
        )
    return [_stored(Decimal(p)) for p in points]


def chosen_points(preset_id: str, text: str, table_size: int) -> list[int | float]:
    """The points of the form's choice: a preset, or the organiser's own list in `text`."""
    if preset_id == OWN_POINTS:
        if not (text or "").strip():
            raise ServiceError(_("Enter the points of each place."), "placement_points")
        return parse_points(text, table_size)
    if (text or "").strip():
        raise ServiceError(
            _("To use these points choose “our own points” above, or clear them."),
            "placement_points",
        )
    return preset_points(preset_id, table_size)


def choice_of(tournament: Tournament) -> tuple[str, str]:
    """(preset id, own points as text) that give the tournament's points: the edit form's start."""
    stored = [Decimal(str(p)) for p in tournament.placement_points or []]
    if not stored:
        return N_MINUS_PLACE, ""
    for preset_id, preset in POINTS_PRESETS.items():
        if preset.by_size and [Decimal(p) for p in preset.by_size.get(len(stored), ())] == stored:
            return preset_id, ""
    return OWN_POINTS, ", ".join(points_text(p) for p in stored)


def parse_points(text: str, table_size: int) -> list[int | float]:
    """'3, 2, 1, 0' -> [3, 2, 1, 0]; '2 / 1 / ½' and '2; 1; 0,5' -> [2, 1, 0.5]; empty -> []
    (n − place)."""
    text = (text or "").replace("½", ".5")
    separators = POINTS_SEPARATORS
    if ";" in text or "/" in text:
        separators = POINTS_SEPARATORS_BESIDE_DECIMAL_COMMAS
    parts = [p for p in separators.split(text) if p]
    if not parts:
        return []
    try:
        values = [textinput.number(part) for part in parts]
    except textinput.InputError:
        values = []
    if not values or any(v * 2 != int(v * 2) or v > MAX_PLACEMENT_POINTS for v in values):
        raise ServiceError(
            _("Enter whole or half points (2.5 or 2½) up to %(max)d, separated by commas.")
            % {"max": MAX_PLACEMENT_POINTS},
            "placement_points",
        )
    if len(values) != table_size:
        raise ServiceError(
            _("Give points for each of the %(n)d places at a table.") % {"n": table_size},
            "placement_points",
        )
    if any(a < b for a, b in zip(values, values[1:], strict=False)) or min(values) < 0:
        raise ServiceError(
            _("Points go down from first place to last and are not negative."),
            "placement_points",
        )
    return [_stored(Decimal(v)) for v in values]


# --- Creating and editing -----------------------------------------------------------------


def parse_rank_points(text: str, table_size: int) -> list[int | float]:
    """sheet+rank's list ("60, 40, 20, 0"), read and refused like placement points."""
    try:
        return parse_points(text, table_size)
    except ServiceError as exc:
        raise ServiceError(exc.message, "rank_points") from None


HANDS_BY_SIZE = re.compile(r"^\s*(\d{1,2})\s*[:=]\s*(\d{1,3})\s*$")


def parse_hands_by_size(text: str, sizes: Sequence[int]) -> dict[int, int]:
    """'5: 20, 3: 12' -> {5: 20, 3: 12}: the hands a table of another size plays."""
    found: dict[int, int] = {}
    for part in [p for p in re.split(r"[,;]", text or "") if p.strip()]:
        match = HANDS_BY_SIZE.match(part)
        if match is None:
            raise ServiceError(
                _("Write a table size and its hands, as 5: 20, separated by commas."),
                "hands_by_size",
            )
        size, hands = int(match[1]), int(match[2])
        if size not in sizes or not 1 <= hands <= 99:
            raise ServiceError(
                _("Tables here seat %(sizes)s players, and play 1 to 99 hands.")
                % {"sizes": ", ".join(str(n) for n in sizes)},
                "hands_by_size",
            )
        found[size] = hands
    return found
