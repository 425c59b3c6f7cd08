"""The server's side of a phone at a table without signal (issue 15): the answers a phone's
outbox reads, the page that keeps a hand typed into a form whose CSRF token has expired, the
manifest that makes the site an installable app (its service worker: views/worker.py). (The QR
code that opens a sheet on another phone is the sheet's own: templatetags/join.py.)

A hand saved while offline waits in the phone's outbox (static/scorebook/outbox/) and is sent
later with the header ``X-Scorebook-Outbox: 1``: such a request is answered with JSON, never
with a redirect or a page, its `status` one of the words of scorebook/outbox.py, so that the
sender can tell "recorded" from every reason to keep the hand.
"""

from __future__ import annotations

from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.views import LogoutView, redirect_to_login
from django.http import JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import Resolver404, resolve, reverse
from django.utils import translation
from django.utils.translation import gettext as _

from scorebook.context_processors import key_of
from scorebook.language import supported
from scorebook.outbox import Status

OUTBOX_HEADER = "X-Scorebook-Outbox"
USER_HEADER = "X-Scorebook-User"  # whose hand: the key of the page that saved it
UNAUTHORIZED = 401
FORBIDDEN = 403
CONFLICT = 409

# The views whose POST is a hand typed at the table: a CSRF failure there keeps the fields.
HAND_SAVES = frozenset({"scorebook:hand_new", "scorebook:hand_edit", "scorebook:hand_void"})
HAND_PREVIEW = "scorebook:hand_preview"

THEME_COLOR = "#0172ad"  # Pico's primary blue: the app's bar is the site's own colour
BACKGROUND_COLOR = "#ffffff"


# --- Answers to the outbox ----------------------------------------------------------------


def is_outbox(request) -> bool:
    """Whether the phone's outbox sent this request (it reads JSON answers only)."""
    return request.headers.get(OUTBOX_HEADER) == "1"


def outbox_answer(status_code: int, status: Status, message: str, **extra: Any) -> JsonResponse:
    """An answer to the outbox: its `status` word and the reason in words, to show with the
    hand it keeps."""
    return JsonResponse({"status": status, "message": message, **extra}, status=status_code)


def outbox_login(view):
    """A hand is sent only under the login of the person who saved it. An expired login
    answers the outbox with 401 and the login address: a redirect to the login page would look
    like a success to a fetch that follows it. Pages keep the redirect. Another person's login
    (one browser shared: a login in one tab is every tab's) answers 409 "other-user": the hand
    names whose it is (USER_HEADER, the saving page's user key) and waits for that person."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not is_outbox(request):
            return view(request, *args, **kwargs)
        login = redirect_to_login(request.get_full_path())["Location"]
        if not request.user.is_authenticated:
            message = _("You are logged out: log in again and the hand is sent.")
            return outbox_answer(UNAUTHORIZED, Status.LOGIN, message, login=login)
        saved_by = request.headers.get(USER_HEADER)
        # No header: an outbox script from before it was sent (a page open over a deploy).
        if saved_by is not None and saved_by != key_of(request.user):
            message = _(
                "This hand was saved on this phone by someone else: it is sent when they log in."
            )
            return outbox_answer(CONFLICT, Status.OTHER_USER, message, login=login)
        return view(request, *args, **kwargs)

    return wrapper


# --- CSRF failure: an expired page keeps what was typed -----------------------------------


def csrf_failure(request, reason: str = ""):
    """CSRF_FAILURE_VIEW. A phone left idle at the table, or logged in again meanwhile, posts
    a hand with an expired token: the typed fields come back in a form with a fresh token, to
    send again with one tap. Only for a hand form of this site posted from this site's page:
    a request from another site is shown a plain message, never a button that would send its
    fields."""
    if is_outbox(request):
        message = _("The page had expired; open the hand form again to send this hand.")
        return outbox_answer(FORBIDDEN, Status.CSRF, message)
    view_name, kwargs = _resolved(request)
    from_here = _from_this_site(request)
    if view_name == HAND_PREVIEW and request.htmx and from_here:
        return _expired_preview(request)
    context: dict[str, Any] = {"back": _back(request)}
    if view_name in HAND_SAVES and from_here:
        context.update(
            fields=[
                (name, value)
                for name, values in request.POST.lists()
                if name != "csrfmiddlewaretoken"
                for value in values
            ],
            action=request.get_full_path(),
            sheet_url=reverse(
                "scorebook:sheet", kwargs={"club": kwargs["club"], "session": kwargs["session"]}
            ),
        )
    return render(request, "scorebook/csrf_failure.html", context, status=FORBIDDEN)


def _resolved(request) -> tuple[str, dict[str, Any]]:
    try:
        match = resolve(request.path_info)
    except Resolver404:
        return "", {}
    return match.view_name, match.kwargs


def _this_site(request) -> str:
    return f"{request.scheme}://{request.get_host()}"


def _from_this_site(request) -> bool:
    """Whether the browser says the request came from a page of this very site: an Origin
    equal to this site's (or a trusted one), or, where a browser sends no Origin, a Referer
    on this site. Compared as strings: `Origin: null` (a sandboxed frame, a data: page) is
    no page of this site, though a URL check would read it as a relative address."""
    origin = request.headers.get("Origin")
    if origin is not None:
        return origin == _this_site(request) or origin in settings.CSRF_TRUSTED_ORIGINS
    return _on_this_site(request.headers.get("Referer"), request)


def _on_this_site(url: str | None, request) -> bool:
    return bool(url) and url.startswith(_this_site(request) + "/")


def _back(request) -> str:
    """Where "back" leads: the page the request came from, if it is this site's."""
    referer = request.headers.get("Referer")
    return referer if _on_this_site(referer, request) else reverse("scorebook:my_clubs")


