"""Confirmed hands (issue 27): the other side says "yes" to every hand, on the phone that
recorded it or on his own.

A session freezes its club's setting (a tournament table its tournament's) as it starts: off,
asked (a hand shows as unconfirmed until confirmed) or required (the session closes, and a
tournament table finishes, only when every hand is). Each word said of a hand is a
HandConfirmation of the hand's version: an edit or a void makes a new version, which has no
word yet, so it is asked again, and the words of older versions stay as the history. Who may
say it comes from the engine's sides of the hand (`rules.model.Hand.sides`) and its recorder:
the roster player linked to the account that last wrote the hand.

Every refusal is a Refused (a ServiceError) that says why, and nothing is written then. A word
written touches the hand's `changed_at` (a phone polling the sheet sees it) and sends
hands_changed, as a changed hand does (with `words=True`): a tournament table whose last hand
it was finishes.
Everything a page shows of the words comes from one statement over the hands it shows
(`read`).
"""

from __future__ import annotations

import datetime
import re
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.contrib.auth.hashers import check_password, make_password
from django.core.exceptions import ObjectDoesNotExist
from django.db import transaction
from django.db.models import (
    CharField,
    Count,
    Exists,
    F,
    IntegerField,
    JSONField,
    OuterRef,
    Q,
    Subquery,
    Value,
)
from django.db.models.functions import JSONObject
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

import rules
from rules.fields import FIELDS, PLAYER, POINTS, RECORD_FIELDS, RECORD_HEAD
from rules.model import Hand as EngineHand
from rules.reader import has_control_characters
from scorebook.errors import ServiceError
from scorebook.models import (
    WITH_TABLE,
    Confirmation,
    Hand,
    HandConfirmation,
    Player,
    Profile,
    Role,
    Session,
    SessionSeat,
)
from scorebook.signals import announce_hands_changed
from scorebook.templatetags.amounts import amount, number
from scorebook.textinput import control_message
from scorebook.tournaments.models import SamePhone

State = HandConfirmation.State
How = HandConfirmation.How
# What a hand's words come to: a word said (State), or none yet where one is wanted, or none
# wanted (a voided hand that nobody had confirmed: it is struck, nothing to agree to).
WAITING = "waiting"
NOTHING = "nothing"
SETTLED = (State.CONFIRMED, State.RESOLVED)
MAX_REASON = HandConfirmation._meta.get_field("reason").max_length
PIN = re.compile(r"[0-9]{4}", re.ASCII)
# Five wrong PINs in a row refuse a player's PIN for a quarter of an hour: a guesser at the
# table needs weeks for 10,000, a player who mistyped waits one round of drinks.
WRONG_PINS = 5
PIN_REFUSED_FOR = datetime.timedelta(minutes=15)


# --- The settings --------------------------------------------------------------------------


def asks(session: Session) -> bool:
    """Whether the session's hands wait for the other side's word."""
    return session.confirmation in (Confirmation.ASKED, Confirmation.REQUIRED)


def requires(session: Session) -> bool:
    """Whether the session closes (its tournament table finishes) only when every hand is
    confirmed."""
    return session.confirmation == Confirmation.REQUIRED


def same_phone_policy(session: Session) -> str:
    """Whether a player may confirm on the phone that recorded the hand: "allowed", "pin"
    or "refused" (a tournament's choice; a club's session allows it). Free for a session
    read with its table (WITH_TABLE)."""
    try:
        table = session.tournament_table
    except ObjectDoesNotExist:
        return SamePhone.ALLOWED
    return table.round.tournament.same_phone


# --- Who may confirm -------------------------------------------------------------------------


def engine_hand(data: Mapping[str, Any]) -> EngineHand:
    """The engine's hand of a stored hand, as far as a player checks it: who was dealt in, the
    contract, who played it (its fields of a player: the declarer, his partner) and its card
    points; every field read by its kind (rules/fields.py), a value of another type left out."""
    variant, players, contract = (data.get(name) for name in RECORD_HEAD)
    singles = {
        name: value
        for name, _empty in RECORD_FIELDS
        if isinstance(value := data.get(name), _SINGLE_TYPES.get(FIELDS[name].kind, ()))
    }
    return EngineHand(
        variant=str(variant or ""),
        players=tuple(name for name in players or () if isinstance(name, str)),
        contract=str(contract or ""),
        **singles,
    )


