"""The hand pipeline: the one path of a hand from the form (or an imported sheet) to the stored
hand, its row of the sheet and its entries, and the one place that reads them back.

A hand's own fields (HANDS.md) are scored by the engine as the next row of the session's sheet
and stored whole (`stored_hand`: with the session's format, variant, rules and players), so a
stored hand says everything on its own. The engine carries state from hand to hand (radelci,
the dealer), so each stored hand also keeps its row (`Hand.score`, made by `row_score`): its
amounts, lines and note, and the running state after it. A new hand is scored from the last
hand's running state alone, the sheet page reads the rows instead of replaying the session,
and a change rescores from the changed hand on.

Every write opens its own transaction (there is no ATOMIC_REQUESTS) and writes the entries and
rows of the hands it changes inside it, so the sum of a player's entries is always the sum of
the hands that are there. Every refusal is a ServiceError (scorebook.errors) carrying each
problem with its path; the engine's problems keep theirs (``points``, ``hands[3].points``).
"""

from __future__ import annotations

import datetime
import json
import re
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.db.models import Exists, F, OuterRef, Q, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

import rules
from rules import note, note_text
from rules.problems import Problem, Problems
from rules.reader import Sheet, read_hand
from rules.scoring import MAX_HANDS, Running, amount_json, play, read_sheet, start
from rules.words import phrase_from_json, phrase_json, phrase_text
from scorebook.amounts import cents
from scorebook.errors import Refusal, ServiceError
from scorebook.models import (
    WITH_TABLE,
    Club,
    Entry,
    Hand,
    Player,
    Session,
    SessionSeat,
    season_on,
)
from scorebook.signals import announce_hands_changed, hand_recording

# --- The stored hand: built here, read here ---------------------------------------------------

# What a stored hand repeats from its session; a hand inside a sheet leaves it out (HANDS.md).
SESSION_KEYS = ("format", "variant", "rules")


def engine_sheet(session: Session) -> Sheet:
    """The engine's view of a session: variant, frozen rules and the seated players."""
    variant = rules.get_variant(session.variant)
    return Sheet(variant, variant.rules(session.rules), tuple(session.seat_names))


def seated_session(**lookup: Any) -> Session | None:
    """The session matching `lookup` (a Session lookup: pk=…, club=…) with its seated
    players' names (`seat_names`) and its tournament table if it is one (its name), in one
    statement; None when there is none."""
    seats = (
        SessionSeat.objects.filter(**{f"session__{key}": value for key, value in lookup.items()})
        .select_related(f"session__{WITH_TABLE}")  # the session, and its name if a table
        .annotate(name=F("player__name"))
        .order_by("position")
    )
    seated = list(seats)
    if not seated:
        return None
    session = seated[0].session
    # What Session.seat_names would read with a query of its own.
    session.__dict__["seat_names"] = {seat.name: seat.player_id for seat in seated}
    return session


def _locked(session: Session) -> Session:
    """The session read afresh and locked until the transaction ends (PostgreSQL; SQLite's
    IMMEDIATE transaction holds the whole database), with whether it is a tournament's table:
    the listeners of hands_changed ask no tournament about a session that is none's. Its
    seats are read after it, by a statement of their own: one that waited for the lock
    (a rename) would see the rows it joins as they were when it began."""
    return (
        Session.objects.select_for_update(of=("self",))
        .select_related("tournament_table")
        .get(pk=session.pk)
    )


def stored_hand(
    variant: str, frozen: Mapping[str, Any], players: Iterable[str], own: Mapping[str, Any]
) -> dict[str, Any]:
    """What a hand stores: its own fields with its session's variant id, frozen rules and
    seated players, the full hand of HANDS.md."""
    return {"format": 1, "variant": variant, "rules": dict(frozen), "players": list(players), **own}


def _stored_in(session: Session, own: Mapping[str, Any]) -> dict[str, Any]:
    return stored_hand(session.variant, session.rules, session.seat_names, own)


def sheet_hand(data: Mapping[str, Any], players: Iterable[str]) -> dict[str, Any]:
    """A hand (stored, or its own fields) as it appears inside a sheet: no format, variant or
    rules, and no players when all of the sheet's players were dealt in."""
    hand = {key: value for key, value in data.items() if key not in SESSION_KEYS}
    if list(hand.get("players", ())) == list(players):
        del hand["players"]
    return hand


