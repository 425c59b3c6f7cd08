"""Who sees a series: scorebook.access.club_view, then the series of the URL among those the
club's members see (its own, and those with one of the club's tournaments in): another club's
series answers 404, as if it did not exist. What only the series' admins do (its settings,
seasons, matches, the import, the season's end) needs the series' own club: a member of a
club that only plays in it gets 403 there.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from scorebook.access import club_view
from scorebook.models import Player, Role
from scorebook.series import people, services
from scorebook.series.models import Series, SeriesSeason


def series_view(
    role: str = Role.VIEWER, methods: tuple[str, ...] = ("GET", "HEAD"), own: bool = False
) -> Callable:
    """Load the URL's series for a member of a club that sees it. `own`: only the series'
    club's members (with `role`) act. The view gets `request.series` (its club loaded)."""

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @club_view(role=role, methods=methods)
        @wraps(view)
        def wrapper(request: HttpRequest, series: int, *args, **kwargs) -> HttpResponse:
            found = services.visible_to(request.club).filter(pk=series).first()
            if found is None:
                raise Http404
            if own and found.club_id != request.club.pk:
                raise PermissionDenied
            request.series = found
            return view(request, *args, **kwargs)

        return wrapper

    return decorator


def season_of(request: HttpRequest, season: int) -> SeriesSeason:
    return get_object_or_404(request.series.seasons.select_related("series__club"), pk=season)


def player_of(request: HttpRequest, player: int) -> Player:
    """A roster player of one of the series' clubs, or one the series knows (imported, say, of
    a club whose tournament has left since); any other is no player of this series."""
    found = get_object_or_404(Player.objects.select_related("club"), pk=player)
    if found.club_id in services.clubs_of(request.series):
        return found
    if found.pk in people.universe(request.series).players:
        return found
    raise Http404


def is_series_admin(request: HttpRequest, series: Series) -> bool:
    return series.club_id == request.club.pk and request.membership.has_role(Role.ADMIN)
