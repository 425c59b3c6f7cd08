"""Finish a tournament table as soon as its last hand is saved, whoever saved it and how.

The hand form belongs to scorebook's own views; rather than touch them, a saved Hand schedules
a check for after the commit (its entries are written after the Hand row, in the same
transaction). The tick command and the tournament pages run the same check as a safety net.
"""

from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from scorebook.models import Hand


@receiver(post_save, sender=Hand, dispatch_uid="tournaments_hand_saved")
def hand_saved(sender, instance: Hand, **kwargs) -> None:
    from scorebook.tournaments.services import check_session

    session_id = instance.session_id
    # robust: a failure here is logged and never undoes or fails the hand that was saved.
    transaction.on_commit(lambda: check_session(session_id), robust=True)