# The types a stored hand's single values of a kind a player checks may have.
_SINGLE_TYPES = {PLAYER: (str,), POINTS: (int, float)}


def may_confirm(data: Mapping[str, Any], recorder: str | None) -> tuple[str, ...]:
    """The players who may confirm a hand recorded by `recorder` (his roster name, None: an
    account linked to no player), in seat order: those dealt in who are not on his side.

    A hand without sides (klop, varsovia, a redeal, an adjustment: no declarer) and a hand
    of two players: anybody dealt in but the recorder. A recorder not dealt in (a club's
    tablet, a steward) counts as nobody: anybody dealt in."""
    hand = engine_hand(data)
    if recorder not in hand.players:
        return hand.players
    declarers, defenders = hand.sides
    if not declarers or len(hand.players) == 2:
        return tuple(name for name in hand.players if name != recorder)
    return defenders if recorder in declarers else declarers


# --- What is said of each hand -----------------------------------------------------------------


@dataclass(frozen=True)
class Word:
    """The word said of a hand's current version."""

    state: str
    how: str
    by: str  # the player's name, or the account's for an admin at no seat
    reason: str


@dataclass(frozen=True)
class HandState:
    """A hand as the confirmations show it."""

    pk: int
    number: int
    version: int
    voided: bool
    kind: str  # a State, WAITING or NOTHING
    word: Word | None
    allowed: tuple[str, ...]  # who may confirm it
    mine: bool  # the reader may confirm it himself
    dealt: tuple[str, ...]  # the players dealt in
    recorded_by: str  # the recorder's player, else his account
    # What `line` is said from, only for the hands a page shows it of.
    said_from: tuple[Any, ...] = field(default=(), compare=False, repr=False)

    @cached_property
    def line(self) -> str:
        """ "two — Ana, Cene 45 — +35" (`hand_line`)."""
        return hand_line(*self.said_from)

    @property
    def open(self) -> bool:
        """Still to be confirmed: waiting or disputed."""
        return self.kind in (WAITING, State.DISPUTED)

    @property
    def disputed(self) -> bool:
        return self.kind == State.DISPUTED

    @property
    def waiting(self) -> bool:
        return self.kind == WAITING

    @property
    def confirmed(self) -> bool:
        return self.kind in SETTLED

    @property
    def said(self) -> str:
        """Its state in words (`describe`)."""
        return describe(self)


@dataclass(frozen=True)
class Read:
    """What one statement read of a session's hands: each hand's state, and the reader's
    seat (his player's name and id; None: he sits at none)."""

    states: list[HandState]
    me: str | None
    me_id: int | None

    def of(self, number: int) -> HandState | None:
        return next((state for state in self.states if state.number == number), None)


def _words():
    """The words said of the version of the hand of the outer query, the last first."""
    return HandConfirmation.objects.filter(
        hand=OuterRef("pk"), hand_version=OuterRef("version")
    ).order_by("-pk")


def _settled_before():
    """Whether the version before the outer query's hand was confirmed: a void of a confirmed
    hand waits for the other side's word (`_state`)."""
    return Exists(
        HandConfirmation.objects.filter(
            hand=OuterRef("pk"), hand_version=OuterRef("version") - 1, state__in=SETTLED
        )
    )


def _said(words):
    """The last of `words` as one value: what `_word` reads."""
    return words.annotate(
        said=JSONObject(
            state="state",
            how="how",
            reason="reason",
            player="player__name",
            username="user__username",
            first="user__first_name",
            last="user__last_name",
        )
    ).values("said")[:1]


NO_NAME = Value(None, output_field=CharField())
NO_ID = Value(None, output_field=IntegerField())


def unsettled() -> Q:
    """The hands that may still wait for a word: none said of this version, or a dispute."""
    return Q(word_state=None) | Q(word_state=State.DISPUTED)


