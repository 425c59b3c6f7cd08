"""Recording a new hand: scored as the next row of its sheet from the last hand's running state,
stored once whatever a phone sends twice, and checked against the same hand entered on
another phone."""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from django.db import transaction
from django.db.models import Q, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

import rules
from rules.fields import GLANCE_FIELDS, PLAYERS, field_of_kind
from scorebook import confirmations
from scorebook.errors import ServiceError
from scorebook.hands.refusals import JustRecorded, OtherSession, RepeatDiffers, check_writable
from scorebook.hands.rescoring import refresh_closing, running_before_making_rows
from scorebook.hands.rows import part_after
from scorebook.hands.scoring import Unscored, entries, row_score, running_after, scored
from scorebook.hands.session import engine_sheet, locked_session
from scorebook.hands.stored import as_seated, stored_in
from scorebook.models import Entry, Hand, Session
from scorebook.signals import announce_hands_changed, hand_recording

# How long a hand of another phone counts as "just recorded".
REPEAT_WINDOW = datetime.timedelta(minutes=5)


# What makes two hands "the same score" at a glance: the contract, who played it and how it
# went (card points, each player's pile, or made for a contract without card points).
SAME_SCORE_FIELDS = GLANCE_FIELDS


def _repeat_of(stored: Hand, session: Session, data: Mapping[str, Any]) -> Hand:
    """The stored hand a repeat of its client id is answered with: only when it says what
    this request would store (`data`, the hand's JSON: stored_in; marked `repeat`);
    otherwise refused."""
    if stored.session_id != session.pk:
        raise OtherSession(_("This hand was saved in another session."))
    if stored.data != data:
        raise RepeatDiffers(stored)
    stored.repeat = True
    return stored


def _hands_a_new_hand_meets(
    session: Session, client_id: uuid.UUID, device: str, latest: int
) -> tuple[Hand | None, list[Hand], list[Hand]]:
    """What a new hand is checked against, read in one statement under the session's lock:
    the hand stored with its client id (in any session: a repeat), the session's last
    `latest` hands, newest first (the last one's running state is where the new hand goes on
    from; a save that answers with the sheet shows the others), and the hands another phone
    recorded in the session within REPEAT_WINDOW (the same hand entered twice?). A phone's own
    hands are not among them (its outbox sends them in turn), nor are hands where neither
    phone said who it is (without JavaScript: two blank ids are equal)."""
    since = timezone.now() - REPEAT_WINDOW
    last = Subquery(session.hands.order_by("-number").values("number")[:1])
    others = Q(session=session, voided=False, created_at__gte=since) & ~Q(device=device)
    found = list(
        Hand.objects.filter(
            Q(client_id=client_id) | Q(session=session, number__gt=last - latest) | others
        ).order_by("-number")
    )
    repeat = next((hand for hand in found if hand.client_id == client_id), None)
    mine = [hand for hand in found if hand.session_id == session.pk]
    recent = [
        hand
        for hand in mine
        if not hand.voided and hand.created_at >= since and hand.device != device
    ]
    return repeat, mine[:latest], recent


def _check_not_just_recorded(recent: Iterable[Hand], data: Mapping[str, Any], user) -> None:
    """Refuse a hand (`data`: its JSON, as stored) with the same score as one of `recent`
    (another phone's, newest first), unless the scorekeeper confirmed it."""
    same = {key: data.get(key) for key in SAME_SCORE_FIELDS}
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
    locked: bool = False,
    latest: int = 0,
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

    `locked`: the caller holds a transaction in which it took the session's lock before it
    read `session` (session.lock_for_save): the session is not read again, and a refusal
    leaves the caller's transaction as it was (nothing is written before every check).
    `latest`: the new hand comes back with the latest `latest` rows of its sheet
    (`hand.latest`, a SheetPart), read with the hands it meets: what a save that answers with
    the sheet shows (a repeat comes back without them).
    """
    client_id = uuid.UUID(str(client_id))
    named = list(session.seat_names)
    new = _NewHand(data, client_id, user, change_closed, device, confirm_repeat, latest)
    if locked:
        assert transaction.get_connection().in_atomic_block, "locked: in the caller's lock"
        return _record(session, session, named, new)
    with transaction.atomic():
        # On PostgreSQL the row lock serialises writers of one session (and a rename of one
        # of its players); on SQLite the IMMEDIATE transaction has already taken the write
        # lock for the whole database. The seats are read under it: the names hands use.
        return _record(locked_session(session), session, named, new)


class _NewHand(NamedTuple):
    """What record_hand was asked to store, and how."""

    data: Mapping[str, Any]
    client_id: uuid.UUID
    user: Any
    change_closed: bool
    device: str
    confirm_repeat: bool
    latest: int


def _record(locked: Session, session: Session, named: list[str], new: _NewHand) -> Hand:
    """record_hand under the session's lock: `locked` is the session read under it, `named`
    the seats' names the hand's data uses (read from `session`)."""
    own = as_seated(locked, new.data, named, list(locked.seat_names))
    stored = stored_in(locked, own)  # the hand's JSON, made once
    repeat, earlier, recent = _hands_a_new_hand_meets(
        locked, new.client_id, new.device, max(new.latest, 1)
    )
    if repeat is not None:
        return _repeat_of(repeat, locked, stored)
    check_writable(locked, new.change_closed)
    hand_recording.send(sender=Session, session=locked, may_change_closed=new.change_closed)
    if not new.confirm_repeat:
        _check_not_just_recorded(recent, stored, new.user)
    last = earlier[0] if earlier else None
    row, running = _scored_after(locked, own, last)
    hand = Hand(
        session=locked,
        number=(0 if last is None else last.number) + 1,
        data=stored,
        score=row_score(row, running),
        rules_version=str(rules.RULES_VERSION),
        client_id=new.client_id,
        device=new.device,
        created_by=new.user,
        changed_by=new.user,
    )
    # Nothing is written before every check passed; what fails after fails the whole
    # transaction (the caller's too, when it holds the lock), never half a hand.
    with transaction.atomic(savepoint=False):
        _store_new(hand, row, new.user)
        # The listeners get the session read under the lock, which knows whether it is a
        # tournament's table (most are not: nothing to check after the commit), and the
        # caller's club.
        locked.club = session.club
        announce_hands_changed(locked)
    if new.latest:
        hand.latest = part_after(hand, earlier, new.latest)
    return hand


def _scored_after(session: Session, own: Mapping[str, Any], last: Hand | None):
    """The hand's row and the running state after it, scored as the row after the session's
    `last` hand from its stored running state (a session whose rows are missing gets them
    first). Refuses a hand that deals in a player who is not seated."""
    sheet = engine_sheet(session)
    try:
        before = running_after(sheet, None if last is None else last.score)
    except Unscored:
        before = running_before_making_rows(session, sheet)
    row, running = scored(sheet, own, before)
    if set(row.result.amounts) - set(session.seat_names):
        table = field_of_kind(PLAYERS).name
        raise ServiceError(_("Only seated players can be dealt in."), table)
    return row, running


def _store_new(hand: Hand, row, user) -> None:
    """Insert the new hand, its history row and its entries (from the row's exact amounts);
    a closed session (an admin's hand) gets its closing again."""
    session = hand.session
    hand._history_user = user
    hand.save()
    Entry.objects.bulk_create(entries(hand, session.seat_names, row.result.amounts))
    if session.is_closed:
        refresh_closing(session)
        confirmations.after_write(session, hand, user, admin=True)  # confirmed in his name
