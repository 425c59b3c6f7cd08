"""The session on paper: a printable sheet laid out like the club's, and the result as text.

The printable sheet is read from each hand's stored row (amounts, note, running totals and what
the game carries after it: radelci), as the sheet page is; its foot (the closing lines, the
totals and who pays whom) is the settlement's, from the engine's sheet. `share_text` is the
settlement as a scorekeeper pastes it into a chat.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from django.shortcuts import render
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from scorebook import hands
from scorebook.access import club_view, get_for_club
from scorebook.models import Role, Session
from scorebook.templatetags.amounts import amount

# About what one A4 page of the club's paper holds; the print stylesheet keeps it on one page.
HANDS_PER_PAGE = 40


class Cell(NamedTuple):
    amount: Any  # None: the player sat this hand out
    total: Any
    gained: range  # what the hand gained of the carried state (radelci: circles)
    used: range  # what it used of it (crossed circles)


class PaperRow(NamedTuple):
    number: int
    note: str
    cells: list[Cell] | None  # None: voided, or not scored


def paper_rows(
    stored: Iterable[hands.StoredRow], names: Sequence[str]
) -> tuple[list[PaperRow], dict[str, int]]:
    """Each hand's row on paper, and what each player holds of the carried state (radelci)
    after the last one. One gained shows as a circle where a player's count went up, one used
    as a crossed circle where it went down (a radelc is used up by a won hand)."""
    out: list[PaperRow] = []
    held: dict[str, int] = {}
    for row in stored:
        if row.voided:
            note = _("voided: %(reason)s") % {"reason": row.void_reason}
            out.append(PaperRow(row.number, note, None))
        elif row.amounts is None:
            out.append(PaperRow(row.number, _("not scored"), None))
        else:
            out.append(PaperRow(row.number, row.note_text, _cells(row, names, held)))
            held = {name: row.held.get(name, held.get(name, 0)) for name in names}
    return out, held


def _cells(row: hands.StoredRow, names: Sequence[str], held: Mapping[str, int]) -> list[Cell]:
    cells = []
    for name in names:
        change = row.held.get(name, held.get(name, 0)) - held.get(name, 0)
        cells.append(
            Cell(
                row.amounts.get(name),
                row.totals.get(name, 0),
                range(max(change, 0)),
                range(max(-change, 0)),
            )
        )
    return cells


def _heading(session: Session, game: hands.Game) -> str:
    parts = [game.label, session.table_name, date_format(session.date, "SHORT_DATE_FORMAT")]
    return " · ".join(part for part in parts if part)


def share_text(session: Session, sheet: Any) -> str:
    """The settlement as plain text for a chat: the totals, the closing lines, who pays whom
    (`sheet`: the session's sheet as the pipeline replays it, hands.session_sheet)."""
    lines = [_heading(session, hands.game(session))]
    if not session.is_closed:
        lines.append(_("if the session closed now"))
    lines.append("")
    for line in sheet.closing:
        amounts = ", ".join(f"{name} {_number(value)}" for name, value in line.amounts.items())
        lines.append(f"{line.text}: {amounts}")
    if sheet.closing:
        lines.append("")
    lines.append(_("Totals"))
    for name in sheet.players:
        lines.append(
            _("%(player)s %(total)s (net %(net)s)")
            % {
                "player": name,
                "total": _number(sheet.totals[name]),
                "net": _number(sheet.settlement.nets[name]),
            }
        )
    lines.append("")
    lines.append(_("Who pays whom"))
    for t in sheet.settlement.transfers:
        lines.append(
            _("%(payer)s pays %(payee)s %(amount)s")
            % {"payer": t.payer, "payee": t.payee, "amount": _number(t.amount)}
        )
    if not sheet.settlement.transfers:
        lines.append(_("Nobody owes anybody anything."))
    return "\n".join(lines)


def _number(value: Any) -> str:
    """As the settlement page writes it: "−12", "40,50" in French."""
    return amount(value)


@club_view(role=Role.VIEWER)
def sheet_print(request, session):
    session = get_for_club(Session, request.club, pk=session)
    game = hands.game(session)
    names = list(session.seat_names)
    rows, held = paper_rows(hands.stored_rows(session), names)
    pages = [rows[i : i + HANDS_PER_PAGE] for i in range(0, len(rows), HANDS_PER_PAGE)] or [[]]
    sheet = hands.session_sheet(session, closed=True)
    return render(
        request,
        "scorebook/sheet_print.html",
        {
            "club": request.club,
            "session": session,
            "heading": _heading(session, game),
            "names": names,
            "columns": 2 + len(names),
            "pages": pages,
            "carried": game.carried,
            "held": [range(held.get(name, 0)) for name in names],
            "closing": [
                (line.text, [line.amounts.get(name) for name in names]) for line in sheet.closing
            ],
            "totals": [sheet.totals[name] for name in names],
            "settlement": [
                (name, sheet.totals[name], sheet.settlement.nets[name]) for name in names
            ],
            "transfers": sheet.settlement.transfers,
        },
    )