# Where a hand names a player (HANDS.md): as a value, as the keys of a map, inside list items.
_NAME_FIELDS = ("dealer", "declarer", "partner", "announcer")
_NAME_MAPS = ("points_by_player", "tricks_by_player", "radelci")
_NAME_ITEMS = ("bonuses", "declarations", "adjustments")


def rename_in_hand(data: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    """A hand with players renamed (old name -> new name) wherever they appear: hands keep
    names, so a renamed roster player's hands must follow him or they no longer match his
    seat. The names change all at once, so two players may swap names."""

    def swap(value: Any) -> Any:
        return names.get(value, value) if isinstance(value, str) else value

    hand = dict(data)
    if isinstance(hand.get("players"), list):
        hand["players"] = [swap(name) for name in hand["players"]]
    for key in _NAME_FIELDS:
        if key in hand:
            hand[key] = swap(hand[key])
    for key in _NAME_MAPS:
        if isinstance(hand.get(key), dict):
            hand[key] = {swap(name): value for name, value in hand[key].items()}
    for key in _NAME_ITEMS:
        if isinstance(hand.get(key), list):
            hand[key] = [
                {**item, "player": swap(item["player"])}
                if isinstance(item, dict) and "player" in item
                else item
                for item in hand[key]
            ]
    return hand


# --- Rows of the sheet --------------------------------------------------------------------------


def row_score(row: rules.SheetRow, running: Running) -> dict[str, Any]:
    """What a hand stores of its row: amounts, the engine's lines, the paper note, the dealer,
    and the running state after it (totals, radelci, next dealer). Lines and note are stored
    as words (ids and values, rules.words), said in the reader's language when shown."""
    result = row.result
    return {
        "amounts": {name: amount_json(a) for name, a in result.amounts.items()},
        "lines": [stored_line(line) for line in result.lines],
        "note": phrase_json(note(result)),
        "dealer": row.dealer,
        "running": running.to_json(),
    }


def stored_line(line: rules.Line) -> list[Any]:
    """A line as a stored row keeps it: ``[words, {player: amount}]``."""
    return [phrase_json(line.words), {name: amount_json(a) for name, a in line.amounts.items()}]


def line_text(stored: list[Any]) -> str:
    """A stored line's words in the reader's language."""
    return phrase_text(phrase_from_json(stored[0]))


def stored_note_text(stored: list[Any]) -> str:
    """A stored row's paper note in the reader's language."""
    return note_text(phrase_from_json(stored))


def void_score(running: Running) -> dict[str, Any]:
    """A voided hand's row: no amounts; the running state passes through it unchanged."""
    return {"running": running.to_json()}


class Unscored(Exception):
    """A hand has no stored row: it was stored before rows were kept, and the migration that
    made them could not score its session."""


def running_after(sheet: Sheet, score: Mapping[str, Any] | None) -> Running:
    """Where the sheet stands after a hand with this stored score (None: before any hand)."""
    if score is None:
        return start(sheet.variant, sheet.rules, sheet.players)
    if "running" not in score:
        raise Unscored
    return Running.from_json(score["running"])


def running_before(session: Session, sheet: Sheet, number: int | None = None) -> Running:
    """Where the session's sheet stands before hand `number` (None: after its last hand), read
    from the stored rows; raises Unscored where the row before is missing."""
    hands = session.hands.order_by("-number")
    if number is not None:
        hands = hands.filter(number__lt=number)
    return running_after(sheet, hands.values_list("score", flat=True).first())


def score_next(sheet: Sheet, hand: Mapping[str, Any], running: Running) -> rules.SheetRow:
    """A hand about to be stored, scored as the row after `running`. Raises RulesError with
    paths of the hand alone (``points``)."""
    problems = Problems()
    read = read_hand(sheet_hand(hand, sheet.players), problems, "", sheet)
    problems.raise_if_any()
    return play(sheet.variant, sheet.rules, sheet.players, read[2], running)


def score_hands(
    sheet: Sheet, hands: Sequence[tuple[int, Mapping[str, Any] | None]], running: Running
) -> list[dict[str, Any]]:
    """The stored score of each (number, hand) in order, continuing from `running`; hand None
    is a voided hand. Raises RulesError naming each hand the engine does not accept by its
    number (``hands[3]`` is hand 4)."""
    problems = Problems()
    scores = []
    for number, data in hands:
        if data is None:
            scores.append(void_score(running))
            continue
        read = read_hand(
            sheet_hand(data, sheet.players), problems, f"hands[{number - 1}]", sheet, entered=False
        )
        if read is None:
            continue
        row, running = play(sheet.variant, sheet.rules, sheet.players, read[2], running)
        scores.append(row_score(row, running))
    problems.raise_if_any()
    return scores


# What the sheet reads of a hand: number, voided, void reason, stored row.
SHEET_FIELDS = ("number", "voided", "void_reason", "score")


def stored_rows(session: Session) -> list[tuple[int, bool, str, dict[str, Any]]]:
    """Each hand's (number, voided, void reason, stored row), in order: what a sheet shows,
    read without replaying the session."""
    return latest_rows(session).rows


@dataclass(frozen=True)
class SheetPart:
    """Rows of a session's sheet in number order, read in one statement with what a phone
    polling the sheet compares: the sheet page shows the latest of them, a poll those changed."""

    rows: list[tuple[int, bool, str, dict[str, Any]]]
    # The stored row of the hand before the first of `rows` (None: they start at hand 1): the
    # totals and the radelci held that they continue from.
    before: dict[str, Any] | None
    # When a hand of the session last changed (None: it has none) and its last hand's number.
    changed: datetime.datetime | None = None
    last: int = 0


def _read(session: Session, hands, limit: int | None = None, **more) -> tuple[list[tuple], Any]:
    """The rows of `hands` (a query of the session's hands, ordered), at most `limit`, with
    when a hand of the session last changed, read in the same statement (an edit changes an
    earlier hand and rescores the ones after it without touching theirs, so the rows read
    need not hold the last change), and the values of `more` (the same on every row)."""
    last_change = (
        Hand.objects.filter(session_id=session.pk)  # a value read once, not once a row
        .order_by("-changed_at")
        .values("changed_at")[:1]
    )
    found = list(
        hands.annotate(last_change=Subquery(last_change), **more).values_list(
            *SHEET_FIELDS, "last_change", *more
        )[:limit]
    )
    if not found:
        return [], [None] * (1 + len(more))
    return [row[: len(SHEET_FIELDS)] for row in found], list(found[0][len(SHEET_FIELDS) :])


def latest_rows(session: Session, count: int | None = None) -> SheetPart:
    """The session's last `count` rows (None: all of them): what the sheet page opens on and
    a save answers with, the same size however long the evening."""
    if count is None:
        rows, (changed,) = _read(session, session.hands.order_by("number"))
    else:
        rows, (changed,) = _read(session, session.hands.order_by("-number"), count + 1)
        rows.reverse()
    before = rows.pop(0)[3] if count is not None and len(rows) > count else None
    return SheetPart(rows, before, changed, rows[-1][0] if rows else 0)


def rows_before(session: Session, number: int) -> SheetPart:
    """The rows of the hands before hand `number`: the older rows a phone asks for."""
    older = session.hands.filter(number__lt=number).order_by("number")
    return SheetPart(list(older.values_list(*SHEET_FIELDS)), None)


def unchanged_since(club: Club, pk: int, since: datetime.datetime, closed: bool) -> bool:
    """Whether the club's session `pk` is as a phone saw it at `since`: still closed, or still
    open, and no hand of it changed after. One statement."""
    changed = Hand.objects.filter(session_id=OuterRef("pk"), changed_at__gt=since)
    same = Session.objects.filter(club=club, pk=pk, is_closed=closed).filter(~Exists(changed))
    return same.exists()


def rows_changed_since(session: Session, since: datetime.datetime, limit: int) -> SheetPart | None:
    """The rows of the hands changed after `since` and of every hand after the first of them
    (its change moved their running totals), for a phone that shows the sheet as it was then;
    no rows when nothing changed, None when more than `limit` did (the phone had better load
    the latest rows afresh). One statement, whatever the session's length."""
    changed_since = session.hands.filter(changed_at__gt=since).order_by("number")
    first = Subquery(changed_since.values("number")[:1])
    rows, (changed, first_changed) = _read(
        session,
        session.hands.filter(number__gte=first - 1).order_by("number"),
        limit + 2,
        first_changed=first,
    )
    before = rows.pop(0)[3] if rows and rows[0][0] < first_changed else None
    if len(rows) > limit:
        return None
    return SheetPart(rows, before, changed, rows[-1][0] if rows else 0)


# --- The whole sheet at once --------------------------------------------------------------------


def evaluate_session(
    session: Session, closed: bool | None = None
) -> tuple[list[Hand], rules.SheetResult]:
    """The session's non-voided hands in number order and the engine's replay of all of them:
    for what needs the whole sheet at once (settlement, export, the league's radelci) and as
    the truth the stored rows agree with. ``rows[i]`` of the result belongs to ``hands[i]``;
    a stored hand the engine no longer accepts raises RulesError with ``hands[i]``.
    """
    sheet = engine_sheet(session)
    hands = list(session.hands.filter(voided=False).order_by("number"))
    problems = Problems()
    read = []
    for i, hand in enumerate(hands):
        found = read_hand(
            sheet_hand(hand.data, sheet.players), problems, f"hands[{i}]", sheet, entered=False
        )
        if found is not None:
            read.append(found[2])
    problems.raise_if_any()
    result = rules.evaluate(
        sheet.variant,
        sheet.rules,
        sheet.players,
        read,
        session.is_closed if closed is None else closed,
    )
    return hands, result


def session_sheet(session: Session, closed: bool | None = None) -> rules.SheetResult:
    """The evaluated sheet of a session (running totals, radelci, closing lines, settlement).

    ``closed`` defaults to whether the session is closed: only a closed sheet has the
    end-of-session radelc penalties in its totals.
    """
    return evaluate_session(session, closed)[1]


# --- Preview --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scored:
    """A hand scored in its place but not stored: what the form shows under the fields."""

    result: rules.HandResult
    note: str


def preview(session: Session, own: Mapping[str, Any], number: int | None = None) -> Scored:
    """The hand's own fields scored as hand `number` (None: the next hand), storing nothing.
    Raises ServiceError with the engine's problems (paths of the hand alone)."""
    sheet = engine_sheet(session)
    try:
        before = running_before(session, sheet, number)
    except Unscored:
        raise ServiceError(
            _("A hand before this one could not be scored; edit or void it.")
        ) from None
    row = _scored(sheet, own, before)[0]
    return Scored(row.result, note_text(note(row.result)))


def _scored(sheet: Sheet, own: Mapping[str, Any], before: Running) -> rules.SheetRow:
    """score_next, the engine's refusal as the pipeline's."""
    try:
        return score_next(sheet, own, before)
    except rules.RulesError as exc:
        raise ServiceError.of(exc.problems) from None


# --- Writing hands ----------------------------------------------------------------------------


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


class HandVoided(ServiceError):
    """The hand was voided (on another phone, most likely) since its edit form was opened."""

    def __init__(self):
        super().__init__(_("This hand was voided on another phone."))


class Refused(ServiceError):
    """A new hand refused as a whole, for nothing wrong with its fields: a phone sending its
    outbox tells each kind apart (and the form says it above the fields)."""


class SessionClosed(Refused):
    pass


class OtherSession(Refused):
    """The hand's client id was stored with a hand of another session."""


class RepeatDiffers(Refused):
    """A hand's client id came again with other content: a form reopened from a cache, or an
    outbox entry changed after it was sent. Never mapped silently to the first hand."""

    def __init__(self, stored: Hand):
        super().__init__(
            _(
                "This hand was already sent as hand %(number)d with other content; "
                "check the sheet and enter it again."
            )
            % {"number": stored.number}
        )
        self.hand = stored


class JustRecorded(Refused):
    """Another phone recorded a hand with the same score a moment ago: likely the same hand
    entered twice at the table; stored again only when the scorekeeper confirms it."""

    def __init__(self, stored: Hand, user):
        recorder = stored.created_by
        if recorder is None:
            phone = _("another phone")
        elif recorder == user:
            phone = _("your other phone")
        else:
            name = recorder.get_full_name() or recorder.get_username()
            phone = _("%(name)s's phone") % {"name": name}
        super().__init__(
            _(
                "Hand %(number)d was just recorded by %(phone)s with the same score "
                "— record it again?"
            )
            % {"number": stored.number, "phone": phone}
        )
        self.hand = stored


# How long a hand of another phone counts as "just recorded".
REPEAT_WINDOW = datetime.timedelta(minutes=5)
# What makes two hands "the same score" at a glance: the contract, who played it and how it
# went (card points, each player's pile, or made for a contract without card points).
SAME_SCORE_FIELDS = ("contract", "declarer", "partner", "points", "points_by_player", "made")


def _check_writable(session: Session, change_closed: bool) -> None:
    if session.is_closed and not change_closed:
        raise SessionClosed(_("This session is closed; only a club admin can change it."))


def lock_players(players: Sequence[Player]) -> dict[int, Player]:
    """Lock roster players about to be seated (in pk order), so that a rename of one of them
    either finished before or waits and then sees the new session's seat."""
    return {
        player.pk: player
        for player in Player.objects.select_for_update(no_key=True)
        .filter(pk__in=[player.pk for player in players])
        .order_by("pk")
    }


def rescore(session: Session, from_number: int, renamed: Mapping[str, str] | None = None) -> None:
    """Rescore every hand numbered `from_number` or later from the running state before it,
    storing each row and rewriting its entries: an edit or a void changes the radelci and the
    dealer, so the amounts of the hands after it. The caller holds the session's lock.

    With `renamed` (old name -> new name: a roster rename) each hand's data is renamed first
    and stored with its row; no amount changes, and entries name players by id, so they stay.
    """
    seats = session.seat_names
    sheet = engine_sheet(session)
    hands = list(
        session.hands.filter(number__gte=from_number)
        .order_by("number")
        # With "session": a related manager fetches an instance's missing key one by one.
        .only("pk", "session", "number", "data", "voided")
    )
    if renamed:
        for hand in hands:
            hand.data = rename_in_hand(hand.data, renamed)
    scores = score_hands(
        sheet,
        [(hand.number, None if hand.voided else hand.data) for hand in hands],
        _running_before_making_rows(session, sheet, from_number),
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


def _running_before_making_rows(
    session: Session, sheet: Sheet, number: int | None = None
) -> Running:
    """running_before, for a write holding the session's lock: where a hand has no row (stored
    before rows were kept) the session's rows are made first. A stored hand the engine rejects
    then raises RulesError, as a replay of the whole sheet would."""
    try:
        return running_before(session, sheet, number)
    except Unscored:
        rescore(session, 1)
        return running_before(session, sheet, number)


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
    return rename_in_hand(data, dict(zip(named, seated, strict=True)))


def _repeat_of(stored: Hand, session: Session, own: Mapping[str, Any]) -> Hand:
    """The stored hand a repeat of its client id is answered with: only when it says what
    this request would store (marked `repeat`); otherwise refused."""
    if stored.session_id != session.pk:
        raise OtherSession(_("This hand was saved in another session."))
    # Through JSON, as the stored data came back from the database (tuples become lists).
    if stored.data != json.loads(json.dumps(_stored_in(session, own))):
        raise RepeatDiffers(stored)
    stored.repeat = True
    return stored


def _hands_a_new_hand_meets(
    session: Session, client_id: uuid.UUID, device: str
) -> tuple[Hand | None, Hand | None, list[Hand]]:
    """What a new hand is checked against, read in one statement under the session's lock:
    the hand stored with its client id (in any session: a repeat), the session's last hand
    (the running state it continues from), and the hands another phone recorded in the
    session within REPEAT_WINDOW (the same hand entered twice?). A phone's own hands are not
    among them (its outbox sends them in turn), nor are hands where neither phone said who it
    is (without JavaScript: two blank ids are equal)."""
    since = timezone.now() - REPEAT_WINDOW
    last = Subquery(session.hands.order_by("-number").values("number")[:1])
    others = Q(session=session, voided=False, created_at__gte=since) & ~Q(device=device)
    found = list(
        Hand.objects.filter(
            Q(client_id=client_id) | Q(session=session, number=last) | others
        ).order_by("-number")
    )
    repeat = next((hand for hand in found if hand.client_id == client_id), None)
    mine = [hand for hand in found if hand.session_id == session.pk]
    recent = [
        hand
        for hand in mine
        if not hand.voided and hand.created_at >= since and hand.device != device
    ]
    return repeat, (mine[0] if mine else None), recent


def _check_not_just_recorded(recent: Iterable[Hand], own: Mapping[str, Any], user) -> None:
    """Refuse a hand with the same score as one of `recent` (another phone's, newest first),
    unless the scorekeeper confirmed it."""
    same = {key: own.get(key) for key in SAME_SCORE_FIELDS}
    for hand in recent:
        if {key: hand.data.get(key) for key in SAME_SCORE_FIELDS} == same:
            raise JustRecorded(hand, user)


def record_hand(
    session: Session,
    data: Mapping[str, Any],
    client_id: uuid.UUID | str,
    user,
    *,
    change_closed: bool = False,
    device: str = "",
    confirm_repeat: bool = False,
) -> Hand:
    """Score and store the next hand of a session (`data`: its own fields), with one entry
    per player dealt in.

    `data` names the players as `session.seat_names` did when the form was built (the view
    reads them from this very instance); a player renamed since is matched by his seat.
    The hand is scored as the next row of the session's sheet, from the running state stored
    with the last hand, so radelci held from earlier hands count and the cost does not grow
    with the session. Idempotent on `client_id`: a phone that sends the same hand twice gets
    the first one back (marked `repeat`); the same id with other content is RepeatDiffers.
    `device` is the recording phone's id: a hand with the same score as one another phone
    recorded within REPEAT_WINDOW is JustRecorded, unless `confirm_repeat`. `change_closed`:
    the caller may change a closed session (access.can_change_closed). Raises ServiceError
    (the engine's problems with paths of the hand; a Refused for the hand as a whole).
    """
    client_id = uuid.UUID(str(client_id))
    named = list(session.seat_names)
    with transaction.atomic():
        # On PostgreSQL the row lock serialises writers of one session (and a rename of one
        # of its players); on SQLite the IMMEDIATE transaction has already taken the write
        # lock for the whole database. The seats are read under it: the names hands use.
        locked = _locked(session)
        seats = locked.seat_names
        own = _as_seated(data, named, list(seats))
        repeat, last, recent = _hands_a_new_hand_meets(locked, client_id, device)
        if repeat is not None:
            return _repeat_of(repeat, locked, own)
        _check_writable(locked, change_closed)
        hand_recording.send(sender=Session, session=locked, may_change_closed=change_closed)
        if not confirm_repeat:
            _check_not_just_recorded(recent, own, user)
        sheet = engine_sheet(locked)
        try:
            before = running_after(sheet, None if last is None else last.score)
        except Unscored:
            before = _running_before_making_rows(locked, sheet)
        row, running = _scored(sheet, own, before)
        if set(row.result.amounts) - set(seats):
            raise ServiceError(_("Only seated players can be dealt in."), "players")
        hand = Hand(
            session=locked,
            number=(0 if last is None else last.number) + 1,
            data=_stored_in(locked, own),
            score=row_score(row, running),
            rules_version=str(rules.RULES_VERSION),
            client_id=client_id,
            device=device,
            created_by=user,
            changed_by=user,
        )
        hand._history_user = user
        hand.save()
        Entry.objects.bulk_create(_entries(hand, seats))
        if locked.is_closed:  # an admin's hand
            _refresh_closing(locked)
        # The listeners get the session read under the lock, which knows whether it is a
        # tournament's table (most are not: nothing to check after the commit), and the
        # caller's club.
        locked.club = session.club
        announce_hands_changed(locked)
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
    hand: Hand, data: Mapping[str, Any], version: int, user, *, change_closed: bool = False
) -> Hand:
    """Replace what was entered for a hand (`data`: its own fields) and rescore it and every
    hand after it.

    `version` is the hand's version when the form was opened: if somebody saved a change
    since, HandChanged is raised and nothing changes. A closed session is changed only with
    `change_closed`. Raises ServiceError (the engine's problems with paths of the hand).
    """
    with transaction.atomic():
        session = Session.objects.select_for_update().get(pk=hand.session_id)
        _check_writable(session, change_closed)
        # Before anything is written: a voided hand stays as it was voided, whatever the
        # version its form carries.
        if Hand.objects.filter(pk=hand.pk, voided=True).exists():
            raise HandVoided()
        hand = _update_hand(
            hand,
            version,
            user,
            "edited",
            data=_stored_in(session, data),
            rules_version=str(rules.RULES_VERSION),
        )
        # Check the new hand in its place first: its problems have its own paths.
        sheet = engine_sheet(session)
        _scored(sheet, data, _running_before_making_rows(session, sheet, hand.number))
        rescore(session, hand.number)
        announce_hands_changed(session)
    return hand


def void_hand(hand: Hand, reason: str, version: int, user, *, change_closed: bool = False) -> Hand:
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
        _check_writable(session, change_closed)
        if Hand.objects.filter(pk=hand.pk, voided=True).exists():
            raise ServiceError(_("This hand is voided already."))
        hand = _update_hand(hand, version, user, reason, voided=True, void_reason=reason)
        rescore(session, hand.number)
        announce_hands_changed(session)
    return hand


# --- Closing ----------------------------------------------------------------------------------


def closing(session: Session) -> dict[str, Any]:
    """What closing adds to the session's sheet, from where it stands after its last hand:
    the closing lines (end-of-session radelc penalties), totals and settlement. The caller
    holds the session's lock (a hand without a row gets one first)."""
    table = engine_sheet(session)
    sheet = rules.evaluate(
        table.variant,
        table.rules,
        table.players,
        [],
        True,
        _running_before_making_rows(session, table),
    )
    return {
        "lines": [stored_line(line) for line in sheet.closing],
        "totals": dict(sheet.totals),
        "settlement": sheet.settlement.to_json(),
    }


def _refresh_closing(session: Session) -> None:
    """A closed session's hands changed (an admin): its closing follows. The change itself is
    in the hand's history; this derived copy gets no history row of its own."""
    session.closing = closing(session)
    Session.objects.filter(pk=session.pk).update(closing=session.closing)


# --- Import -------------------------------------------------------------------------------------


class SheetProblems(ServiceError):
    """A sheet that cannot be imported; `problems` lists every reason, and `messages` says
    each with its hand counted from 1 ("hand 4: points: …")."""

    def __init__(self, problems: Sequence[Any]):
        messages = [describe_problem(problem) for problem in problems]
        super().__init__("\n".join(messages))
        self.problems = list(problems)
        self.messages = messages


# What one sheet may be: its text (the import form's cap) and its hands (the engine's, one
# session's worth: a longer sheet is refused before any of its hands is read).
MAX_SHEET_BYTES = 2_000_000
MAX_IMPORT_HANDS = MAX_HANDS

_HAND_PATH = re.compile(r"^hands\[(\d+)\]\.?(.*)$")


def describe_problem(problem: Problem | Refusal) -> str:
    """A sheet problem with its hand number counted from 1: ``hands[3].points`` → "hand 4:
    points: …"."""
    match = _HAND_PATH.match(problem.path)
    if match is None:
        return str(problem)
    number = int(match.group(1)) + 1
    rest = match.group(2)
    where = _("hand %(number)d") % {"number": number}
    if rest:
        where = f"{where}: {rest}"
    return f"{where}: {problem.message}"


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
    locked = lock_players([player for player in roster.values() if player is not None])
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
                [
                    Refusal(
                        "",
                        _("%(name)s changed on the roster meanwhile; import again.")
                        % {"name": name},
                    )
                ]
            )
        seated.append(player)
    return seated


