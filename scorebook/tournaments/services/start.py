"""The start (RULES.md §8): the unconfirmed lose their places, the first round is drawn or the
tournament is cancelled; and the tick that starts the tournaments that are due."""

from __future__ import annotations

import datetime
from collections.abc import Iterable

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.utils.formats import date_format, time_format
from django.utils.translation import gettext as _

from scorebook.errors import ServiceError
from scorebook.models import Player, account_name
from scorebook.tournaments.models import Status, Tournament
from scorebook.tournaments.services.common import clock, locked
from scorebook.tournaments.services.drawing import draw_first_round
from scorebook.tournaments.services.registration import confirmation_opens_at
from scorebook.tournaments.services.rounds import sync_tournament
from scorebook.tournaments.services.variants import freeze_rules


def start_tournament(
    tournament: Tournament, now: datetime.datetime | None = None, user=None
) -> Tournament:
    """What happens at the start (RULES.md §8): the unconfirmed lose their places, confirmed
    waiting players take the freed places in order of confirmation, and either round 1 is
    drawn or, with too few for one table, the tournament is cancelled and everybody emailed.

    An admin may start once the confirmation window is open; starting early moves the start
    to now, so the window closes for everyone at the same moment.
    """
    now = clock(now)
    with transaction.atomic():
        tournament = locked(tournament)
        if tournament.status != Status.SCHEDULED:
            raise ServiceError(_("This tournament has already started or was cancelled."))
        if now < confirmation_opens_at(tournament):
            raise ServiceError(_("The tournament can start once presence confirmation opens."))
        active = tournament.registrations.filter(cancelled_at=None)
        active.filter(has_place=True, confirmed_at=None).update(has_place=False, absent=True)
        free = tournament.capacity - active.filter(has_place=True).count()
        waiting = active.filter(has_place=False, absent=False).exclude(confirmed_at=None)
        for registration in waiting.order_by("confirmed_at", "id")[: max(free, 0)]:
            registration.has_place = True
            registration.save(update_fields=["has_place"])
        playing = list(active.filter(has_place=True).select_related("user"))
        tournament.started_at = now
        if len(playing) < tournament.table_size:
            _cancel(tournament, now)  # the email names the start the players were told
            return tournament
        tournament.starts_at = min(tournament.starts_at, now)
        for registration in playing:
            if registration.player_id is None:  # a walk-in has his player already
                registration.player = _player_for(tournament.club, registration.user)
                registration.save(update_fields=["player"])
        tournament.status = Status.RUNNING
        freeze_rules(tournament)
        tournament.save(update_fields=["starts_at", "started_at", "status", "rules"])
        draw_first_round(tournament, playing, now, user)
    return tournament


def _cancel(tournament: Tournament, now: datetime.datetime) -> None:
    tournament.status = Status.CANCELLED
    tournament.cancelled_at = now
    tournament.save(update_fields=["started_at", "status", "cancelled_at"])
    # A walk-in has no account and no address: he hears it at the door.
    registered = tournament.registrations.filter(cancelled_at=None).exclude(user=None)
    recipients = [r.user.email for r in registered.select_related("user") if r.user.email]
    start = tournament.local_start()
    subject = _("%(name)s is cancelled") % {"name": tournament.name}
    body = _(
        "The tournament %(name)s of %(club)s, due to start on %(date)s at %(time)s, is "
        "cancelled: too few players confirmed their presence to make up one table."
    ) % {
        "name": tournament.name,
        "club": tournament.club.name,
        "date": date_format(start, "SHORT_DATE_FORMAT"),
        "time": time_format(start),
    }

    # After the commit: a mail server that is down must not undo the cancellation.
    def send() -> None:
        for address in recipients:
            send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [address])

    transaction.on_commit(send, robust=True)


def _player_for(club, user) -> Player:
    """The user's linked player on the club's roster (restored when archived); a registrant
    without one gets a new player named after his account, linked to it. A roster name that
    is taken makes "Name 2", "Name 3", …: never a second player beside the linked one."""
    player = club.players.filter(user=user).first()
    if player is not None:
        if player.archived:
            player.archived = False
            player.save(update_fields=["archived"])
        return player
    name = " ".join(account_name(user).split())
    # Each candidate is fitted before it is checked: cut after the check, a long name that
    # starts like a roster name would become that name, and break the club's unique names.
    for suffix in _name_suffixes():
        candidate = _fit_player_name(name, suffix)
        if not club.players.filter(name__iexact=candidate).exists():
            return Player.objects.create(club=club, name=candidate, user=user)
    raise AssertionError("unreachable: the numbered suffixes never run out")


PLAYER_NAME_LENGTH = Player._meta.get_field("name").max_length


def _name_suffixes() -> Iterable[str]:
    """None, then 2, 3, …"""
    yield ""
    n = 2
    while True:
        yield f" {n}"
        n += 1


def _fit_player_name(name: str, suffix: str) -> str:
    """`name` + `suffix` in a roster name's length: the name gives way to the suffix."""
    return name[: PLAYER_NAME_LENGTH - len(suffix)].rstrip() + suffix


def process_due(now: datetime.datetime | None = None) -> list[tuple[Tournament, str]]:
    """The tick: start every tournament whose start has passed, and move every running one on
    (finish tables that have played their hands, draw the next rounds)."""
    now = clock(now)
    done = []
    for tournament in Tournament.objects.filter(status=Status.SCHEDULED, starts_at__lte=now):
        try:
            tournament = start_tournament(tournament, now)
        except ServiceError as exc:
            done.append((tournament, exc.message))
        else:
            done.append((tournament, tournament.get_status_display()))
    for tournament in Tournament.objects.filter(status=Status.RUNNING):
        if sync_tournament(tournament, now):
            done.append((tournament, _("tables finished")))
    return done
