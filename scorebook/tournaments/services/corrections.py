"""A table's hands changed after its round ended (RULES.md §8.2): its result and the standings
after it are recomputed, a round already drawn stays drawn, the organiser is told, and the
change goes into the tournament's history. In a knockout a changed winner redraws the next
match when it has no hand yet; otherwise the organiser decides: replay or keep."""

from __future__ import annotations

import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from scorebook import hands
from scorebook import services as core
from scorebook.errors import ServiceError
from scorebook.models import Session
from scorebook.tournaments.models import Answer, Event, Registration, Round, Table, Tournament
from scorebook.tournaments.services.common import clock, locked
from scorebook.tournaments.services.drawing import replay_table
from scorebook.tournaments.services.rounds import record_results, score_byes


def recompute_table(table: Table, now: datetime.datetime | None = None) -> bool:
    """After a change to a finished table's hands: recompute, tell, record. True if its
    result changed."""
    now = clock(now)
    with transaction.atomic():
        tournament = locked(table.round.tournament)
        table = Table.objects.select_related("round", "session").get(pk=table.pk)
        rnd = table.round
        winners_before = _winners(table)
        if not record_results(tournament, table):
            return False
        if rnd.finished_at is not None:
            score_byes(tournament, rnd)
            rnd.save(update_fields=["bye_points"])
        _tell(tournament, Event.Kind.CORRECTED, rnd.number, table.number, now)
        if tournament.is_knockout and _winners(table) != winners_before:
            _follow_changed_winner(tournament, table, now)
    return True


def _winners(table: Table) -> set[int]:
    return set(table.placements.filter(advanced=True).values_list("registration_id", flat=True))


def _tell(tournament: Tournament, kind: str, round_number, table_number, now) -> Event:
    """An event for the organiser's screen, unseen until he has looked."""
    return Event.objects.create(
        tournament=tournament,
        at=now,
        kind=kind,
        round_number=round_number,
        table_number=table_number,
        seen=False,
    )


def _follow_changed_winner(tournament: Tournament, table: Table, now) -> None:
    """The next match of this one's winner: redrawn when it has no hand yet, else the
    organiser decides (the event names it)."""
    from scorebook.tournaments.services.drawing import reseat_match

    nxt = Round.objects.filter(tournament=tournament, number=table.round.number + 1).first()
    if nxt is None:
        return
    slot = table.placements.first().slot // 2
    following = nxt.placements.filter(slot=slot).exclude(table=None).first()
    if following is None:
        return
    winners = list(table.placements.filter(advanced=True))
    began = following.table.session.hands.filter(voided=False).exists()  # a redeal too
    if not began and len(winners) == 1:
        winner = winners[0]
        loser_ids = table.placements.filter(advanced=False).values_list(
            "registration_id", flat=True
        )
        reseat_match(tournament, following.table, winner.registration, set(loser_ids), now)
        _tell(tournament, Event.Kind.KNOCKOUT_REDRAWN, nxt.number, following.table.number, now)
    else:
        _tell(tournament, Event.Kind.KNOCKOUT_DECIDE, nxt.number, following.table.number, now)


def open_decisions(tournament: Tournament) -> list[Event]:
    """The matches the organiser has still to decide: replay or keep (his screen's buttons)."""
    return list(tournament.events.filter(kind=Event.Kind.KNOCKOUT_DECIDE, answer=""))


def decide_match(
    tournament: Tournament,
    event: Event,
    answer: str,
    user=None,
    now: datetime.datetime | None = None,
) -> Event:
    """The organiser's answer to a match to decide (RULES.md §8.2). Keep: the match stays as
    played. Replay: its hands are voided (kept on its old sheet, with the reason), and the
    current winners of the two matches before it play it again at a fresh sheet. Refused, with
    nothing changed, for an answer already given (a second tap, a double POST), and a replay
    once the match's round is over (the round after it is drawn, or the tournament ended).
    Returns the event of the tournament's history that records the answer."""
    now = clock(now)
    if answer not in Answer.values:
        raise ServiceError(_("Answer replay or keep."), "answer")
    with transaction.atomic():
        tournament = locked(tournament)
        event = Event.objects.get(pk=event.pk, tournament=tournament)
        if event.kind != Event.Kind.KNOCKOUT_DECIDE or event.answer:
            raise ServiceError(_("This match is decided already."))
        players, sheet = (
            _replay(tournament, event, user, now) if answer == Answer.REPLAY else ([], None)
        )
        tournament.events.filter(
            kind=Event.Kind.KNOCKOUT_DECIDE,
            answer="",
            round_number=event.round_number,
            table_number=event.table_number,
        ).update(answer=answer)  # one answer settles every open question about that match
        kind = Event.Kind.KNOCKOUT_REPLAYED if players else Event.Kind.KNOCKOUT_KEPT
        told = Event.objects.create(
            tournament=tournament,
            at=now,
            kind=kind,
            round_number=event.round_number,
            table_number=event.table_number,
            by=user,
            sheet=sheet,
        )
        told.registrations.set(players)
    return told


def _replay(tournament: Tournament, event: Event, user, now) -> tuple[list[Registration], Session]:
    """Seat the match again with the current winners of the matches before it; its old
    sheet keeps its hands, voided. The players of the match as replayed, in seat order, and
    the old sheet."""
    table = (
        Table.objects.select_related("round", "session")
        .filter(
            round__tournament=tournament,
            round__number=event.round_number,
            number=event.table_number,
        )
        .first()
    )
    if table is None or table.round.finished_at is not None:
        raise ServiceError(
            _(
                "Round %(round)s is over and the next round is drawn from it: the match can "
                "only be kept."
            )
            % {"round": event.round_number}
        )
    players = _feeding_winners(table)
    if len(players) != 2:
        raise ServiceError(_("The match before it has no single winner yet: keep it for now."))
    old = replay_table(tournament, table, players, now, user)
    _void_all(tournament, old, user)
    return players, old


def _feeding_winners(table: Table) -> list[Registration]:
    """Who goes on from the two matches (or byes) whose winners meet at `table`."""
    slot = table.placements.values_list("slot", flat=True).first()
    before = Round.objects.get(tournament=table.round.tournament, number=table.round.number - 1)
    won = before.placements.filter(advanced=True, slot__in=(2 * slot, 2 * slot + 1))
    return [p.registration for p in won.select_related("registration__player").order_by("slot")]


def _void_all(tournament: Tournament, session: Session, user) -> None:
    """The replayed match's old sheet: every hand voided, saying why, and closed; it stays
    in the club's sessions under the tournament's name, the record of what was played."""
    reason = _("Replayed: the match before it has another winner.")
    for hand in session.hands.filter(voided=False).order_by("-number"):
        hands.void_hand(hand, reason, hand.version, user, change_closed=True)
    Session.objects.filter(pk=session.pk).update(table_label=tournament.name[:40])
    session.refresh_from_db()
    if not session.is_closed:
        core.close_session(session, user)


def unseen_events(tournament: Tournament) -> list[Event]:
    return list(tournament.events.filter(seen=False))


def mark_seen(tournament: Tournament) -> None:
    tournament.events.filter(seen=False).update(seen=True)
