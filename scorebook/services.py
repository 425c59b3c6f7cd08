"""Write services of clubs, members, the roster, seasons and sessions; a session's hands go
through the hand pipeline (scorebook.hands), which a rename and a closing call too.

Each function opens its own transaction (there is no ATOMIC_REQUESTS) and refuses a change
with ServiceError (scorebook.errors).
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

import rules
from scorebook import hands
from scorebook.amounts import cents
from scorebook.errors import ServiceError
from scorebook.models import (
    Club,
    Entry,
    Membership,
    Player,
    Role,
    Season,
    Session,
    SessionSeat,
)

# --- Clubs and members ------------------------------------------------------------------


def create_club(*, name: str, slug: str, admin, time_zone: str = "Europe/Ljubljana") -> Club:
    with transaction.atomic():
        club = Club.objects.create(name=name, slug=slug, time_zone=time_zone)
        Membership.objects.create(user=admin, club=club, role=Role.ADMIN)
    return club


def _admins_left(club: Club, *, excluding: Membership) -> bool:
    return club.memberships.filter(role=Role.ADMIN).exclude(pk=excluding.pk).exists()


def add_member(*, club: Club, username: str, email: str = "", role: str) -> Membership:
    """Add a user to the club, creating the account (without a password) when it is new.

    A new user sets a password through "forgot password" with the email given here.
    """
    User = get_user_model()
    with transaction.atomic():
        user = User.objects.filter(username__iexact=username).first()
        if user is None:
            user = User(username=username, email=email)
            user.set_unusable_password()
            user.save()
        if club.memberships.filter(user=user).exists():
            raise ServiceError(_("%(name)s is already a member.") % {"name": user}, "username")
        return Membership.objects.create(user=user, club=club, role=role)


def change_role(*, membership: Membership, role: str) -> Membership:
    with transaction.atomic():
        if (
            membership.role == Role.ADMIN
            and role != Role.ADMIN
            and not _admins_left(membership.club, excluding=membership)
        ):
            raise ServiceError(_("A club needs at least one admin."), "role")
        membership.role = role
        membership.save(update_fields=["role"])
    return membership


def remove_member(*, membership: Membership) -> None:
    with transaction.atomic():
        if membership.role == Role.ADMIN and not _admins_left(
            membership.club, excluding=membership
        ):
            raise ServiceError(_("A club needs at least one admin."))
        membership.delete()


# --- Roster -----------------------------------------------------------------------------


def _check_player_name(club: Club, name: str, *, excluding: Player | None = None) -> str:
    name = " ".join(name.split())
    if not name:
        raise ServiceError(_("Enter a name."), "name")
    clash = club.players.filter(name__iexact=name)
    if excluding is not None:
        clash = clash.exclude(pk=excluding.pk)
    if clash.exists():
        raise ServiceError(_("%(name)s is already on the roster.") % {"name": name}, "name")
    return name


def add_player(*, club: Club, name: str) -> Player:
    with transaction.atomic():
        name = _check_player_name(club, name)
        try:
            with transaction.atomic():
                return Player.objects.create(club=club, name=name)
        except IntegrityError:
            # Somebody added the same name a moment ago.
            raise ServiceError(
                _("%(name)s is already on the roster.") % {"name": name}, "name"
            ) from None


def rename_player(*, player: Player, name: str, user=None) -> Player:
    """Rename a roster player, and the name in every hand he was seated for: a stored hand and
    its row name their players, and the session's sheet matches them to the seats by name.

    The rename is a correction of the roster, recorded in the player's history, not a change
    of each hand: his hands get no history row of their own.
    """
    with transaction.atomic():
        # The lock order of every write: sessions (by pk), then the player. A save holds its
        # session while it reads the seated names, so none reads a name this rename changes.
        sessions = _lock_sessions_of(player)
        # no_key: a save's entries take KEY SHARE on the player, which FOR UPDATE would block.
        old = Player.objects.select_for_update(no_key=True).get(pk=player.pk).name
        player.name = _check_player_name(player.club, name, excluding=player)
        if player.name == old:
            return player
        player._history_user = user
        player._change_reason = f"renamed from {old}"  # the new name is the record's own
        player.save(update_fields=["name"])
        # A session started meanwhile waited for the player's lock (start_session): it is
        # seen now, and its hands follow too.
        sessions += _lock_sessions_of(player, excluding=sessions)
        for session in sessions:
            # The stored rows name the players too (amounts, totals, radelci, dealer).
            hands.rescore(session, 1, renamed={old: player.name})
    return player


def _lock_sessions_of(player: Player, excluding: Sequence[Session] = ()) -> list[Session]:
    """The sessions the player is seated in, locked in pk order (so two renames never wait
    for each other in a cycle)."""
    return list(
        Session.objects.select_for_update()
        .filter(pk__in=SessionSeat.objects.filter(player=player).values("session_id"))
        .exclude(pk__in=[session.pk for session in excluding])
        .order_by("pk")
    )


def set_player_archived(*, player: Player, archived: bool) -> Player:
    player.archived = archived
    player.save(update_fields=["archived"])
    return player


def delete_player(*, player: Player) -> None:
    """Delete a player who never sat at a table; one with hands is archived instead."""
    with transaction.atomic():
        if player.has_hands():
            raise ServiceError(
                _("%(name)s has played hands: archive the player instead.") % {"name": player}
            )
        player.delete()


# --- Seasons ------------------------------------------------------------------------------


def season_on(club: Club, date: datetime.date) -> Season | None:
    """The club's season that covers `date` (the latest to start, where seasons overlap)."""
    return (
        club.seasons.filter(starts_on__lte=date)
        .filter(Q(ends_on__isnull=True) | Q(ends_on__gte=date))
        .order_by("-starts_on")
        .first()
    )


