"""The club's roster: its players, their names, and the accounts they belong to.

A player is added, renamed (in every hand he was seated for), archived, or deleted while he
has no hands. A player is linked to a member's account by `Player.user`, one player per
account in a club: tournaments seat an account's linked player, so his tables, ratings and
statistics stay together. An admin links or unlinks; a member claims an unlinked player
("this is me", `Player.claimed_by`) and an admin confirms or refuses. Two players who are one
person (a duplicate that a tournament's start or a typo made) are merged by an admin.

Each function opens its own transaction and refuses with ServiceError at the form's field.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from scorebook import hands
from scorebook.collation import alphabetical
from scorebook.errors import ServiceError
from scorebook.league.models import ContractTally, LeagueSession, PlayerSession, Rating
from scorebook.league.services import family_of, mark_stale
from scorebook.models import Club, Entry, Player, Session, SessionSeat, account_name
from scorebook.tournaments.models import Registration

# --- Players and their names --------------------------------------------------------------


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


# --- Links and claims ---------------------------------------------------------------------


def linkable_members(club: Club, player: Player) -> list:
    """The club's members an admin may link `player` to: those without a player of their own
    in the club, and the player's own account, by their names in the reader's alphabet."""
    taken = club.players.exclude(pk=player.pk).exclude(user=None).values("user_id")
    memberships = club.memberships.exclude(user_id__in=taken).select_related("user")
    return alphabetical((membership.user for membership in memberships), key=account_name)


def _check_free(club: Club, user, player: Player, field: str) -> None:
    """Refuse a second player for one account in a club."""
    other = club.players.filter(user=user).exclude(pk=player.pk).first()
    if other is not None:
        raise ServiceError(
            _("%(account)s already plays as %(name)s: merge the two players instead.")
            % {"account": account_name(user), "name": other.name},
            field,
        )


def link(*, player: Player, user) -> Player:
    """Link `player` to a member's account (`user` None: unlink). A pending claim is settled
    by it, and the account's claims on other players of the club are dropped."""
    club = player.club
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        if user is not None:
            if not club.memberships.filter(user=user).exists():
                raise ServiceError(_("Choose a member of the club."), "user")
            _check_free(club, user, player, "user")
            club.players.filter(claimed_by=user).exclude(pk=player.pk).update(claimed_by=None)
        player.user = user
        player.claimed_by = None
        try:
            with transaction.atomic():
                player.save(update_fields=["user", "claimed_by"])
        except IntegrityError:  # the account was linked elsewhere a moment ago
            _check_free(club, user, player, "user")
            raise
    player.club = club
    return player


def claim(*, club: Club, player: Player, user) -> Player:
    """A member says `player` is him; an admin confirms it (confirm_claim) or refuses it."""
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk, club=club)
        mine = club.players.filter(user=user).first()
        if mine is not None:
            raise ServiceError(_("You already play as %(name)s.") % {"name": mine.name}, "player")
        pending = club.players.filter(claimed_by=user).exclude(pk=player.pk).first()
        if pending is not None:
            raise ServiceError(
                _("You have claimed %(name)s: an admin will confirm it first.")
                % {"name": pending.name},
                "player",
            )
        if player.user_id is not None or player.archived:
            raise ServiceError(
                _("%(name)s cannot be claimed: choose another player.") % {"name": player.name},
                "player",
            )
        if player.claimed_by_id not in (None, user.pk):
            raise ServiceError(
                _("Somebody else has claimed %(name)s: an admin will decide.")
                % {"name": player.name},
                "player",
            )
        player.claimed_by = user
        player.save(update_fields=["claimed_by"])
    return player


def confirm_claim(*, player: Player) -> Player:
    if player.claimed_by is None:
        raise ServiceError(_("Nobody has claimed %(name)s.") % {"name": player.name})
    return link(player=player, user=player.claimed_by)


def refuse_claim(*, player: Player) -> Player:
    player.claimed_by = None
    player.save(update_fields=["claimed_by"])
    return player


# --- Merging two players who are one person -------------------------------------------------


