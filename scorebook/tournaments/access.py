"""Who sees a tournament: scorebook.access.club_view, widened for tournaments open to all.

A tournament open to "any registered user" must be reachable by people who are not members of
the club, so its pages cannot sit behind club_view alone. Members go through exactly the
checks of club_view (the same `membership_of` lookup and `has_role`); a logged-in non-member sees a
tournament only when it is open to all; otherwise — and for another club's tournament — 404.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_http_methods

from scorebook.access import get_for_club, membership_of
from scorebook.models import Role
from scorebook.tournaments.models import Tournament


def tournament_view(methods: tuple[str, ...] = ("GET", "HEAD")) -> Callable:
    """Load the URL's club and tournament. The view gets `request.tournament`; `request.club`
    and `request.membership` are set for members only (as club_view sets them)."""

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @require_http_methods(list(methods))
        @wraps(view)
        def wrapper(request: HttpRequest, club: str, tournament: int, *args, **kwargs):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            membership = membership_of(request, club)
            if membership is not None:
                found = get_for_club(Tournament, membership.club, pk=tournament)
                request.club = membership.club
                request.membership = membership
            else:
                found = (
                    Tournament.objects.select_related("club")
                    .filter(club__slug=club, pk=tournament, open_to_all=True)
                    .first()
                )
                if found is None:
                    raise Http404
            request.tournament = found
            return view(request, *args, **kwargs)

        wrapper.required_role = Role.VIEWER  # the role matrix test reads it
        return wrapper

    return decorator
