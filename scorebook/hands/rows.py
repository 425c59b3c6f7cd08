"""The one reader of stored rows: what the sheet, the printed sheet and a polling phone read of
each hand, without replaying the session."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.db.models import Exists, OuterRef, Subquery

from rules import note_text
from rules.words import phrase_from_json, phrase_text
from scorebook.models import Club, Hand, Session


def line_text(stored: list[Any]) -> str:
    """A stored line's words in the reader's language."""
    return phrase_text(phrase_from_json(stored[0]))


def stored_note_text(stored: list[Any]) -> str:
    """A stored row's paper note in the reader's language."""
    return note_text(phrase_from_json(stored))


# What the sheet reads of a hand: number, voided, void reason, stored row.
SHEET_FIELDS = ("number", "voided", "void_reason", "score")


def stored_rows(session: Session) -> list[tuple[int, bool, str, dict[str, Any]]]:
    """Each hand's (number, voided, void reason, stored row), in order: what a sheet shows,
    read without replaying the session."""
    return latest_rows(session).rows


@dataclass(frozen=True)
class SheetPart:
    """Rows of a session's sheet in number order, read in one statement with what a phone
    polling the sheet compares: the sheet page shows the latest of them, a poll those changed."""

    rows: list[tuple[int, bool, str, dict[str, Any]]]
    # The stored row of the hand before the first of `rows` (None: they start at hand 1): the
    # totals and the radelci held that they continue from.
    before: dict[str, Any] | None
    # When a hand of the session last changed (None: it has none) and its last hand's number.
    changed: datetime.datetime | None = None
    last: int = 0


def _read(session: Session, hands, limit: int | None = None, **more) -> tuple[list[tuple], Any]:
    """The rows of `hands` (a query of the session's hands, ordered), at most `limit`, with
    when a hand of the session last changed, read in the same statement (an edit changes an
    earlier hand and rescores the ones after it without touching theirs, so the rows read
    need not hold the last change), and the values of `more` (the same on every row)."""
    last_change = (
        Hand.objects.filter(session_id=session.pk)  # a value read once, not once a row
        .order_by("-changed_at")
        .values("changed_at")[:1]
    )
    found = list(
        hands.annotate(last_change=Subquery(last_change), **more).values_list(
            *SHEET_FIELDS, "last_change", *more
        )[:limit]
    )
    if not found:
        return [], [None] * (1 + len(more))
    return [row[: len(SHEET_FIELDS)] for row in found], list(found[0][len(SHEET_FIELDS) :])


def latest_rows(session: Session, count: int | None = None) -> SheetPart:
    """The session's last `count` rows (None: all of them): what the sheet page opens on and
    a save answers with, the same size however long the evening."""
    if count is None:
        rows, (changed,) = _read(session, session.hands.order_by("number"))
    else:
        rows, (changed,) = _read(session, session.hands.order_by("-number"), count + 1)
        rows.reverse()
    before = rows.pop(0)[3] if count is not None and len(rows) > count else None
    return SheetPart(rows, before, changed, rows[-1][0] if rows else 0)


def rows_before(session: Session, number: int) -> SheetPart:
    """The rows of the hands before hand `number`: the older rows a phone asks for."""
    older = session.hands.filter(number__lt=number).order_by("number")
    return SheetPart(list(older.values_list(*SHEET_FIELDS)), None)


def unchanged_since(club: Club, pk: int, since: datetime.datetime, closed: bool) -> bool:
    """Whether the club's session `pk` is as a phone saw it at `since`: still closed, or still
    open, and no hand of it changed after. One statement."""
    changed = Hand.objects.filter(session_id=OuterRef("pk"), changed_at__gt=since)
    same = Session.objects.filter(club=club, pk=pk, is_closed=closed).filter(~Exists(changed))
    return same.exists()


def rows_changed_since(session: Session, since: datetime.datetime, limit: int) -> SheetPart | None:
    """The rows of the hands changed after `since` and of every hand after the first of them
    (its change moved their running totals), for a phone that shows the sheet as it was then;
    no rows when nothing changed, None when more than `limit` did (the phone had better load
    the latest rows afresh). One statement, whatever the session's length."""
    changed_since = session.hands.filter(changed_at__gt=since).order_by("number")
    first = Subquery(changed_since.values("number")[:1])
    rows, (changed, first_changed) = _read(
        session,
        session.hands.filter(number__gte=first - 1).order_by("number"),
        limit + 2,
        first_changed=first,
    )
    before = rows.pop(0)[3] if rows and rows[0][0] < first_changed else None
    if len(rows) > limit:
        return None
    return SheetPart(rows, before, changed, rows[-1][0] if rows else 0)
