"""Between rounds (RULES.md §8.2): a player withdraws, and a substitute may take his place.

A withdrawn player is not seated again; he ranks on the rounds he played, marked withdrawn.
The substitute is a walk-in or a roster player who is not registered: in an individual
tournament he ranks as himself from that round on; in a team tournament his results count
for the withdrawn player's team (he joins it).
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from scorebook import roster
from scorebook.errors import ServiceError
from scorebook.models import Player
from scorebook.tournaments.models import Event, Registration, Status, Tournament
from scorebook.tournaments.services.common import clock, locked
from scorebook.tournaments.services.day import _record
from scorebook.tournaments.services.drawing import replace_table
from scorebook.tournaments.services.rounds import current_round, hands_played


def withdraw(
    registration: Registration,
    substitute: Player | None = None,
    name: str = "",
    user=None,
    now=None,
) -> Registration | None:
    """Withdraw `registration`; seat `substitute` (a roster player) or a new `name` in his
    place. Returns the substitute's registration, or None."""
    now = clock(now)
    with transaction.atomic():
        tournament = locked(registration.tournament)
        registration = Registration.objects.select_for_update().get(pk=registration.pk)
        _check_withdrawable(tournament, registration)
        placement = _waiting_seat(tournament, registration)
        sub = None
        if substitute is not None or name:
            sub = _substitute(tournament, registration, substitute, name, now)
        elif placement is not None:
            raise ServiceError(
                _("His table has not begun: seat a substitute in his place, or let him play.")
            )
        rnd = current_round(tournament)
        registration.withdrawn_at = now
        registration.withdrawn_after = rnd.number - (1 if placement is not None else 0)
        registration.save(update_fields=["withdrawn_at", "withdrawn_after"])
        _record(tournament, Event.Kind.WITHDRAWN, None, now, user, [registration])
        if sub is not None:
            if placement is not None:  # the substitute takes his seat at once
                _seat_instead(tournament, placement.table, registration, sub, now, user)
            _record(tournament, Event.Kind.SUBSTITUTE, None, now, user, [sub])
    return sub


def _check_withdrawable(tournament: Tournament, registration: Registration) -> None:
    if tournament.status != Status.RUNNING:
        raise ServiceError(_("Players withdraw from a tournament in play."))
    if registration.is_withdrawn:
        raise ServiceError(_("%(name)s has withdrawn already.") % {"name": registration.name})
    if not (registration.is_active and registration.has_place):
        raise ServiceError(_("%(name)s does not play.") % {"name": registration.name})
    if tournament.is_knockout:
        raise ServiceError(_("A knockout has no substitutes: the match is lost."))


def _waiting_seat(tournament: Tournament, registration: Registration):
    """His seat in the current round at a table that has no hand yet, or None (he plays the
    round out, or sits it out)."""
    rnd = current_round(tournament)
    placement = rnd.placements.filter(registration=registration).exclude(table=None).first()
    if placement is None or placement.table.finished_at is not None:
        return None
    return placement if hands_played(placement.table.session) == 0 else None


def _substitute(tournament, withdrawn, player, name, now) -> Registration:
    """The substitute's registration: a walk-in (a new name) or a roster player who is not
    registered; in a team tournament he joins the withdrawn player's team."""
    if player is None:
        player = roster.add_player(club=tournament.club, name=name)
    elif player.club_id != tournament.club_id:
        raise ServiceError(_("Pick a player of the club's roster."), "player")
    registered = tournament.registrations.filter(cancelled_at=None)
    if registered.filter(Q(player=player) | Q(user__isnull=False, user_id=player.user_id)).exists():
        raise ServiceError(_("%(name)s is already registered.") % {"name": player.name}, "player")
    sub, _created = Registration.objects.update_or_create(
        tournament=tournament,
        player=player,
        defaults={
            "user": None,
            "registered_at": now,
            "confirmed_at": now,
            "cancelled_at": None,
            "absent": False,
            "has_place": True,
            "substitute_for": withdrawn,
            "team": withdrawn.team,
        },
    )
    return sub


def _seat_instead(tournament, table, withdrawn, sub, now, user) -> None:
    group = [p.registration for p in table.placements.select_related("registration__player")]
    group = [sub if r.pk == withdrawn.pk else r for r in group]
    replace_table(tournament, table, group, now, user)


def substitute_choices(tournament: Tournament):
    """Roster players who may come in: not archived, not registered."""
    registered = tournament.registrations.filter(cancelled_at=None).exclude(player=None)
    return tournament.club.players.filter(archived=False).exclude(
        pk__in=registered.values("player_id")
    )
