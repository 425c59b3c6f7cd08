"""A closed session's sheet as a public page shows it: every name through the page's Naming, no
void reason, no note, no link to change anything. Read from the stored rows (scorebook.hands),
never by replaying the session."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from rules.scoring import amount_of
from scorebook.hands import latest_rows
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
    for number, voided, _reason, score in latest_rows(session).rows:
        if voided or "amounts" not in score:
            rows.append(Row(number, True))
            continue
        rows.append(_row(number, score, order, shown, naming))
    closing = session.closing or {}
    closing_lines = [_line(stored, order, shown, naming) for stored in closing.get("lines", [])]
    totals = [amount_of(closing.get("totals", {}).get(name, 0)) for name in order]
    if not closing.get("totals") and rows:
        totals = next((r.totals for r in reversed(rows) if not r.voided), totals)
    return PublicSheet([shown[name] for name in order], rows, closing_lines, totals)


def _row(number: int, score: dict, order: list[str], shown: dict, naming: Naming) -> Row:
    amounts, running = score["amounts"], score["running"]["totals"]
    dealer = score.get("dealer") or ""
    return Row(
        number,
        False,
        [amount_of(amounts[name]) if name in amounts else None for name in order],
        [amount_of(running.get(name, 0)) for name in order],
        naming.note(score.get("note") or [], shown),
        [_line(stored, order, shown, naming) for stored in score.get("lines", [])],
        shown.get(dealer, ""),
    )


def _line(stored: list, order: list[str], shown: dict, naming: Naming) -> Line:
    words, amounts = stored[0], stored[1]
    return Line(
        naming.line(words, shown),
        [(shown[name], amount_of(amounts[name])) for name in order if name in amounts],
    )


def totals_by_name(session: Session, naming: Naming) -> list[tuple[str, Decimal]]:
    """A closed session's totals, each with the name the page shows, in seat order."""
    seated = session.seat_names
    shown = naming.seats(seated)
    totals = (session.closing or {}).get("totals", {})
    return [(shown[name], amount_of(totals.get(name, 0))) for name in seated]