def read(session: Session, user, where: Q, *, lock: bool = False) -> Read:
    """The state of each of the session's hands matching `where` (may use `word_state`, the
    word said of its version, and `number`), in number order, in one statement; `lock`:
    their rows locked until the transaction ends (an edit of one waits for the word)."""
    words = _words()
    said = _said(words)
    recorder = Player.objects.filter(club_id=session.club_id, user_id=OuterRef("changed_by_id"))
    mine = SessionSeat.objects.filter(
        session_id=session.pk, player__user_id=getattr(user, "pk", None)
    )
    rows = (
        Hand.objects.filter(session_id=session.pk)
        .annotate(
            word=Subquery(said, output_field=JSONField()),
            word_state=Subquery(words.values("state")[:1]),
            settled_before=_settled_before(),
            recorder=Subquery(recorder.values("name")[:1]),
            me=Subquery(mine.values("player__name")[:1]) if user else NO_NAME,
            me_id=Subquery(mine.values("player_id")[:1]) if user else NO_ID,
        )
        .filter(where)
        .order_by("number")
    )
    if lock:
        rows = rows.select_for_update(of=("self",))
    rows = rows.values_list(*ROW_FIELDS)
    found = [dict(zip(ROW_FIELDS, row, strict=True)) for row in rows]
    me = found[0]["me"] if found else None
    variant = rules.get_variant(session.variant)
    states = [_state(row, variant, me) for row in found]
    return Read(states, me, found[0]["me_id"] if found else None)


ROW_FIELDS = (
    "pk",
    "number",
    "version",
    "voided",
    "void_reason",
    "data",
    "score",
    "word",
    "settled_before",
    "recorder",
    "me",
    "me_id",
    "changed_by__username",
)


def _word(said: Mapping[str, Any] | None) -> Word | None:
    """A word as `read` finds it, named by its player, else by the account that said it."""
    if not said:
        return None
    account = " ".join(part for part in (said["first"], said["last"]) if part)
    by = said["player"] or account or said["username"] or "–"
    return Word(said["state"], said["how"], by, said["reason"] or "")


def _state(row: Mapping[str, Any], variant, me: str | None) -> HandState:
    word = _word(row["word"])
    if word is not None:
        kind = word.state
    elif row["voided"]:
        # A void of a confirmed hand needs the other side's word; of any other, none.
        kind = WAITING if row["settled_before"] else NOTHING
    else:
        kind = WAITING
    allowed = may_confirm(row["data"], row["recorder"])
    return HandState(
        pk=row["pk"],
        number=row["number"],
        version=row["version"],
        voided=row["voided"],
        kind=kind,
        word=word,
        allowed=allowed,
        mine=kind == WAITING and me is not None and me in allowed,
        dealt=engine_hand(row["data"]).players,
        recorded_by=row["recorder"] or row["changed_by__username"] or "–",
        said_from=(variant, row["data"], row["score"], row["void_reason"], row["voided"]),
    )


def hand_line(variant, data, score, void_reason: str = "", voided: bool = False) -> str:
    """A hand in one line, as a player checks it: "two — Ana, Cene 45 — +35" (the declarer's
    side, its card points and the declarer's amount), "klop — Ana −35, Bor −10, …"."""
    hand = engine_hand(data)
    contract = variant.contract_label(hand.contract)
    if voided:
        return _("%(contract)s — voided: %(reason)s") % dict(contract=contract, reason=void_reason)
    amounts = (score or {}).get("amounts") or {}
    if hand.declarer is None:
        shown = ", ".join(f"{name} {_signed(amounts[name])}" for name in amounts)
        return " — ".join(part for part in (contract, shown) if part)
    who = ", ".join(hand.declarer_side)
    if hand.points is not None:
        who = f"{who} {number(hand.points)}"
    if hand.declarer in amounts:
        return f"{contract} — {who} — {_signed(amounts[hand.declarer])}"
    return f"{contract} — {who}"


def _signed(value: Any) -> str:
    shown = amount(value)
    return f"+{shown}" if shown and shown[0].isdigit() and shown != "0" else shown


# --- Refusals ------------------------------------------------------------------------------------


class Refused(ServiceError):
    """A word refused, with its reason: nothing is written. `status` is the page's answer."""

    status = 409


class NotAllowed(Refused):
    """Not this person's word to say (his side, not dealt in, no seat, a wrong PIN)."""

    status = 403