def _read_import(club: Club, data: Any) -> tuple[Sheet, dict[str, Player | None]]:
    """The sheet read by the engine, every hand of it, and its players with their roster
    players; raises SheetProblems with everything wrong."""
    problems: list[Any] = Problems()
    sheet = read_sheet(data, problems)
    if sheet is not None:
        for i, raw in enumerate(data["hands"]):
            read_hand(raw, problems, f"hands[{i}]", sheet)
    roster: dict[str, Player | None] = {}
    if sheet is not None:
        roster, wrong_names = _check_import_roster(club, sheet)
        problems += [Refusal("", message) for message in wrong_names]
    if problems:
        raise SheetProblems(problems)
    return sheet, roster


def _score_import(data: Any, sheet: Sheet, roster: Mapping[str, Player | None], user):
    """The sheet's frozen rules and its hands, scored and ready to insert (no session yet)."""
    variant = sheet.variant
    rules_json = data.get("rules") or {}
    frozen = dict(rules.resolve_rules(variant.id, rules_json))
    frozen.setdefault("preset", rules_json.get("preset", variant.default_preset))
    table = Sheet(variant, variant.rules(frozen), tuple(roster))
    hand_jsons = [stored_hand(variant.id, frozen, roster, raw) for raw in data["hands"]]
    try:
        scores = score_hands(
            table, list(enumerate(hand_jsons, start=1)), running_after(table, None)
        )
    except rules.RulesError as exc:
        raise SheetProblems(exc.problems) from None
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
    return frozen, hands


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

    sheet, roster = _read_import(club, data)
    frozen, hands = _score_import(data, sheet, roster, user)
    date = date or timezone.localdate()
    with transaction.atomic():
        seated = _seat_imported(club, roster)
        session = Session(
            club=club,
            season=season_on(club, date),  # filed by its date, as a session started here is
            variant=sheet.variant.id,
            rules=frozen,
            house_rules_name=sheet.house_rules,  # kept though the club has no set of that name
            date=date,
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
