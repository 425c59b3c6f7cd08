"""Write services: every change to clubs, rosters, sessions and hands goes through here.

Each function opens its own transaction (there is no ATOMIC_REQUESTS). A hand's entries and its
stored row of the sheet (`Hand.score`) are written only by `record_hand` and `_rescore`, inside
the transaction of the change, so the sum of a player's entries is always the sum of the hands
that are there, and every stored row follows from the rows before it.
"""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.db.models import F, Q, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

import rules
from rules.problems import Problems
from rules.reader import Sheet, read_hand
from rules.scoring import MAX_HANDS, read_sheet
from scorebook import sheets
from scorebook.amounts import cents
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
from scorebook.signals import announce_hands_changed


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
            _rescore(session, 1, renamed={old: player.name})
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


# --- Sessions -----------------------------------------------------------------------------


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
    date = date or timezone.localdate()
    if season is None:
        season = season_on(club, date)
    frozen = dict(rules.resolve_rules(variant_id, {"preset": preset}))
    frozen.setdefault("preset", preset)
    with transaction.atomic():
        _lock_players(players)
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


def _lock_players(players: Sequence[Player]) -> dict[int, Player]:
    """Lock roster players about to be seated (in pk order), so that a rename of one of them
    either finished before or waits and then sees the new session's seat."""
    return {
        player.pk: player
        for player in Player.objects.select_for_update(no_key=True)
        .filter(pk__in=[player.pk for player in players])
        .order_by("pk")
    }


def close_session(session: Session, user=None) -> Session:
    """Close the session: its totals get the end-of-session radelc penalties and it is settled.

    The closing lines, totals and settlement are kept on the session (`closing`), so that
    totals stay database reads. Only an admin changes a closed session (RULES.md §7).
    """
    with transaction.atomic():
        locked = Session.objects.select_for_update().get(pk=session.pk)
        locked.is_closed = True
        locked.closed_at = timezone.now()
        _set_closing(locked)
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


def _set_closing(session: Session) -> None:
    """Store what closing adds to a closed session's sheet (not saved here): the closing lines
    come from where the sheet stands after its last hand."""
    table = sheets.engine_sheet(session)
    sheet = rules.evaluate(
        table.variant, table.rules, table.players, [], True, _running_before(session, table)
    )
    session.closing = {
        "lines": [line.to_json() for line in sheet.closing],
        "totals": dict(sheet.totals),
        "settlement": sheet.settlement.to_json(),
    }


def _refresh_closing(session: Session) -> None:
    """A closed session's hands changed (an admin): its closing follows. The change itself is
    in the hand's history; this derived copy gets no history row of its own."""
    _set_closing(session)
    Session.objects.filter(pk=session.pk).update(closing=session.closing)


def settlement(session: Session) -> rules.Settlement:
    """Nets and transfers (at most N − 1) of the session as if it were closed now."""
    return sheets.settlement(session)


# --- Hands --------------------------------------------------------------------------------


def build_hand_json(session: Session, data: Mapping[str, Any]) -> dict[str, Any]:
    """The full hand (HANDS.md) from the session's variant, frozen rules and seats + the form."""
    hand = {
        "format": 1,
        "variant": session.variant,
        "rules": dict(session.rules),
        "players": list(session.seat_names),
    }
    hand.update(data)
    return hand


class HandChanged(ServiceError):
    """The hand was changed by somebody else since the form was opened; `current` is the
    newer version."""

    def __init__(self, current: Hand):
        super().__init__(
            _(
                "Somebody changed this hand meanwhile (now version %(version)d). "
                "Check the newer version below and make your change again."
            )
            % {"version": current.version}
        )
        self.current = current


def _check_writable(session: Session, is_admin: bool) -> None:
    if session.is_closed and not is_admin:
        raise ServiceError(_("This session is closed; only a club admin can change it."))


def _rescore(session: Session, from_number: int, renamed: Mapping[str, str] | None = None) -> None:
    """Rescore every hand numbered `from_number` or later from the running state before it,
    storing each row and rewriting its entries: an edit or a void changes the radelci and the
    dealer, so the amounts of the hands after it.

    With `renamed` (old name -> new name: a roster rename) each hand's data is renamed first
    and stored with its row; no amount changes, and entries name players by id, so they stay.
    """
    seats = session.seat_names
    sheet = sheets.engine_sheet(session)
    hands = list(
        session.hands.filter(number__gte=from_number)
        .order_by("number")
        # With "session": a related manager fetches an instance's missing key one by one.
        .only("pk", "session", "number", "data", "voided")
    )
    if renamed:
        for hand in hands:
            hand.data = sheets.rename_in_hand(hand.data, renamed)
    scores = sheets.score_hands(
        sheet,
        [(hand.number, None if hand.voided else hand.data) for hand in hands],
        _running_before(session, sheet, from_number),
    )
    for hand, score in zip(hands, scores, strict=True):
        hand.score = score
    _update_each(hands, ["data", "score"] if renamed else ["score"])
    if not renamed:
        Entry.objects.filter(hand__session=session, hand__number__gte=from_number).delete()
        Entry.objects.bulk_create(
            entry for hand in hands if not hand.voided for entry in _entries(hand, seats)
        )
    if session.is_closed:
        _refresh_closing(session)