class WrongPin(NotAllowed):
    """A wrong PIN: counted once the word's transaction is undone (`say`)."""

    def __init__(self, message: str, user_id: int):
        super().__init__(message)
        self.user_id = user_id


class BadInput(Refused):
    status = 422


class NoHand(Refused):
    status = 404


class Changed(Refused):
    """The hand is not the version the player checked: `hand` is it as it is now."""

    def __init__(self, message: str, *, hand: HandState) -> None:
        super().__init__(message)
        self.hand = hand


def _refuse_unless_open(hand: HandState, version: int) -> None:
    """A word is said of the version the player checked, and only while one is wanted."""
    named = {"number": hand.number, "version": hand.version}
    if version != hand.version:
        raise Changed(
            _(
                "Hand %(number)d changed meanwhile (now version %(version)d): "
                "check it and confirm again."
            )
            % named,
            hand=hand,
        )
    if hand.kind == NOTHING:
        raise Refused(_("Hand %(number)d is voided: there is nothing to confirm.") % named)
    if hand.confirmed:
        raise Refused(_("Hand %(number)d is confirmed already.") % named)
    if hand.disputed:
        raise Refused(_("Hand %(number)d is disputed: the club's admins resolve it.") % named)


def _refuse_unless_allowed(hand: HandState, name: str) -> None:
    named = {"name": name, "number": hand.number}
    if name not in hand.dealt:
        raise NotAllowed(_("%(name)s was not dealt in hand %(number)d.") % named)
    if name not in hand.allowed:
        raise NotAllowed(
            _(
                "%(name)s is on the side of the player who recorded hand %(number)d: "
                "a player of the other side confirms it."
            )
            % named
        )


def clean_reason(reason: str | None) -> str:
    """What is wrong, in a few words: one line, plain text, at most 200 characters."""
    reason = " ".join((reason or "").split())
    if not reason:
        raise BadInput(_("Say in a few words what is wrong."), "reason")
    if len(reason) > MAX_REASON:
        raise BadInput(
            _("Keep the reason under %(n)d characters.") % {"n": MAX_REASON + 1}, "reason"
        )
    if has_control_characters(reason):
        raise BadInput(control_message(), "reason")
    return reason


# --- Saying the word ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Speaker:
    """Whose word it is and how it came: his player, and the phone's way."""

    player_id: int | None
    name: str
    how: str


def confirm(session: Session, number: int, version: int, user, **how: Any) -> HandConfirmation:
    """The player says hand `number` (at `version`) is right. `how`: see `say`."""
    return say(session, number, version, user, State.CONFIRMED, "", **how)


def dispute(
    session: Session, number: int, version: int, user, reason: str, **how: Any
) -> HandConfirmation:
    """The player says something is wrong with the hand, and what."""
    return say(session, number, version, user, State.DISPUTED, clean_reason(reason), **how)


def say(
    session: Session,
    number: int,
    version: int,
    user,
    state: str,
    reason: str,
    *,
    player: str | None = None,
    pin: str = "",
    device: str = "",
    at_table: bool = False,
    client_id: uuid.UUID | None = None,
) -> HandConfirmation:
    """Store one player's word on a hand. Without `player` it is the word of `user`'s own
    seated player (his own phone); with it, of that seated player on the phone of `user`,
    which must be at the table (`at_table`: a scorekeeper's) where the tournament allows it,
    with the player's PIN where it asks for one. Raises Refused.

    `client_id`: the id the phone's outbox gave the word. A word sent again (its first send
    arrived, the answer did not) is the one stored, marked `repeat`: nothing new is written."""
    if not asks(session):
        raise Refused(_("This session asks for no confirmations."))
    try:
        with transaction.atomic():
            found = read(session, user, Q(number=number), lock=True)
            hand = found.of(number)
            if hand is None:
                raise NoHand(_("There is no hand %(number)d.") % {"number": number})
            stored = _said_before(hand, client_id)
            if stored is not None:
                return stored
            _refuse_unless_open(hand, version)
            speaker = _speaker(session, hand, found, player, pin, at_table)
            word = _write(hand, state, speaker, user, reason, device, client_id)
            _touch([hand.pk], word.at)
            announce_hands_changed(session, words=True)
    except WrongPin as wrong:
        _count_a_wrong_pin(wrong.user_id)  # once the word's own transaction is undone
        raise
    return word