def save_season(season: Season) -> Season:
    """Add or change a season. Sessions started on a day it covers are filed in it."""
    season.full_clean()
    season.save()
    return season


def start_session(
    *,
    club: Club,
    variant_id: str,
    preset: str,
    players: Sequence[Player],
    user,
    date: datetime.date | None = None,
    table_label: str = "",
    notes: str = "",
    season: Season | None = None,
) -> Session:
    """Freeze the rules and seat the players in order. Raises ServiceError or rules.RulesError."""
    variant = rules.get_variant(variant_id)
    counts = variant.table_sizes()
    if len(players) not in counts:
        raise ServiceError(
            _("%(variant)s needs %(counts)s players; %(n)d are seated.")
            % {
                "variant": variant.label,
                "counts": _(" or ").join(str(c) for c in counts),
                "n": len(players),
            },
            "seats",
        )
    if len({p.pk for p in players}) != len(players):
        raise ServiceError(_("A player can only take one seat."), "seats")
    for player in players:
        if player.club_id != club.pk:
            raise ServiceError(_("Only players on this club's roster can be seated."), "seats")
        if player.archived:
            raise ServiceError(
                _("%(name)s is archived; restore the player first.") % {"name": player}, "seats"
            )
    if season is not None and season.club_id != club.pk:
        raise ServiceError(_("Pick one of this club's seasons."), "season")
    date = date or timezone.localdate()
    if season is None:
        season = season_on(club, date)
    frozen = dict(rules.resolve_rules(variant_id, {"preset": preset}))
    frozen.setdefault("preset", preset)
    with transaction.atomic():
        hands.lock_players(players)
        session = Session.objects.create(
            club=club,
            season=season,
            variant=variant_id,
            rules=frozen,
            date=date,
            table_label=table_label,
            notes=notes,
            created_by=user,
        )
        SessionSeat.objects.bulk_create(
            SessionSeat(session=session, player=player, position=position)
            for position, player in enumerate(players, start=1)
        )
    return session


def close_session(session: Session, user=None) -> Session:
    """Close the session: its totals get the end-of-session radelc penalties and it is settled.

    The closing lines, totals and settlement are kept on the session (`closing`), so that
    totals stay database reads. Only an admin changes a closed session (RULES.md §7).
    """
    with transaction.atomic():
        locked = Session.objects.select_for_update().get(pk=session.pk)
        locked.is_closed = True
        locked.closed_at = timezone.now()
        locked.closing = hands.closing(locked)
        locked._history_user = user
        locked.save(update_fields=["is_closed", "closed_at", "closing"])
    session.is_closed, session.closed_at, session.closing = (
        locked.is_closed,
        locked.closed_at,
        locked.closing,
    )
    return session


def reopen_session(session: Session, user=None) -> Session:
    with transaction.atomic():
        session.is_closed = False
        session.closed_at = None
        session.closing = {}
        session._history_user = user
        session.save(update_fields=["is_closed", "closed_at", "closing"])
    return session


# --- Totals -------------------------------------------------------------------------------


def session_totals(session: Session) -> dict[int, Decimal]:
    """Player id -> total of the session's hands that are not voided, plus what closing added
    (radelc penalties) once the session is closed."""
    rows = (
        Entry.objects.filter(hand__session=session, hand__voided=False)
        .values("player_id")
        .annotate(total=Sum("amount"))
    )
    totals = {row["player_id"]: row["total"] for row in rows}
    lines = session.closing.get("lines") if session.is_closed and session.closing else None
    if lines:
        ids = {seat.player.name: seat.player_id for seat in session.seats.select_related("player")}
        for line in lines:
            for name, amount in line["amounts"].items():
                pid = ids[name]
                totals[pid] = totals.get(pid, Decimal(0)) + cents(amount)
    return totals
