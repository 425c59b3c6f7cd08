"""A closed session's sheet as a public page shows it: every name through the page's Naming, no
void reason, no note, no link to change anything. Read from the stored rows (scorebook.hands),
never by replaying the session."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from scorebook.hands import StoredLine, StoredRow, latest_rows, stored_closing
from scorebook.models import Session
from scorebook.public.naming import Naming


@dataclass
class Line:
    text: str
    amounts: list[tuple[str, Any]]  # (name shown, amount) of the players the line pays


@dataclass
class Row:
    number: int
    voided: bool
    amounts: list[Any] = field(default_factory=list)  # one per seat, None: not dealt in
    totals: list[Any] = field(default_factory=list)
    note: str = ""
    lines: list[Line] = field(default_factory=list)
    dealer: str = ""


@dataclass
class PublicSheet:
    names: list[str]
    rows: list[Row]
    closing: list[Line]
    totals: list[Any]


def public_sheet(session: Session, naming: Naming) -> PublicSheet:
    seated = session.seat_names  # name at the table -> player id, in seat order
    shown = naming.seats(seated)
    order = list(seated)
    rows = []
    for row in latest_rows(session).rows:
        if row.voided or row.amounts is None:
            rows.append(Row(row.number, True))
            continue
        rows.append(_row(row, order, shown, naming))
    closing = stored_closing(session)
    closing_lines = (
        [] if closing is None else [_line(line, order, shown, naming) for line in closing.lines]
    )
    totals = [Decimal(0)] * len(order)
    if closing is not None:
        totals = [closing.totals.get(name, Decimal(0)) for name in order]
    elif rows:
        totals = next((r.totals for r in reversed(rows) if not r.voided), totals)
    return PublicSheet([shown[name] for name in order], rows, closing_lines, totals)


def _row(row: StoredRow, order: list[str], shown: dict, naming: Naming) -> Row:
    return Row(
        row.number,
        False,
        [row.amounts.get(name) for name in order],
        [row.totals.get(name, Decimal(0)) for name in order],
        naming.note(row.note, shown),
        [_line(line, order, shown, naming) for line in row.lines],
        shown.get(row.dealer, ""),
    )


def _line(line: StoredLine, order: list[str], shown: dict, naming: Naming) -> Line:
    return Line(
        naming.line(line.words, shown),
        [(shown[name], line.amounts[name]) for name in order if name in line.amounts],
    )


def totals_by_name(session: Session, naming: Naming) -> list[tuple[str, Decimal]]:
    """A closed session's totals, each with the name the page shows, in seat order."""
    seated = session.seat_names
    shown = naming.seats(seated)
    closing = stored_closing(session)
    totals = {} if closing is None else closing.totals
    return [(shown[name], totals.get(name, Decimal(0))) for name in seated]