def _update_each(hands: Sequence[Hand], fields: Sequence[str]) -> None:
    """UPDATE `fields` of each hand, one statement run for all of them. bulk_update builds
    one CASE over every row, whose compiling costs more than the writes, and a rescore runs
    under the write lock (SQLite: of the whole database)."""
    columns = [Hand._meta.get_field(name) for name in fields]
    quote = connection.ops.quote_name
    assignments = ", ".join(f"{quote(column.column)} = %s" for column in columns)
    key = quote(Hand._meta.pk.column)
    sql = f"UPDATE {quote(Hand._meta.db_table)} SET {assignments} WHERE {key} = %s"
    with connection.cursor() as cursor:
        cursor.executemany(
            sql,
            [
                [c.get_db_prep_save(getattr(hand, c.attname), connection) for c in columns]
                + [hand.pk]
                for hand in hands
            ],
        )


def _running_before(session: Session, sheet, number: int | None = None) -> rules.Running:
    """sheets.running_before, making the session's rows first where a hand has none (stored
    before rows were kept): a stored hand the engine rejects then raises RulesError, as a
    replay of the whole sheet would."""
    try:
        return sheets.running_before(session, sheet, number)
    except sheets.Unscored:
        _rescore(session, 1)
        return sheets.running_before(session, sheet, number)


def _entries(hand: Hand, seats: Mapping[str, int]) -> list[Entry]:
    """A hand's entries from its stored row; `seats` maps each seated name to its player id."""
    return [
        Entry(hand=hand, player_id=seats[name], amount=cents(amount))
        for name, amount in hand.score["amounts"].items()
    ]


def _as_seated(
    data: Mapping[str, Any], named: Sequence[str], seated: Sequence[str]
) -> Mapping[str, Any]:
    """The form's hand with the names of the seats now. The form named the seats as `named`
    (read before the session's lock); a player renamed since keeps his seat, so his old name
    becomes his new one. Any other name is the engine's to refuse, at its field."""
    if list(named) == list(seated) or len(named) != len(seated):
        return data
    return sheets.rename_in_hand(data, dict(zip(named, seated, strict=True)))


def record_hand(
    session: Session,
    data: Mapping[str, Any],
    client_id: uuid.UUID | str,
    user,
    *,
    is_admin: bool = False,
) -> Hand:
    """Score and store the next hand of a session, with one entry per player dealt in.

    `data` names the players as `session.seat_names` did when the form was built (the view
    reads them from this very instance); a player renamed since is matched by his seat.
    The hand is scored as the next row of the session's sheet, from the running state stored
    with the last hand, so radelci held from earlier hands count and the cost does not grow
    with the session. Idempotent on `client_id`: a phone that sends the same hand twice gets
    the first one back. Raises rules.RulesError (every problem of the hand, paths relative to
    the hand) or ServiceError.
    """
    client_id = uuid.UUID(str(client_id))
    named = list(session.seat_names)
    with transaction.atomic():
        # On PostgreSQL the row lock serialises writers of one session (and a rename of one
        # of its players); on SQLite the IMMEDIATE transaction has already taken the write
        # lock for the whole database. The seats are read under it: the names hands use.
        locked = Session.objects.select_for_update().get(pk=session.pk)
        existing = Hand.objects.filter(client_id=client_id).first()
        if existing is not None:
            if existing.session_id != locked.pk:
                raise ServiceError(_("This hand was saved in another session."))
            return existing
        _check_writable(locked, is_admin)
        seats = locked.seat_names
        hand_json = build_hand_json(locked, _as_seated(data, named, list(seats)))
        sheet = sheets.engine_sheet(locked)
        last = locked.hands.order_by("-number").values_list("number", "score").first()
        number, score = last or (0, None)
        try:
            before = sheets.running_after(sheet, score)
        except sheets.Unscored:
            before = _running_before(locked, sheet)
        row, running = sheets.score_next(sheet, hand_json, before)
        if set(row.result.amounts) - set(seats):
            raise ServiceError(_("Only seated players can be dealt in."), "players")
        hand = Hand(
            session=locked,
            number=number + 1,
            data=hand_json,
            score=sheets.row_score(row, running),
            rules_version=str(rules.RULES_VERSION),
            client_id=client_id,
            created_by=user,
            changed_by=user,
        )
        hand._history_user = user
        hand.save()
        Entry.objects.bulk_create(_entries(hand, seats))
        if locked.is_closed:  # an admin's hand
            _refresh_closing(locked)
        announce_hands_changed(session)  # the caller's session: its club is loaded
    return hand


