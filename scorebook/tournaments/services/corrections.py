"""A table's hands changed after its round ended (RULES.md §8.2): its result and the standings
after it are recomputed, a round already drawn stays drawn, the organiser is told, and the
change goes into the tournament's history. In a knockout a changed winner redraws the next
match when it has no hand yet; otherwise the organiser decides: replay or keep."""

from __future__ import annotations

import datetime

from django.db import transaction

from scorebook.tournaments.models import Event, Round, Table, Tournament
from scorebook.tournaments.services.common import clock, locked
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


def unseen_events(tournament: Tournament) -> list[Event]:
    return list(tournament.events.filter(seen=False))


def mark_seen(tournament: Tournament) -> None:
    tournament.events.filter(seen=False).update(seen=True)