def _expired_preview(request):
    """The live score of a form whose token expired: said in the score's own box (the htmx
    request's own target is left alone, so no typed field is replaced)."""
    message = _(
        "This page has expired, so the score cannot be shown. "
        "Save the hand: what you typed is kept."
    )
    response = render(
        request,
        "scorebook/hand_result.html",
        {"preview": {"problems": [message]}, "oob": True},
        status=FORBIDDEN,
    )
    response["HX-Reswap"] = "none"
    return response


# --- The installable app -------------------------------------------------------------------


def manifest(request):
    """The web app manifest: Scorebook installed on a phone's home screen, opening on the
    user's clubs, without the browser's bars."""
    icons = [{"src": static("scorebook/icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"}]
    icons += [
        {
            "src": static(f"scorebook/icons/icon-{size}.png"),
            "sizes": f"{size}x{size}",
            "type": "image/png",
        }
        for size in (192, 512)
    ]
    icons.append(
        {
            "src": static("scorebook/icons/icon-maskable-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        }
    )
    data = {
        "id": "/",
        "name": _("Scorebook"),
        "short_name": _("Scorebook"),
        "description": _("The score of a tarock table, kept on a phone."),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "icons": icons,
    }
    return JsonResponse(data, content_type="application/manifest+json")


# What a page for anybody shows of the user: nothing. The worker keeps the offline page for
# every user of the phone; it must not carry a name, a token or a message meant for one, and
# it names nobody (no data-user: not even "logged out", which would tell the worker so). Nor
# does its header: a "Log in" there would tell whoever is logged in that he is not
# (`for_anybody`, templates/base.html).
FOR_ANYBODY = {
    "for_anybody": True,
    "user": AnonymousUser(),
    "user_key": None,
    "user_name": "",
    "login_expires": None,
    "csrf_token": "",
    "messages": (),
}


def offline(request):
    """The page the service worker shows for a page it has no copy of. In the language `?lang=`
    names: the worker fetches it without cookies (it is nobody's), one copy for each language
    the phone's pages spoke, and shows the one of the last page."""
    code = supported(request.GET.get("lang")) or translation.get_language()
    with translation.override(code):
        response = render(request, "scorebook/offline.html", FOR_ANYBODY)
    response["Content-Language"] = code
    return response


class ClearingLogoutView(LogoutView):
    """Logging out also tells the browser to drop its cached pages of this user."""

    def post(self, request, *args, **kwargs):
        response = super().post(request, *args, **kwargs)
        response["Clear-Site-Data"] = '"cache"'
        return response
