"""Write services of clubs, members, seasons and sessions (the roster has its own module,
scorebook.roster); a session's hands go through the hand pipeline (scorebook.hands), which a
closing calls too.

Each function opens its own transaction (there is no ATOMIC_REQUESTS) and refuses a change
with ServiceError (scorebook.errors).
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from itertools import pairwise
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

import rules
from scorebook import accounts, confirmations, hands, invitations
from scorebook.amounts import cents
from scorebook.errors import Refusal, ServiceError
from scorebook.league.models import ContractTally, PlayerSession
from scorebook.models import (
    Club,
    Entry,
    Membership,
    Player,
    Role,
    Season,
    Session,
    SessionSeat,
    covering_season,
    season_on,
)

# --- Clubs and members ------------------------------------------------------------------


def create_club(
    *, name: str, slug: str, admin, time_zone: str = "Europe/Ljubljana", language: str = "en"
) -> Club:
    with transaction.atomic():
        club = Club.objects.create(name=name, slug=slug, time_zone=time_zone, language=language)
        Membership.objects.create(user=admin, club=club, role=Role.ADMIN)
    return club


def _admins_left(club: Club, *, excluding: Membership) -> bool:
    return club.memberships.filter(role=Role.ADMIN).exclude(pk=excluding.pk).exists()


def add_member(
    *, club: Club, username: str, email: str = "", role: str, invited_by=None
) -> Membership:
    """Add a user to the club. A new account is made without a password, with an invitation
    whose link lets the person choose one (scorebook.invitations); an account that exists is
    added as it is, with no link: nobody sets another person's password.
    """
    try:
        username = accounts.clean_username(username)
    except ValidationError as exc:
        raise ServiceError(" ".join(exc.messages), "username") from None
    User = get_user_model()
    with transaction.atomic():
        user = accounts.account_named(username)
        if user is None:
            user = User(username=username, email=email)
            user.set_unusable_password()
            user.save()
            invitations.create(club=club, user=user, invited_by=invited_by)
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
    """An admin takes a member out of the club; the member's players and hands stay."""
    with transaction.atomic():
        _lock_admins(membership.club_id)
        if _is_last_admin(membership):
            raise ServiceError(_("A club needs at least one admin."))
        membership.delete()


def leave_club(*, membership: Membership) -> None:
    """The member leaves the club; the players and hands recorded stay on the sheets."""
    with transaction.atomic():
        _lock_admins(membership.club_id)
        refusal = leaving_refusal(membership)
        if refusal:
            raise ServiceError(refusal)
        membership.delete()


def leaving_refusal(membership: Membership) -> str | None:
    """Why the member may not leave the club, or None: the page says so before the tap."""
    if _is_last_admin(membership):
        return _("You are the club's last admin: make another member an admin before you leave.")
    return None


def _is_last_admin(membership: Membership) -> bool:
    return membership.role == Role.ADMIN and not _admins_left(membership.club, excluding=membership)


def _lock_admins(club_id: int) -> None:
    # The club's row locked: two admins who leave at once cannot both count on the other.
    Club.objects.select_for_update().filter(pk=club_id).first()


# --- Seasons ------------------------------------------------------------------------------
# A session's season is the one whose days cover its date, whenever the season was added:
# Session.season stores that link for the standings' queries, and file_sessions() recomputes
# it whenever a season is saved; start_session() files a new session the same way. Seasons
# never overlap, and an open season (no end) ends the day before a later season starts.

ONE_DAY = datetime.timedelta(days=1)


def save_season(season: Season) -> list[Season]:
    """Add or change a season and file the club's sessions by their dates again.

    A season that overlaps another is refused at the field that runs into it. An open season
    followed by a later one ends the day before it: the seasons whose end was set so are
    returned (the one saved among them, if it is open and a later one follows)."""
    season.full_clean()
    with transaction.atomic():
        # One admin at a time changes the club's seasons: the check below reads all of them.
        Club.objects.select_for_update().filter(pk=season.club_id).first()
        others = list(Season.objects.filter(club_id=season.club_id).exclude(pk=season.pk))
        ended = _end_open_seasons([*others, season])
        _refuse_overlap(season, others)
        for other in ended:
            if other is not season:
                other.save(update_fields=["ends_on"])
        season.save()
        file_sessions(season.club)
    return ended


def _end_open_seasons(seasons: list[Season]) -> list[Season]:
    """End each open season the day before the next one starts; returns those ended. A season
    starting on the same day as another is left to _refuse_overlap."""
    ended = []
    ordered = sorted(seasons, key=lambda s: s.starts_on)
    for earlier, later in pairwise(ordered):
        if earlier.ends_on is None and later.starts_on > earlier.starts_on:
            earlier.ends_on = later.starts_on - ONE_DAY
            ended.append(earlier)
    return ended


