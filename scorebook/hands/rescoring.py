"""Keeping what is derived from the hands in step with them: each hand's stored row and entries,
rescored from a changed hand on, and a closed session's closing."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import connection

import rules
from rules.reader import Sheet
from rules.scoring import Running
from scorebook.hands.scoring import Unscored, entries, running_before, score_hands, stored_line
from scorebook.hands.session import engine_sheet
from scorebook.hands.stored import rename_in_hand
from scorebook.models import Entry, Hand, Session


def rescore(session: Session, from_number: int, renamed: Mapping[str, str] | None = None) -> None:
    """Rescore every hand numbered `from_number` or later from the running state before it,
    storing each row and rewriting its entries: an edit or a void changes the radelci and the
    dealer, so the amounts of the hands after it. The caller holds the session's lock.

    With `renamed` (old name -> new name: a roster rename) each hand's data is renamed first
    and stored with its row; no amount changes, and entries name players by id, so they stay.
    """
    seats = session.seat_names
    sheet = engine_sheet(session)
    hands = list(
        session.hands.filter(number__gte=from_number)
        .order_by("number")
        # With "session": a related manager fetches an instance's missing key one by one.
        .only("pk", "session", "number", "data", "voided")
    )
    if renamed:
        for hand in hands:
            hand.data = rename_in_hand(hand.data, renamed, session.variant)
    scores = score_hands(
        sheet,
        [(hand.number, None if hand.voided else hand.data) for hand in hands],
        running_before_making_rows(session, sheet, from_number),
    )
    for hand, score in zip(hands, scores, strict=True):
        hand.score = score
    update_each(hands, ["data", "score"] if renamed else ["score"])
    if not renamed:
        Entry.objects.filter(hand__session=session, hand__number__gte=from_number).delete()
        Entry.objects.bulk_create(
            entry for hand in hands if not hand.voided for entry in entries(hand, seats)
        )
    if session.is_closed:
        refresh_closing(session)


def update_each(hands: Sequence[Hand], fields: Sequence[str]) -> None:
    """UPDATE `fields` of each hand, one statement run for all of them. bulk_update builds
    one CASE over every row, whose compiling costs more than the writes, and a rescore runs
    under the write lock (SQLite: of the whole database)."""
    columns = [Hand._meta.get_field(name) for name in fields]
    quote = connection.ops.quote_name
    assignments = ", ".join(f"{quote(column.column)} = %s" for column in columns)
    key = quote(Hand._meta.pk.column)
    sql = f"UPDATE {quote(Hand._meta.db_table)} SET {assignments} WHERE {key} = %s"
    with connection.cursor() as cursor:
        cursor.executemany(
            sql,
            [
                [c.get_db_prep_save(getattr(hand, c.attname), connection) for c in columns]
                + [hand.pk]
                for hand in hands
            ],
        )


def running_before_making_rows(
    session: Session, sheet: Sheet, number: int | None = None
) -> Running:
    """running_before, for a write holding the session's lock: where a hand has no row (stored
    before rows were kept) the session's rows are made first. A stored hand the engine rejects
    then raises RulesError, as a replay of the whole sheet would."""
    try:
        return running_before(session, sheet, number)
    except Unscored:
        rescore(session, 1)
        return running_before(session, sheet, number)


def closing(session: Session) -> dict[str, Any]:
    """What closing adds to the session's sheet, from where it stands after its last hand:
    the closing lines (end-of-session radelc penalties), totals and settlement. The caller
    holds the session's lock (a hand without a row gets one first)."""
    table = engine_sheet(session)
    sheet = rules.evaluate(
        table.variant,
        table.rules,
        table.players,
        [],
        True,
        running_before_making_rows(session, table),
    )
    return {
        "lines": [stored_line(line) for line in sheet.closing],
        "totals": dict(sheet.totals),
        "settlement": sheet.settlement.to_json(),
    }


def refresh_closing(session: Session) -> None:
    """A closed session's hands changed (an admin): its closing follows. The change itself is
    in the hand's history; this derived copy gets no history row of its own."""
    session.closing = closing(session)
    Session.objects.filter(pk=session.pk).update(closing=session.closing)