def _update_hand(hand: Hand, version: int, user, reason: str, **changes: Any) -> Hand:
    """The optimistic lock: the UPDATE itself checks the version the form was opened with."""
    updated = Hand.objects.filter(pk=hand.pk, version=version).update(
        **changes,
        version=F("version") + 1,
        changed_by=user,
        changed_at=timezone.now(),
    )
    if not updated:
        raise HandChanged(Hand.objects.get(pk=hand.pk))
    hand.refresh_from_db()
    hand._history_user = user
    # A queryset update sends no signal: write the history row ourselves, with who and why.
    Hand.history.bulk_history_create(
        [hand], update=True, default_user=user, default_change_reason=reason
    )
    return hand


def edit_hand(
    hand: Hand, data: Mapping[str, Any], version: int, user, *, is_admin: bool = False
) -> Hand:
    """Replace what was entered for a hand and rescore it and every hand after it.

    `version` is the hand's version when the form was opened: if somebody saved a change
    since, HandChanged is raised and nothing changes. A closed session is changed only by an
    admin. Raises rules.RulesError (paths relative to the hand) or ServiceError.
    """
    with transaction.atomic():
        session = Session.objects.select_for_update().get(pk=hand.session_id)
        _check_writable(session, is_admin)
        hand_json = build_hand_json(session, data)
        hand = _update_hand(
            hand, version, user, "edited", data=hand_json, rules_version=str(rules.RULES_VERSION)
        )
        if hand.voided:
            raise ServiceError(_("This hand is voided; it cannot be edited."))
        # Check the new hand in its place first: its problems have its own paths.
        sheet = sheets.engine_sheet(session)
        sheets.score_next(sheet, hand_json, _running_before(session, sheet, hand.number))
        _rescore(session, hand.number)
        announce_hands_changed(session)
    return hand


def void_hand(hand: Hand, reason: str, version: int, user, *, is_admin: bool = False) -> Hand:
    """Strike a hand from the sheet, saying why; the hands after it are rescored."""
    reason = " ".join((reason or "").split())
    if not reason:
        raise ServiceError(_("Say why the hand is voided."), "reason")
    max_length = Hand._meta.get_field("void_reason").max_length
    if len(reason) > max_length:
        raise ServiceError(
            _("Keep the reason under %(n)d characters.") % {"n": max_length + 1}, "reason"
        )
    with transaction.atomic():
        session = Session.objects.select_for_update().get(pk=hand.session_id)
        _check_writable(session, is_admin)
        if Hand.objects.filter(pk=hand.pk, voided=True).exists():
            raise ServiceError(_("This hand is voided already."))
        hand = _update_hand(hand, version, user, reason, voided=True, void_reason=reason)
        _rescore(session, hand.number)
        announce_hands_changed(session)
    return hand


# --- Import ---------------------------------------------------------------------------------


class SheetProblems(ServiceError):
    """A sheet that cannot be imported; `problems` lists every reason, each naming its hand."""

    def __init__(self, problems: Sequence[str]):
        super().__init__("\n".join(problems))
        self.problems = list(problems)


# What one sheet may be: its text (the import form's cap) and its hands (the engine's, one
# session's worth: a longer sheet is refused before any of its hands is read).
MAX_SHEET_BYTES = 2_000_000
MAX_IMPORT_HANDS = MAX_HANDS


def _check_import_roster(club: Club, sheet: Sheet) -> tuple[dict[str, Player | None], list[str]]:
    """Each of the sheet's players with his roster player (None: new to the roster), and what
    is wrong with the names."""
    messages = []
    roster: dict[str, Player | None] = {}
    max_length = Player._meta.get_field("name").max_length
    for i, name in enumerate(sheet.players):
        where = f"players[{i}]"
        if " ".join(name.split()) != name or len(name) > max_length:
            messages.append(
                _("%(where)s: %(name)s is not a name for the roster.")
                % {"where": where, "name": name}
            )
            continue
        if name.casefold() in {other.casefold() for other in roster}:
            messages.append(
                _("%(where)s: %(name)s is another player's name spelt otherwise.")
                % {"where": where, "name": name}
            )
            continue
        player = club.players.filter(name__iexact=name).first()
        if player is not None and player.name != name:
            messages.append(
                _("%(where)s: %(name)s is on the roster as %(roster)s; use that spelling.")
                % {"where": where, "name": name, "roster": player.name}
            )
        roster[name] = player
    return roster, messages