def _speaker(
    session: Session, hand: HandState, found: Read, player: str | None, pin: str, at_table: bool
) -> Speaker:
    if player is None or (found.me is not None and player == found.me):
        if found.me is None:
            raise NotAllowed(_("You are at no seat of this table."))
        _refuse_unless_allowed(hand, found.me)
        return Speaker(found.me_id, found.me, How.OWN_PHONE)
    seats = session.seat_names
    if player not in seats:
        raise BadInput(_("%(name)s is not seated at this table.") % {"name": player}, "player")
    _refuse_unless_allowed(hand, player)
    if not at_table:
        raise NotAllowed(_("Another player's word is taken only on a scorekeeper's phone."))
    _check_same_phone(session, seats[player], player, pin)
    return Speaker(seats[player], player, How.SAME_PHONE)


def _check_same_phone(session: Session, player_id: int, name: str, pin: str) -> None:
    policy = same_phone_policy(session)
    if policy == SamePhone.REFUSED:
        raise NotAllowed(_("At this tournament each player confirms on his own phone."))
    if policy != SamePhone.PIN:
        return
    if not PIN.fullmatch(pin or ""):
        raise BadInput(_("Enter %(name)s's four-digit PIN.") % {"name": name}, "pin")
    profile = Profile.objects.filter(user__players__pk=player_id).first()
    if profile is None or not profile.confirmation_pin:
        raise NotAllowed(
            _(
                "%(name)s has set no PIN: he sets one on his own phone (the tournament's "
                "page links it), or confirms there."
            )
            % {"name": name}
        )
    if profile.pin_refused_until is not None and profile.pin_refused_until > timezone.now():
        raise NotAllowed(
            _(
                "Too many wrong PINs for %(name)s: his PIN is refused until %(time)s. He can "
                "confirm on his own phone."
            )
            % {
                "name": name,
                "time": date_format(localtime(profile.pin_refused_until), "TIME_FORMAT"),
            }
        )
    if not check_password(pin, profile.confirmation_pin):
        raise WrongPin(
            _("Wrong PIN for %(name)s: nothing is confirmed.") % {"name": name}, profile.user_id
        )
    if profile.wrong_pins:
        Profile.objects.filter(pk=profile.pk).update(wrong_pins=0, pin_refused_until=None)


def _count_a_wrong_pin(user_id: int) -> None:
    """One more wrong PIN; the last of `WRONG_PINS` in a row refuses the PIN for a while."""
    with transaction.atomic():
        profile = Profile.objects.select_for_update().get(user_id=user_id)
        profile.wrong_pins += 1
        if profile.wrong_pins >= WRONG_PINS:
            profile.wrong_pins = 0
            profile.pin_refused_until = timezone.now() + PIN_REFUSED_FOR
        profile.save(update_fields=["wrong_pins", "pin_refused_until"])


def _said_before(hand: HandState, client_id: uuid.UUID | None) -> HandConfirmation | None:
    """The word stored under `client_id` (a repeat of its send), `repeat` set; None: new.
    The hand's row is locked: two sends of one word do not both pass here."""
    if client_id is None:
        return None
    stored = HandConfirmation.objects.filter(client_id=client_id).first()
    if stored is None:
        return None
    if stored.hand_id != hand.pk:
        raise Refused(_("This word was said of another hand: it is not stored again."))
    stored.repeat = True
    return stored


def _write(
    hand: HandState,
    state: str,
    speaker: Speaker,
    user,
    reason: str,
    device: str,
    client_id: uuid.UUID | None = None,
) -> HandConfirmation:
    word = HandConfirmation(
        hand_id=hand.pk,
        hand_version=hand.version,
        state=state,
        player_id=speaker.player_id,
        user=user,
        how=speaker.how,
        device=device[:36],
        reason=reason,
        client_id=client_id,
    )
    word._history_user = user
    word.save()
    return word


def _touch(pks: Sequence[int], at) -> None:
    """A phone polling the sheet asks which hands changed since it looked: these did."""
    Hand.objects.filter(pk__in=pks).update(changed_at=at)