def check_merge(merged: Player, kept: Player) -> None:
    """Refuse a merge that would put one person twice at a table or in a tournament, or join
    two accounts; the refusal is at the form's `into` field."""
    if merged.pk == kept.pk or merged.club_id != kept.club_id:
        raise ServiceError(_("Choose another player to keep."), "into")
    names = {"merged": merged.name, "kept": kept.name}
    kept_sessions = SessionSeat.objects.filter(player=kept).values("session_id")
    if SessionSeat.objects.filter(player=merged, session_id__in=kept_sessions).exists():
        raise ServiceError(
            _("%(merged)s and %(kept)s sat at one table: they are two people.") % names, "into"
        )
    kept_tournaments = Registration.objects.filter(player=kept).values("tournament_id")
    if Registration.objects.filter(player=merged, tournament_id__in=kept_tournaments).exists():
        raise ServiceError(
            _("%(merged)s and %(kept)s play in one tournament: they are two people.") % names,
            "into",
        )
    if merged.user_id and kept.user_id and merged.user_id != kept.user_id:
        raise ServiceError(
            _("%(merged)s and %(kept)s are linked to two accounts: unlink one first.") % names,
            "into",
        )


def merge_counts(merged: Player) -> dict[str, int]:
    """What a merge moves, for the page that asks to confirm it."""
    return {
        "sessions": SessionSeat.objects.filter(player=merged).count(),
        "hands": Entry.objects.filter(player=merged).values("hand_id").distinct().count(),
        "registrations": Registration.objects.filter(player=merged).count(),
    }


def merge(*, merged: Player, kept: Player, user=None) -> Player:
    """Move everything of `merged` to `kept` in one transaction and delete `merged`.

    Seats, entries, league lines, ratings and tournament registrations move; the stored hands
    and rows name players by name, so the kept player's name replaces the merged one's there
    (as a rename does); the league is marked stale and rebuilds the ratings from the first
    session that changed. The kept player's history records the merge.
    """
    club = kept.club
    with transaction.atomic():
        # The lock order of every write (rename_player): sessions, then players.
        sessions = _lock_sessions_of(merged)
        merged, kept = _lock_pair(merged, kept)
        sessions += _lock_sessions_of(merged, excluding=sessions)  # seated meanwhile
        check_merge(merged, kept)
        SessionSeat.objects.filter(player=merged).update(player=kept)
        Entry.objects.filter(player=merged).update(player=kept)
        Registration.objects.filter(player=merged).update(player=kept)
        _move_league_rows(merged, kept, sessions)
        for session in sessions:
            hands.rescore(session, 1, renamed={merged.name: kept.name})
        kept._history_user = merged._history_user = user
        kept._change_reason = merged._change_reason = f"merged {merged.name} into {kept.name}"
        _take_over_account(merged, kept)
        kept.archived = kept.archived and merged.archived
        kept.save()
        merged.delete()
    kept.club = club
    return kept


def _lock_pair(merged: Player, kept: Player) -> tuple[Player, Player]:
    locked = Player.objects.select_for_update().in_bulk([merged.pk, kept.pk])
    return locked[merged.pk], locked[kept.pk]


def _move_league_rows(merged: Player, kept: Player, sessions: list[Session]) -> None:
    """The league's rows follow at once; the sessions are then forgotten by the league, so the
    next league page rebuilds the ratings from the first of them (ratings depend on who sat
    with whom in every hand after it)."""
    PlayerSession.objects.filter(player=merged).update(player=kept)
    ContractTally.objects.filter(player=merged).update(player=kept)
    # A family the kept player is rated in keeps his row until the rebuild; the others move.
    rated = Rating.objects.filter(player=kept).values("family")
    Rating.objects.filter(player=merged, family__in=rated).delete()
    Rating.objects.filter(player=merged).update(player=kept)
    LeagueSession.objects.filter(session_id__in=[s.pk for s in sessions]).delete()
    for family in {family_of(session.variant) for session in sessions}:
        mark_stale(kept.club, family)


def _take_over_account(merged: Player, kept: Player) -> None:
    """The kept player keeps his link, or takes the merged one's (and a pending claim)."""
    if kept.user_id is None and merged.user_id is not None:
        kept.user_id = merged.user_id
        merged.user = None
        merged.save(update_fields=["user"])  # one account, one player: free it first
    if kept.user_id is None and kept.claimed_by_id is None:
        kept.claimed_by_id = merged.claimed_by_id