def _seat_imported(club: Club, roster: Mapping[str, Player | None]) -> list[Player]:
    """The sheet's players, in its order, inside the import's transaction: the roster players
    locked (their hands are stored by name, so a rename waits) and the new ones added. A name
    renamed or added since the sheet was checked refuses the import."""
    locked = _lock_players([player for player in roster.values() if player is not None])
    seated = []
    for name, player in roster.items():
        if player is None:
            try:
                with transaction.atomic():
                    player = Player.objects.create(club=club, name=name)
            except IntegrityError:
                player = None
        elif locked.get(player.pk) is None or locked[player.pk].name != name:
            player = None
        if player is None:
            raise SheetProblems(
                [_("%(name)s changed on the roster meanwhile; import again.") % {"name": name}]
            )
        seated.append(player)
    return seated


def import_sheet(
    club: Club,
    data: Any,
    user,
    *,
    date: datetime.date | None = None,
    table_label: str = "",
) -> Session:
    """A sheet (HANDS.md) as a new open session of `club`, every hand scored and stored.

    The whole sheet is checked first; if anything is wrong nothing is stored and SheetProblems
    lists every problem ("hand 4: points: …"). Players missing from the roster are added to it,
    as a club moving from paper expects; a name on the roster spelt otherwise is a problem.
    A sheet holds at most MAX_IMPORT_HANDS hands. It is scored before the transaction, which
    only inserts (the write lock of SQLite is held for the whole transaction).
    """
    problems = Problems()
    sheet = read_sheet(data, problems)
    if sheet is not None:
        for i, raw in enumerate(data["hands"]):
            read_hand(raw, problems, f"hands[{i}]", sheet)
    messages = [sheets.describe_problem(p) for p in problems]
    roster: dict[str, Player | None] = {}
    if sheet is not None:
        roster, wrong_names = _check_import_roster(club, sheet)
        messages += wrong_names
    if messages:
        raise SheetProblems(messages)
    variant = sheet.variant
    rules_json = data.get("rules") or {}
    frozen = dict(rules.resolve_rules(variant.id, rules_json))
    frozen.setdefault("preset", rules_json.get("preset", variant.default_preset))
    names = list(roster)
    table = Sheet(variant, variant.rules(frozen), tuple(names))
    hand_jsons = [
        {"format": 1, "variant": variant.id, "rules": frozen, "players": names, **raw}
        for raw in data["hands"]
    ]
    try:
        scores = sheets.score_hands(
            table, list(enumerate(hand_jsons, start=1)), sheets.running_after(table, None)
        )
    except rules.RulesError as exc:
        raise SheetProblems([sheets.describe_problem(p) for p in exc.problems]) from None
    # Built before the transaction too: it only inserts them (into the session made there).
    hands = [
        Hand(
            number=number,
            data=hand_json,
            score=score,
            rules_version=str(rules.RULES_VERSION),
            created_by=user,
            changed_by=user,
        )
        for number, (hand_json, score) in enumerate(zip(hand_jsons, scores, strict=True), 1)
    ]
    with transaction.atomic():
        seated = _seat_imported(club, roster)
        session = Session(
            club=club,
            variant=variant.id,
            rules=frozen,
            date=date or timezone.localdate(),
            table_label=table_label,
            created_by=user,
        )
        session._history_user = user
        session.save()
        SessionSeat.objects.bulk_create(
            SessionSeat(session=session, player=player, position=position)
            for position, player in enumerate(seated, start=1)
        )
        for hand in hands:
            hand.session_id = session.pk
        Hand.objects.bulk_create(hands)
        Hand.history.bulk_history_create(hands, default_user=user)
        seats = {player.name: player.pk for player in seated}
        Entry.objects.bulk_create(entry for hand in hands for entry in _entries(hand, seats))
        announce_hands_changed(session)
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


# The sheet side, for views and commands: one import of services is enough.
session_sheet = sheets.session_sheet
evaluate_session = sheets.evaluate_session
sheet_json = sheets.sheet_json
export_json = sheets.export_json
export_csv = sheets.export_csv
session_history = sheets.session_history