def confirm_all(
    session: Session, user, versions: Mapping[int, int], device: str = ""
) -> tuple[list[int], list[str]]:
    """The reader confirms, on his own phone, each of these hands (number -> the version he
    saw) that still waits for him: the numbers confirmed, and why each other one was not."""
    if not asks(session):
        raise Refused(_("This session asks for no confirmations."))
    with transaction.atomic():
        found = read(session, user, Q(number__in=list(versions)), lock=True)
        if found.me is None:
            raise NotAllowed(_("You are at no seat of this table."))
        done, refused, at = [], [], None
        for hand in found.states:
            try:
                _refuse_unless_open(hand, versions[hand.number])
                _refuse_unless_allowed(hand, found.me)
            except Refused as refusal:
                refused.append(refusal.message)
                continue
            at = _write(hand, State.CONFIRMED, _me(found), user, "", device).at
            done.append(hand)
        if done:
            _touch([hand.pk for hand in done], at)
            announce_hands_changed(session, words=True)
    return [hand.number for hand in done], refused


def _me(found: Read) -> Speaker:
    return Speaker(found.me_id, found.me or "", How.OWN_PHONE)


def resolve(session: Session, number: int, version: int, user) -> HandConfirmation:
    """A club admin (a tournament's organiser) accepts a disputed hand as it was recorded:
    it counts as confirmed, in his name. (Editing it instead asks for a word again.)"""
    with transaction.atomic():
        found = read(session, user, Q(number=number), lock=True)
        hand = found.of(number)
        if hand is None:
            raise NoHand(_("There is no hand %(number)d.") % {"number": number})
        if version != hand.version or not hand.disputed:
            raise Refused(
                _("Hand %(number)d is not disputed (any more): nothing to resolve.")
                % {"number": number}
            )
        speaker = Speaker(found.me_id, found.me or "", How.ADMIN)
        word = _write(hand, State.RESOLVED, speaker, user, "", "")
        _touch([hand.pk], word.at)
        announce_hands_changed(session, words=True)
    return word


def after_write(session: Session, hand: Hand, user, *, admin: bool) -> None:
    """After a hand is written (the hand services call it in their transaction): an admin's
    void, and an admin's correction of a closed session (a tournament table whose round has
    ended), are confirmed in his name. Any other write leaves the new version without a
    word: it is asked again."""
    if not (admin and asks(session) and (session.is_closed or hand.voided)):
        return
    seated = SessionSeat.objects.filter(session_id=session.pk, player__user=user)
    player_id = seated.values_list("player_id", flat=True).first()
    word = HandConfirmation(
        hand=hand,
        hand_version=hand.version,
        state=State.CONFIRMED,
        player_id=player_id,
        user=user,
        how=How.ADMIN,
    )
    word._history_user = user
    word.save()


# --- What closing and a tournament table wait for ---------------------------------------------


def open_hands(session: Session) -> list[HandState]:
    """The hands still to be confirmed (waiting or disputed), in number order."""
    if not asks(session):
        return []
    return [hand for hand in read(session, None, unsettled()).states if hand.open]


def open_counts(sessions: Iterable[Session]) -> dict[int, tuple[int, int]]:
    """(waiting, disputed) hands of each of `sessions` that asks for words, in one statement
    however many they are (the director's screen shows every table of a round): what
    `open_hands` counts one session at a time, in the same terms as `_state`."""
    asking = [session.pk for session in sessions if asks(session)]
    if not asking:
        return {}
    waiting = Q(word_state=None) & (Q(voided=False) | Q(settled_before=True))
    rows = (
        Hand.objects.filter(session_id__in=asking)
        .annotate(
            word_state=Subquery(_words().values("state")[:1]), settled_before=_settled_before()
        )
        .values("session_id")
        .annotate(
            waiting=Count("pk", filter=waiting),
            disputed=Count("pk", filter=Q(word_state=State.DISPUTED)),
        )
        .values_list("session_id", "waiting", "disputed")
    )
    counts = {pk: (0, 0) for pk in asking}
    counts.update({pk: (waiting, disputed) for pk, waiting, disputed in rows})
    return counts


def all_confirmed(session: Session) -> bool:
    """Whether nothing keeps the session from closing (a tournament table from finishing):
    it does not require confirmations, or every hand is confirmed."""
    return not requires(session) or not open_hands(session)


