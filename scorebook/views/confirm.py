"""Destructive one-tap actions ask first: GET shows the question, POST does it.

A view that closes, cancels, starts or removes something takes GET and POST and begins with

    if request.method != "POST":
        return confirm_page(request, _("Close this session?"), _("Close"), back_url)

The page is a plain form that posts to the same address: no JavaScript, so a strict CSP and a
phone without scripts both work, and a link or a prefetch never does the action.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

ASK = ("GET", "HEAD", "POST")  # the methods of a view that asks first


def confirm_page(
    request: HttpRequest,
    question: str,
    action: str,
    back_url: str,
    *,
    detail: str = "",
    context: dict | None = None,
) -> HttpResponse:
    """The question with [action] (POST to this address) and [Back] (to `back_url`).
    `context` carries what base.html shows around it (the club for its header)."""
    page = {
        "question": question,
        "detail": detail,
        "action": action,
        "back_url": back_url,
        **(context or {}),
    }
    if "club" not in page and hasattr(request, "club"):
        page["club"] = request.club
    return render(request, "scorebook/confirm.html", page)
