"""A hand scored in its place but not stored: what the form shows under its fields."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

import rules
from rules import note, note_text
from scorebook.errors import ServiceError
from scorebook.hands.scoring import Unscored, running_before, scored
from scorebook.hands.session import engine_sheet
from scorebook.models import Session


@dataclass(frozen=True)
class Scored:
    """A hand scored in its place but not stored: what the form shows under the fields."""

    result: rules.HandResult
    note: str


def preview(session: Session, own: Mapping[str, Any], number: int | None = None) -> Scored:
    """The hand's own fields scored as hand `number` (None: the next hand), storing nothing.
    Raises ServiceError with the engine's problems (paths of the hand alone)."""
    sheet = engine_sheet(session)
    try:
        before = running_before(session, sheet, number)
    except Unscored:
        raise ServiceError(
            _("A hand before this one could not be scored; edit or void it.")
        ) from None
    row = scored(sheet, own, before)[0]
    return Scored(row.result, note_text(note(row.result)))
