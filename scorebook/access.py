"""The one place where roles are checked. Every club view is wrapped in `club_view`."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_http_methods

from scorebook.hands.session import member_and_seated_session
from scorebook.language import speak_the_clubs
from scorebook.models import Club, Membership, Role


def club_view(
    role: str = Role.VIEWER,
    methods: tuple[str, ...] = ("GET", "HEAD"),
    seated: Callable[[HttpRequest], bool] | bool = False,
) -> Callable:
    """Load the club of the URL's `club` slug for a member with at least `role`.

    Anonymous users go to the login page. A club the user is not a member of answers 404, as
    if it did not exist. A member whose role is too low gets 403: the club is visible to him,
    the action is not his. The view gets `request.club` and `request.membership`; `seated`
    (a view of the URL's `session`): also `request.seated`, that session with its seats, read
    in the same statement as the membership (None when it was not found so); a callable:
    for the requests it says yes to.
    """

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @require_http_methods(list(methods))
        @wraps(view)
        def wrapper(request: HttpRequest, club: str, *args, **kwargs) -> HttpResponse:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            wanted = seated(request) if callable(seated) else seated
            membership = _membership(request, club, kwargs.get("session") if wanted else None)
            if membership is None:
                raise Http404
            if not membership.has_role(role):
                raise PermissionDenied
            request.club = membership.club
            request.membership = membership
            return view(request, *args, **kwargs)

        wrapper.required_role = role  # the role matrix test reads it
        return wrapper

    return decorator


def _membership(request: HttpRequest, club: str, session: int | None) -> Membership | None:
    """The member's membership, and with a `session`, that session with its seats
    (`request.seated`) in the same statement when it has them."""
    found = None if session is None else member_and_seated_session(request.user, club, session)
    request.seated = None if found is None else found[1]
    if found is None:
        return membership_of(request, club)
    speak_the_clubs(request, found[0].club)
    return found[0]


def membership_of(request: HttpRequest, club: str) -> Membership | None:
    """The signed-in user's membership of the club with this slug (club loaded), or None.
    Found, the page speaks the club's language to a member who chose none: the lookup every
    club page makes is the one that brings it (scorebook.language)."""
    membership = (
        Membership.objects.select_related("club").filter(user=request.user, club__slug=club).first()
    )
    if membership is not None:
        speak_the_clubs(request, membership.club)
    return membership


def get_for_club(model, club: Club, **lookup):
    """An object of `club` or 404: another club's object looks like no object at all.

    The object keeps `club` as its club, so reading `obj.club` costs no second query.
    """
    try:
        found = model.objects.get(club=club, **lookup)
    except model.DoesNotExist as exc:
        raise Http404 from exc
    found.club = club
    return found


def can_change_closed(membership: Membership) -> bool:
    """Whether the member may change a closed session's hands: an admin (RULES.md §7)."""
    return membership.has_role(Role.ADMIN)


def can_change_hands(membership: Membership, session) -> bool:
    """Whether the member may record, edit or void the session's hands now."""
    return membership.has_role(Role.SCOREKEEPER) and (
        not session.is_closed or can_change_closed(membership)
    )
