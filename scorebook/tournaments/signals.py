"""Finish a tournament table as soon as its last hand is in, whoever saved it and how.

The hand services announce every change to a session's hands (scorebook.signals) inside its
transaction; the table is checked once the change is committed. The tick command and the
tournament pages run the same check as a safety net.
"""

from django.db import transaction
from django.dispatch import receiver

from scorebook.models import Session
from scorebook.signals import hand_recording, hands_changed_in_step
from scorebook.tournaments.services import check_late_hand, check_session


@receiver(hands_changed_in_step, dispatch_uid="tournaments_hands_changed")
def hands_changed_in_session(sender, session: Session, **kwargs) -> None:
    if not may_be_a_table(session):
        return
    transaction.on_commit(lambda: check_session(session.pk), robust=True)


def may_be_a_table(session: Session) -> bool:
    """False only for a session read with its table (select_related, as a save reads it) that
    has none: most sessions are no tournament's, and then a save asks nothing more."""
    if not Session.tournament_table.is_cached(session):
        return True
    return hasattr(session, "tournament_table")  # a cached None raises DoesNotExist


@receiver(hand_recording, dispatch_uid="tournaments_hand_recording")
def hand_about_to_be_recorded(sender, session: Session, may_change_closed: bool, **kwargs):
    """A timed table past its minutes and grace takes a hand only from the organiser."""
    if may_be_a_table(session):
        check_late_hand(session, may_change_closed)
