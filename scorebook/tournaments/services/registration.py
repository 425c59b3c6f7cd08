"""Registration (RULES.md §8): signing up, the waiting list, walk-ins at the door, and the
confirmation of presence in the quarter of an hour before the start."""

from __future__ import annotations

import datetime

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.formats import time_format
from django.utils.translation import gettext as _

from scorebook import roster
from scorebook.errors import ServiceError
from scorebook.models import Membership, Player, account_name
from scorebook.tournaments.models import Registration, Status, Team, Tournament
from scorebook.tournaments.services.common import clock, locked
from scorebook.tournaments.services.plan import has_started

CONFIRMATION_WINDOW = datetime.timedelta(minutes=15)


def registration_closes_at(tournament: Tournament) -> datetime.datetime:
    """When the organiser closes registration; by default at the start."""
    return tournament.registration_closes_at or tournament.starts_at


def confirmation_opens_at(tournament: Tournament) -> datetime.datetime:
    return tournament.starts_at - CONFIRMATION_WINDOW


def registration_is_open(tournament: Tournament, now: datetime.datetime | None = None) -> bool:
    return tournament.status == Status.SCHEDULED and clock(now) < registration_closes_at(tournament)


def confirmation_is_open(tournament: Tournament, now: datetime.datetime | None = None) -> bool:
    now = clock(now)
    return (
        tournament.status == Status.SCHEDULED
        and confirmation_opens_at(tournament) <= now < tournament.starts_at
    )


def may_register(tournament: Tournament, user) -> bool:
    """Members of the club; anybody with an account when the tournament is open to all."""
    if not user.is_authenticated:
        return False
    return (
        tournament.open_to_all
        or Membership.objects.filter(club_id=tournament.club_id, user=user).exists()
    )


def register(
    tournament: Tournament, user, now: datetime.datetime | None = None, team_name: str = ""
) -> Registration:
    """Sign `user` up: a place while there are places, otherwise the waiting list; in a team
    tournament under his team's name."""
    now = clock(now)
    if not may_register(tournament, user):
        raise ServiceError(_("This tournament is for the club's members."))
    with transaction.atomic():
        tournament = locked(tournament)
        if not registration_is_open(tournament, now):
            raise ServiceError(_("Registration for this tournament is closed."))
        registration = tournament.registrations.filter(user=user).first()
        at_the_door = tournament.registrations.filter(cancelled_at=None, player__user=user)
        if (registration is not None and registration.is_active) or at_the_door.exists():
            raise ServiceError(_("You are already registered."))
        _refuse_added_at_the_door(tournament, user)
        placed = tournament.registrations.filter(cancelled_at=None, has_place=True).count()
        if registration is None:
            registration = Registration(tournament=tournament, user=user)
        # Signing up again after cancelling goes to the back of the queue.
        registration.registered_at = now
        registration.cancelled_at = None
        registration.confirmed_at = None
        registration.absent = False
        registration.has_place = placed < tournament.capacity
        registration.team = join_team(tournament, team_name)
        registration.save()
    return registration


MAX_TEAM_NAME = 60


def join_team(tournament: Tournament, name: str) -> Team | None:
    """The team of that name (a new one the first time), refused at "team" when the
    tournament plays in teams and it is full or unnamed (tournament locked)."""
    name = " ".join((name or "").split())
    if not tournament.team_size:
        return None
    if not name or len(name) > MAX_TEAM_NAME:
        raise ServiceError(
            _("Name your team (up to %(n)d characters).") % {"n": MAX_TEAM_NAME}, "team"
        )
    team = tournament.teams.filter(name__iexact=name).first()
    if team is None:
        return Team.objects.create(tournament=tournament, name=name)
    members = team.members.filter(cancelled_at=None, substitute_for=None).count()
    if members >= tournament.team_size:
        raise ServiceError(
            _("%(team)s has its %(n)d players already.") % {"team": team.name, "n": members},
            "team",
        )
    return team


def _promote(tournament: Tournament) -> list[Registration]:
    """Give free places to the waiting list in order of registration (tournament locked)."""
    active = tournament.registrations.filter(cancelled_at=None)
    free = tournament.capacity - active.filter(has_place=True).count()
    promoted = list(active.filter(has_place=False, absent=False)[: max(free, 0)])
    for registration in promoted:
        registration.has_place = True
        registration.save(update_fields=["has_place"])
    return promoted


