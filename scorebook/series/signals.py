"""A series follows its tournaments' results: a hand saved, changed or voided at a table of a
tournament in a series computes that series again once the change is committed.

Connected after the tournaments' receiver (INSTALLED_APPS order), so a table that the hand
finishes is finished, and a tournament it ends is ended, before the series reads them. The
series' pages check the results' digest too (compute.sync), for a result reached another way.
"""

from django.db import transaction
from django.dispatch import receiver

from scorebook.models import Session
from scorebook.series import compute
from scorebook.series.models import EntryState, Series
from scorebook.signals import hands_changed_in_step
from scorebook.tournaments.signals import may_be_a_table


@receiver(hands_changed_in_step, dispatch_uid="series_hands_changed")
def hands_changed_in_session(sender, session: Session, **kwargs) -> None:
    if not may_be_a_table(session):
        return
    session_id = session.pk
    transaction.on_commit(lambda: follow(session_id), robust=True)


def follow(session_id: int) -> None:
    """Compute again each series that has the session's tournament, if its results moved."""
    in_series = Series.objects.filter(
        seasons__entries__state=EntryState.JOINED,
        seasons__entries__tournament__round_set__tables__session_id=session_id,
    ).distinct()
    for series in in_series:
        compute.sync(series)
