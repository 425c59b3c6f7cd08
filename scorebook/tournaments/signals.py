"""Finish a tournament table as soon as its last hand is in, whoever saved it and how.

The hand services announce every committed change to a session's hands (scorebook.signals);
the tick command and the tournament pages run the same check as a safety net.
"""

from django.dispatch import receiver

from scorebook.models import Session
from scorebook.signals import hands_changed


@receiver(hands_changed, dispatch_uid="tournaments_hands_changed")
def hands_changed_in_session(sender, session: Session, **kwargs) -> None:
    from scorebook.tournaments.services import check_session

    check_session(session.pk)
