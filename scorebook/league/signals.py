"""Keep the league rows' closing totals and nets current when a session closes or reopens.

Closing changes no hand, so it needs no rating rebuild; only the copy of `Session.closing`.
"""

from django.db.models.signals import post_save
from django.dispatch import receiver

from scorebook.models import Session


@receiver(post_save, sender=Session, dispatch_uid="league_session_closing")
def session_saved(sender, instance: Session, created: bool, update_fields=None, **kwargs):
    if kwargs.get("raw") or created:
        return
    if update_fields is not None and "closing" not in update_fields:
        return
    from scorebook.league.services import refresh_closing

    refresh_closing(instance)