def refuse_closing(session: Session) -> None:
    """Raise Refused when the session requires confirmations and a hand is not confirmed."""
    if not requires(session):
        return
    waiting = [hand.number for hand in open_hands(session)]
    if waiting:
        raise Refused(
            ngettext(
                "Hand %(numbers)s is not confirmed yet: the session closes once every hand "
                "is confirmed.",
                "Hands %(numbers)s are not confirmed yet: the session closes once every hand "
                "is confirmed.",
                len(waiting),
            )
            % {"numbers": ", ".join(str(n) for n in waiting)}
        )


# --- PINs ------------------------------------------------------------------------------------


def set_pin(user, pin: str) -> None:
    """The four digits that confirm a hand on another phone where a tournament asks for
    them, kept hashed as a password is."""
    if not PIN.fullmatch(pin or ""):
        raise BadInput(_("A PIN is four digits."), "pin")
    Profile.objects.update_or_create(
        user=user,
        defaults={
            "confirmation_pin": make_password(pin),
            "wrong_pins": 0,
            "pin_refused_until": None,
        },
    )


def clear_pin(user) -> None:
    Profile.objects.filter(user=user).update(confirmation_pin="")


def has_pin(user) -> bool:
    return Profile.objects.filter(user=user).exclude(confirmation_pin="").exists()


# --- In words: the sheet, the paper, the exports, the history ------------------------------------


def describe(hand: HandState) -> str:
    """A hand's state as the sheet and the paper say it: "confirmed by Bor (at the table)",
    "waiting for Ana or Cene", "disputed by Dani: the points were 45"."""
    if hand.word is not None:
        return _said_in_words(hand.word)
    if hand.kind == NOTHING:
        return ""
    names = _either(hand.allowed)
    if hand.voided:
        return _("voided; the void waits for %(names)s") % {"names": names}
    return _("waiting for %(names)s") % {"names": names}


def _either(names: Sequence[str]) -> str:
    """ "Ana", "Ana or Bor", "Ana, Bor or Cene"."""
    if len(names) < 2:
        return "".join(names)
    return ", ".join(names[:-1]) + _(" or ") + names[-1]


def _said_in_words(word: Word) -> str:
    named = {"name": word.by, "how": How(word.how).label, "reason": word.reason}
    if word.state == State.DISPUTED:
        return _("disputed by %(name)s: %(reason)s") % named
    if word.state == State.RESOLVED:
        return _("accepted as recorded by %(name)s") % named
    return _("confirmed by %(name)s (%(how)s)") % named


@dataclass
class Shown:
    """What the sheet's block of confirmations shows (templates/scorebook/_confirmations.html),
    read in one statement: each shown row's state, the hands still open, those waiting for
    the reader, and the last one waiting, offered to the phone at the table."""

    states: list[HandState]
    open: list[HandState]  # the latest SHOWN of them
    mine: list[HandState]  # the latest SHOWN of them
    offer: HandState | None
    required: bool
    # A poll's answer: the states of the rows it adds after those the phone shows.
    added: list[HandState]
    # The page a form of the block comes back to: "sheet" or "session".
    back: str = "sheet"
    # How many more are open, and wait for the reader, before those shown.
    open_before: int = 0
    mine_before: int = 0
    disputed: bool = False


# The hands the sheet's block lists at most, the latest (and all of them a link away): an
# evening where nobody confirms still answers every poll with a few lines, not sixty forms.
SHOWN = 10


def on_sheet(request, session: Session, first: int) -> Shown | None:
    """The block of the sheet showing the rows from hand `first` on; None: the session asks
    for no confirmations (and the sheet shows nothing of them)."""
    if not asks(session):
        return None
    found = read(session, request.user, Q(number__gte=first) | unsettled())
    return _shown(request, session, found, [s for s in found.states if s.number >= first], [])


def on_poll(request, session: Session, shown: Iterable[int], new: Iterable[int]) -> Shown | None:
    """A poll's part of it: the states of the rows it replaces (`shown`) and adds (`new`)."""
    if not asks(session):
        return None
    shown, new = set(shown), set(new)
    found = read(session, request.user, Q(number__in=shown | new) | unsettled())
    replaced = [s for s in found.states if s.number in shown]
    return _shown(request, session, found, replaced, [s for s in found.states if s.number in new])


