"""Write services: every change to clubs, rosters, sessions and hands goes through here.

Each function opens its own transaction (there is no ATOMIC_REQUESTS). Entries are written only
by `_write_entries`, called only from inside `record_hand`'s transaction, so the sum of a player's
entries is always the sum of the hands that are there.
"""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Max, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

import rules
from scorebook.models import (
    Club,
    Entry,
    Hand,
    Membership,
    Player,
    Role,
    Season,
    Session,
    SessionSeat,
)

CENT = Decimal("0.01")


class ServiceError(Exception):
    """A request the rules of the club do not allow; `field` names the form field it concerns."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field


# --- Variants -------------------------------------------------------------------------------


def allowed_seat_counts(variant: Any) -> tuple[int, ...]:
    """How many players may sit at a table of this variant.

    Four-player games may seat a fifth who sits out each hand in turn (RULES.md §0).
    """
    counts = set(variant.player_counts)
    if 4 in counts:
        counts.add(5)
    return tuple(sorted(counts))


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


def rename_player(*, player: Player, name: str) -> Player:
    with transaction.atomic():
        player.name = _check_player_name(player.club, name, excluding=player)
        player.save(update_fields=["name"])
    return player


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


# --- Sessions -----------------------------------------------------------------------------


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
    counts = allowed_seat_counts(variant)
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
    frozen = dict(rules.resolve_rules(variant_id, {"preset": preset}))
    frozen.setdefault("preset", preset)
    with transaction.atomic():
        session = Session.objects.create(
            club=club,
            season=season,
            variant=variant_id,
            rules=frozen,
            date=date or timezone.localdate(),
            table_label=table_label,
            notes=notes,
            created_by=user,
        )
        SessionSeat.objects.bulk_create(
            SessionSeat(session=session, player=player, position=position)
            for position, player in enumerate(players, start=1)
        )
    return session


def close_session(*, session: Session) -> Session:
    session.is_closed = True
    session.closed_at = timezone.now()
    session.save(update_fields=["is_closed", "closed_at"])
    return session


def reopen_session(*, session: Session) -> Session:
    session.is_closed = False
    session.closed_at = None
    session.save(update_fields=["is_closed", "closed_at"])
    return session


# --- Hands --------------------------------------------------------------------------------


def build_hand_json(session: Session, data: Mapping[str, Any]) -> dict[str, Any]:
    """The full hand (HANDS.md) from the session's variant, frozen rules and seats + the form."""
    hand = {
        "format": 1,
        "variant": session.variant,
        "rules": dict(session.rules),
        "players": [p.name for p in session.seated_players()],
    }
    hand.update(data)
    return hand


def _to_amount(value: Any) -> Decimal:
    return Decimal(str(value)).quantize(CENT)


def _write_entries(hand: Hand, amounts: Mapping[str, Any], seats: Mapping[str, Player]) -> None:
    Entry.objects.filter(hand=hand).delete()
    Entry.objects.bulk_create(
        Entry(hand=hand, player=seats[name], amount=_to_amount(amount))
        for name, amount in amounts.items()
    )


def record_hand(
    session: Session, data: Mapping[str, Any], client_id: uuid.UUID | str, user
) -> Hand:
    """Score and store the next hand of a session, with one entry per player dealt in.

    Idempotent on `client_id`: a phone that sends the same hand twice gets the first one back.
    Raises rules.RulesError (every problem of the hand) or ServiceError.
    """
    client_id = uuid.UUID(str(client_id))
    hand_json = build_hand_json(session, data)
    with transaction.atomic():
        # On PostgreSQL the row lock serialises writers of one session; on SQLite the
        # IMMEDIATE transaction has already taken the write lock for the whole database.
        locked = Session.objects.select_for_update().get(pk=session.pk)
        existing = Hand.objects.filter(client_id=client_id).first()
        if existing is not None:
            if existing.session_id != locked.pk:
                raise ServiceError(_("This hand was saved in another session."))
            return existing
        if locked.is_closed:
            raise ServiceError(_("This session is closed."))
        result = rules.score_hand(hand_json)
        seats = {p.name: p for p in locked.seated_players()}
        unknown = set(result.amounts) - set(seats)
        if unknown:
            raise ServiceError(_("Only seated players can be dealt in."), "players")
        number = (locked.hands.aggregate(m=Max("number"))["m"] or 0) + 1
        hand = Hand.objects.create(
            session=locked,
            number=number,
            data=hand_json,
            rules_version=str(rules.RULES_VERSION),
            client_id=client_id,
            created_by=user,
            changed_by=user,
        )
        _write_entries(hand, result.amounts, seats)
    return hand


# --- Totals -------------------------------------------------------------------------------


def session_totals(session: Session) -> dict[int, Decimal]:
    """Player id -> total of the session's hands that are not voided."""
    rows = (
        Entry.objects.filter(hand__session=session, hand__voided=False)
        .values("player_id")
        .annotate(total=Sum("amount"))
    )
    return {row["player_id"]: row["total"] for row in rows}
