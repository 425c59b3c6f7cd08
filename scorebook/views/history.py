"""What changed in a session and who changed it: for the club's admins."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.shortcuts import render

from scorebook import sheets
from scorebook.access import club_view, get_for_club
from scorebook.models import Role, Session

HISTORY_PAGE = 50


@club_view(role=Role.ADMIN)
def session_history(request, session):
    session = get_for_club(Session, request.club, pk=session)
    # get_page answers any ?page= with a page: not a number gives the first, out of range the last.
    page = Paginator(sheets.session_history(session), HISTORY_PAGE).get_page(
        request.GET.get("page")
    )
    return render(
        request,
        "scorebook/session_history.html",
        {
            "club": request.club,
            "session": session,
            "page": page,
            "variant_label": session.variant_label,  # the subtitle
        },
    )
