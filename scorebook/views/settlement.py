"""The settlement of a session: totals with the closing penalties, and who pays whom."""

from __future__ import annotations

from django.shortcuts import render

from scorebook import hands
from scorebook.access import club_view, get_for_club
from scorebook.models import Role, Session
from scorebook.templatetags.amounts import amount
from scorebook.views.paper import share_text


@club_view(role=Role.VIEWER)
def session_settlement(request, session):
    session = get_for_club(Session, request.club, pk=session)
    sheet = hands.session_sheet(session, closed=True)
    players = list(sheet.players)
    return render(
        request,
        "scorebook/settlement.html",
        {
            "club": request.club,
            "session": session,
            "rows": [(name, sheet.totals[name], sheet.settlement.nets[name]) for name in players],
            "closing": [
                (line.text, ", ".join(f"{name} {amount(a)}" for name, a in line.amounts.items()))
                for line in sheet.closing
            ],
            "transfers": sheet.settlement.transfers,
            "share_text": share_text(session, sheet),  # the share part (views/paper.py)
            "variant_label": session.variant_label,  # the subtitle
        },
    )
