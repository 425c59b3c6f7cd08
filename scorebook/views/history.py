"""What changed in a session and who changed it: for the club's admins."""

from __future__ import annotations

from django.shortcuts import render

from scorebook import sheets
from scorebook.access import club_view, get_for_club
from scorebook.models import Role, Session


@club_view(role=Role.ADMIN)
def session_history(request, session):
    session = get_for_club(Session, request.club, pk=session)
    return render(
        request,
        "scorebook/session_history.html",
        {"club": request.club, "session": session, "changes": sheets.session_history(session)},
    )
