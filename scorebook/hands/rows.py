"""The one reader of stored rows: what the sheet, the printed sheet and a polling phone read of
each hand, without replaying the session. A row is read once, into a `StoredRow` (amounts as
Decimals, the engine's lines and note as words, the running state after it); nobody else reads
a row's JSON."""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.db.models import Exists, OuterRef, Subquery

import rules
from rules import note_text
from rules.model import Amount
from rules.scoring import Running, amount_of
from rules.words import Phrase, phrase_from_json, phrase_text
from scorebook.hands.scoring import AMOUNTS, DEALT_BY, LINES, NOTE, RUNNING
from scorebook.models import Club, Hand, Session


def line_text(stored: list[Any]) -> str:
    """A stored line's words in the reader's language."""
    return phrase_text(phrase_from_json(stored[0]))


def stored_note_text(stored: list[Any]) -> str:
    """A stored row's paper note in the reader's language."""
    return note_text(phrase_from_json(stored))


class StoredLine(NamedTuple):
    """One of the engine's lines as a row keeps it: its words, and who gets what."""

    words: Phrase
    amounts: Mapping[str, Amount]

    @property
    def text(self) -> str:
        """The line's words in the reader's language."""
        return phrase_text(self.words)

    @classmethod
    def read(cls, stored: list[Any]) -> StoredLine:
        words, amounts = stored
        return cls(phrase_from_json(words), {name: amount_of(a) for name, a in amounts.items()})


class StoredRow(NamedTuple):
    """One hand's stored row as the sheet reads it."""

    number: int
    voided: bool
    void_reason: str
    # Where the sheet stands after the hand; None: no row was stored (a hand stored before rows
    # were kept, which the migration could not score).
    running: Running | None
    # What each player dealt in got; None: the hand is voided, or has no row.
    amounts: Mapping[str, Amount] | None = None
    lines: tuple[StoredLine, ...] = ()
    note: Phrase = ()
    dealer: str = ""
    # What the sheet shows of the state carried after the hand: each player's count
    # (Variant.held: the radelci he holds).
    held: Mapping[str, int] = {}

    @property
    def totals(self) -> Mapping[str, Amount]:
        """The running totals after the hand (none before any row was stored)."""
        return {} if self.running is None else self.running.totals

    @property
    def note_text(self) -> str:
        """The row's paper note in the reader's language."""
        return note_text(self.note)


def read_row(
    number: int, voided: bool, void_reason: str, score: Mapping[str, Any], variant: rules.Variant
) -> StoredRow:
    """A hand's stored row (`Hand.score`, as scoring.row_score wrote it) read once."""
    if RUNNING not in score:
        return StoredRow(number, voided, void_reason, None)
    running = Running.from_json(score[RUNNING])
    held = variant.held(running.carry)  # a voided hand's too: the rows after it go on from it
    if AMOUNTS not in score:
        return StoredRow(number, voided, void_reason, running, held=held)
    return StoredRow(
        number,
        voided,
        void_reason,
        running,
        {name: amount_of(a) for name, a in score[AMOUNTS].items()},
        tuple(StoredLine.read(line) for line in score[LINES]),
        phrase_from_json(score[NOTE]),
        score[DEALT_BY],
        held,
    )


class StoredClosing(NamedTuple):
    """What a closed session stored of its closing: the closing lines (radelc penalties) and
    the totals after them."""

    lines: tuple[StoredLine, ...]
    totals: Mapping[str, Amount]


def stored_closing(session: Session) -> StoredClosing | None:
    """The closing a closed session stored (scorebook.hands.rescoring.closing); None for an
    open one."""
    if not (session.is_closed and session.closing):
        return None
    stored = session.closing
    totals = {name: amount_of(total) for name, total in stored["totals"].items()}
    return StoredClosing(tuple(StoredLine.read(line) for line in stored["lines"]), totals)


# What the sheet reads of a hand: number, voided, void reason, stored row.
SHEET_FIELDS = ("number", "voided", "void_reason", "score")


def stored_rows(session: Session) -> list[StoredRow]:
    """Each hand's stored row, in order: what a sheet shows, read without replaying the
    session."""
    return latest_rows(session).rows


@dataclass(frozen=True)
class SheetPart:
    """Rows of a session's sheet in number order, read in one statement with what a phone
    polling the sheet compares: the sheet page shows the latest of them, a poll those changed."""

    rows: list[StoredRow]
    # The stored row of the hand before the first of `rows` (None: they start at hand 1): the
    # totals and the radelci held that they continue from.
    before: StoredRow | None
    # When a hand of the session last changed (None: it has none) and its last hand's number.
    changed: datetime.datetime | None = None
    last: int = 0


def _read(session: Session, hands, limit: int | None = None, **more) -> tuple[list[StoredRow], Any]:
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
    variant = rules.get_variant(session.variant)
    rows = [read_row(*row[: len(SHEET_FIELDS)], variant) for row in found]
    return rows, list(found[0][len(SHEET_FIELDS) :])


def latest_rows(session: Session, count: int | None = None) -> SheetPart:
    """The session's last `count` rows (None: all of them): what the sheet page opens on and
    a save answers with, the same size however long the evening."""
    if count is None:
        rows, (changed,) = _read(session, session.hands.order_by("number"))
    else:
        rows, (changed,) = _read(session, session.hands.order_by("-number"), count + 1)
        rows.reverse()
    before = rows.pop(0) if count is not None and len(rows) > count else None
    return SheetPart(rows, before, changed, rows[-1].number if rows else 0)


def part_after(new: Hand, earlier: list[Hand], count: int) -> SheetPart:
    """The latest `count` rows of a sheet whose newest hand `new` was just stored, from the
    session's hands before it that the save read (`earlier`, newest first, at least `count`
    of them when the session has so many): what latest_rows would read afresh, read by nobody
    again. No hand of the session changed after the new one: the save held its lock."""
    variant = rules.get_variant(new.session.variant)
    hands = [new, *earlier[:count]]
    rows = [read_row(*(getattr(hand, name) for name in SHEET_FIELDS), variant) for hand in hands]
    rows.reverse()
    before = rows.pop(0) if len(rows) > count else None
    return SheetPart(rows, before, new.changed_at, new.number)


def rows_before(session: Session, number: int) -> SheetPart:
    """The rows of the hands before hand `number`: the older rows a phone asks for."""
    older = session.hands.filter(number__lt=number).order_by("number")
    variant = rules.get_variant(session.variant)
    return SheetPart([read_row(*row, variant) for row in older.values_list(*SHEET_FIELDS)], None)


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
    before = rows.pop(0) if rows and rows[0].number < first_changed else None
    if len(rows) > limit:
        return None
    return SheetPart(rows, before, changed, rows[-1].number if rows else 0)