def _refuse_overlap(season: Season, others: Iterable[Season]) -> None:
    """ServiceError at the field of `season` that runs into another season's days: its start
    when it starts within the other, else its end."""
    for other in sorted(others, key=lambda s: s.starts_on):
        starts_within = other.starts_on <= season.starts_on and (
            other.ends_on is None or season.starts_on <= other.ends_on
        )
        runs_into = season.starts_on < other.starts_on and (
            season.ends_on is None or other.starts_on <= season.ends_on
        )
        if starts_within or runs_into:
            raise ServiceError(
                _("Seasons do not overlap: %(other)s covers %(days)s.")
                % {"other": other.name, "days": _days(other)},
                "starts_on" if starts_within else "ends_on",
            )


def _days(season: Season) -> str:
    if season.ends_on is None:
        return _("the days from %(start)s") % {"start": date_format(season.starts_on)}
    return _("%(start)s to %(end)s") % {
        "start": date_format(season.starts_on),
        "end": date_format(season.ends_on),
    }


def file_sessions(club: Club) -> None:
    """File each of the club's sessions in the season that covers its date (or in none), and
    move the league's lines of a session with it (the standings of a season read those)."""
    seasons = list(club.seasons.all())
    moves: dict[int | None, list[int]] = defaultdict(list)
    for pk, date, filed in club.sessions.values_list("pk", "date", "season_id"):
        season = covering_season(seasons, date)
        if (season.pk if season else None) != filed:
            moves[season.pk if season else None].append(pk)
    for season_id, session_ids in moves.items():
        for start in range(0, len(session_ids), 500):  # within any database's parameter limit
            chunk = session_ids[start : start + 500]
            Session.objects.filter(pk__in=chunk).update(season_id=season_id)
            PlayerSession.objects.filter(session_id__in=chunk).update(season_id=season_id)
            ContractTally.objects.filter(session_id__in=chunk).update(season_id=season_id)


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
    overrides: Mapping[str, Any] | None = None,
    house_rules_name: str = "",
    confirmation: str | None = None,
) -> Session:
    """Freeze the rules and seat the players in order. Raises ServiceError, the engine's
    problems with the game or its rules among its reasons.

    The rules are the preset with `overrides` of its switches (the club's house rules, whose
    name the session keeps: scorebook.house_rules). `confirmation`: the club's unless given
    (a tournament's table: scorebook.confirmations)."""
    variant = _variant(variant_id)
    _check_seats(club, variant, players)
    date = date or timezone.localdate()
    frozen = _frozen_rules(variant_id, preset, overrides)
    with transaction.atomic():
        hands.lock_players(players)
        session = Session.objects.create(
            club=club,
            season=season_on(club, date),  # filed by its date, as file_sessions() does
            variant=variant_id,
            rules=frozen,
            house_rules_name=house_rules_name,
            date=date,
            table_label=table_label,
            notes=notes,
            created_by=user,
            confirmation=club.confirmation if confirmation is None else confirmation,
        )
        SessionSeat.objects.bulk_create(
            SessionSeat(session=session, player=player, position=position)
            for position, player in enumerate(players, start=1)
        )
    return session


def _variant(variant_id: str) -> rules.Variant:
    try:
        return rules.get_variant(variant_id)
    except rules.RulesError as exc:
        raise ServiceError.of(exc.problems) from None


def _check_seats(club: Club, variant: rules.Variant, players: Sequence[Player]) -> None:
    """Refuse, at the seats, a table the game cannot seat or a player who cannot sit at it."""
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


def _frozen_rules(
    variant_id: str, preset: str, overrides: Mapping[str, Any] | None
) -> dict[str, Any]:
    """The rules a new session keeps. The engine's problems with them (a set of house rules
    the engine no longer reads, say) are refusals at the start form's choice of the rules."""
    try:
        frozen = dict(rules.resolve_rules(variant_id, {"preset": preset, **(overrides or {})}))
    except rules.RulesError as exc:
        raise ServiceError.of(
            Refusal("preset", problem.message) for problem in exc.problems
        ) from None
    frozen.setdefault("preset", preset)
    return frozen


def close_session(session: Session, user=None) -> Session:
    """Close the session: its totals get the end-of-session radelc penalties and it is settled.

    The closing lines, totals and settlement are kept on the session (`closing`), so that
    totals stay database reads. Only an admin changes a closed session (RULES.md §7).
    """
    with transaction.atomic():
        locked = Session.objects.select_for_update().get(pk=session.pk)
        confirmations.refuse_closing(locked)  # required: every hand confirmed first
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
        for _words, amounts in lines:
            for name, amount in amounts.items():
                pid = ids[name]
                totals[pid] = totals.get(pid, Decimal(0)) + cents(amount)
    return totals