def _shown(request, session: Session, found: Read, states, added) -> Shown:
    still_open = [hand for hand in found.states if hand.open]
    waiting = [hand for hand in still_open if hand.waiting]
    offer = waiting[-1] if waiting else None
    membership = getattr(request, "membership", None)
    at_table = membership is not None and membership.has_role(Role.SCOREKEEPER)
    # A hand waiting for the reader himself he confirms as his own (`mine`).
    if offer is not None and (
        offer.mine or not at_table or same_phone_policy(session) == SamePhone.REFUSED
    ):
        offer = None
    match = getattr(request, "resolver_match", None)
    mine = [hand for hand in waiting if hand.mine]
    return Shown(
        states=states,
        open=still_open[-SHOWN:],
        mine=mine[-SHOWN:],
        offer=offer,
        required=requires(session),
        added=added,
        back="session" if match is not None and match.url_name == "session" else "sheet",
        open_before=max(len(still_open) - SHOWN, 0),
        mine_before=max(len(mine) - SHOWN, 0),
        disputed=any(hand.disputed for hand in still_open),
    )


def disputed(club) -> list[tuple[Session, list[HandState]]]:
    """Every disputed hand of the club's sessions (its tournaments' tables too), by session,
    the latest session first: the admins' list."""
    found = (
        Hand.objects.filter(session__club=club)
        .annotate(word_state=Subquery(_words().values("state")[:1]))
        .filter(word_state=State.DISPUTED)
        .values_list("session_id", "number")
    )
    numbers: dict[int, list[int]] = {}
    for session_id, hand_number in found:
        numbers.setdefault(session_id, []).append(hand_number)
    sessions = Session.objects.filter(pk__in=numbers).select_related(WITH_TABLE)
    return [
        (session, read(session, None, Q(number__in=numbers[session.pk])).states)
        for session in sessions.order_by("-date", "-pk")
    ]


def waiting_for(session: Session, user) -> Read:
    """The hands of the session still to be confirmed, with the reader's seat: his own
    phone's list (those `mine`), for a member and a tournament's registrant alike."""
    return read(session, user, unsettled())


def exported(session: Session) -> dict[str, list[dict[str, Any]]]:
    """What a sheet's export carries beside its hands (HANDS.md): the word said of each hand
    exported, by its place among them; nothing for a session that asks for none."""
    if not asks(session):
        return {}
    words = _words()
    rows = (
        Hand.objects.filter(session_id=session.pk, voided=False)
        .annotate(word=Subquery(_said(words), output_field=JSONField()))
        .annotate(at=Subquery(words.values("at")[:1]))
        .order_by("number")
        .values_list("word", "at")
    )
    out = []
    for place, (said, at) in enumerate(rows, start=1):
        word = _word(said)
        if word is not None:
            out.append(
                {"hand": place, "by": word.by, "at": at, "state": word.state}
                | {"reason": word.reason, "how": word.how}
            )
    return {"confirmations": out} if out else {}


def in_words(session: Session) -> dict[int, str] | None:
    """Each hand's state in words by its number (the CSV's column, the paper's note); None:
    the session asks for no confirmations."""
    if not asks(session):
        return None
    return {hand.number: describe(hand) for hand in read(session, None, Q()).states}


def history(session: Session) -> list[tuple[Any, Any, int, int, str, str]]:
    """Every word said of the session's hands, as the history page lists a change: (when,
    who, hand, version, what, detail)."""
    words = (
        HandConfirmation.objects.filter(hand__session_id=session.pk)
        .select_related("user", "player")
        .annotate(number=F("hand__number"))
    )
    what = {
        State.CONFIRMED: _("confirmed"),
        State.DISPUTED: _("disputed"),
        State.RESOLVED: _("accepted as recorded"),
    }
    out = []
    for word in words:
        by = word.player.name if word.player else ""
        detail = f"{by} ({How(word.how).label})" if by else str(How(word.how).label)
        if word.reason:
            detail = f"{detail}: {word.reason}"
        out.append((word.at, word.user, word.number, word.hand_version, what[word.state], detail))
    return out