def cancel_registration(
    registration: Registration, now: datetime.datetime | None = None
) -> Registration:
    """Withdraw before the start; a freed place goes at once to the first one waiting, who
    still has to confirm like everybody else."""
    now = clock(now)
    with transaction.atomic():
        tournament = locked(registration.tournament)
        registration = Registration.objects.select_for_update().get(pk=registration.pk)
        if has_started(tournament, now):
            raise ServiceError(_("The tournament has started; it is too late to cancel."))
        if not registration.is_active:
            raise ServiceError(_("This registration is already cancelled."))
        registration.cancelled_at = now
        registration.has_place = False
        registration.confirmed_at = None
        registration.save(update_fields=["cancelled_at", "has_place", "confirmed_at"])
        _promote(tournament)
    return registration


def add_walk_in(
    tournament: Tournament,
    player: Player | None = None,
    name: str = "",
    now: datetime.datetime | None = None,
    team_name: str = "",
) -> Registration:
    """At the door, until the start: the organiser adds a roster player, or a new name to the
    roster; no account needed. He is here, so his presence is confirmed; he gets a free place,
    or waits like anybody registered after the places ran out."""
    now = clock(now)
    with transaction.atomic():
        tournament = locked(tournament)
        if has_started(tournament, now):
            raise ServiceError(_("The tournament has started: nobody more can join."))
        if player is None:
            _refuse_same_person(
                tournament.registrations.filter(cancelled_at=None), None, "name", name
            )
            player = roster.add_player(club=tournament.club, name=name)
        elif player.club_id != tournament.club_id:
            raise ServiceError(_("Pick a player of the club's roster."), "player")
        active = tournament.registrations.filter(cancelled_at=None)
        if active.filter(Q(player=player) | Q(user__isnull=False, user_id=player.user_id)).exists():
            raise ServiceError(
                _("%(name)s is already registered.") % {"name": player.name}, "player"
            )
        _refuse_same_person(active, player, "player" if name == "" else "name")
        placed = active.filter(has_place=True).count()
        team = join_team(tournament, team_name)
        registration, _created = Registration.objects.update_or_create(
            tournament=tournament,
            player=player,
            defaults={
                "team": team,
                "user": None,
                "registered_at": now,
                "confirmed_at": now,
                "cancelled_at": None,
                "absent": False,
                "has_place": placed < tournament.capacity,
            },
        )
    return registration


def _refuse_same_person(active, player: Player | None, field: str, name: str = "") -> None:
    """A walk-in is never a second registration of a person already registered (RULES.md
    §8.1): a member who registered online, and has no roster player yet, is matched by the
    name he goes by; the organiser is offered his registration instead."""
    name = " ".join((player.name if player else name).split()).casefold()
    if player is not None and player.user_id is not None:
        return  # a linked roster player: matched by his account above
    for registration in active.filter(player=None).select_related("user"):
        if " ".join(account_name(registration.user).split()).casefold() == name:
            raise ServiceError(
                _(
                    "%(name)s registered online already: confirm his presence in the list "
                    "of players instead."
                )
                % {"name": account_name(registration.user)},
                field,
            )


def _refuse_added_at_the_door(tournament: Tournament, user) -> None:
    """The organiser added a walk-in of the member's name (no roster player linked to him):
    the same person, never a second registration."""
    name = " ".join(account_name(user).split()).casefold()
    walk_ins = tournament.registrations.filter(cancelled_at=None, user=None, player__user=None)
    for registration in walk_ins.select_related("player"):
        if " ".join(registration.player.name.split()).casefold() == name:
            raise ServiceError(
                _(
                    "%(name)s is registered already, added by the organiser at the door: "
                    "that registration is yours."
                )
                % {"name": registration.player.name}
            )


def confirm_presence(
    registration: Registration, now: datetime.datetime | None = None
) -> Registration:
    """'I am here': from 15 minutes before the start until the start, placed or waiting."""
    now = clock(now)
    with transaction.atomic():
        tournament = locked(registration.tournament)
        registration = Registration.objects.select_for_update().get(pk=registration.pk)
        if not registration.is_active:
            raise ServiceError(_("This registration is cancelled."))
        if not confirmation_is_open(tournament, now):
            raise ServiceError(
                _("Presence can be confirmed from %(time)s until the start.")
                % {
                    "time": time_format(
                        timezone.localtime(confirmation_opens_at(tournament), tournament.tz)
                    )
                }
            )
        if registration.confirmed_at is None:
            registration.confirmed_at = now
            registration.save(update_fields=["confirmed_at"])
    return registration


def status_of(registration: Registration | None) -> str:
    """What the sign-up page tells a player about himself."""
    if registration is None or not registration.is_active:
        return "none"
    if registration.absent:
        return "absent"
    return "place" if registration.has_place else "waiting"
