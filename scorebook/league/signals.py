"""Keep the league current: ratings after every change to a session's hands (marked stale here,
rebuilt before a league page reads), and the copy of
a session's closing totals and nets when it closes or reopens (closing changes no hand, so it
needs no rating rebuild).
"""

from django.db.models.signals import post_save
from django.dispatch import receiver

from scorebook.league.services import family_of, mark_stale, refresh_closing
from scorebook.models import Session
from scorebook.signals import hands_changed


@receiver(post_save, sender=Session, dispatch_uid="league_session_closing")
def session_saved(sender, instance: Session, created: bool, update_fields=None, **kwargs):
    if kwargs.get("raw") or created:
        return
    if update_fields is not None and "closing" not in update_fields:
        return
    refresh_closing(instance)


@receiver(hands_changed, dispatch_uid="league_hands_changed")
def hands_changed_in_session(sender, session: Session, **kwargs) -> None:
    """Ratings follow every recorded, edited or voided hand: marked now, rebuilt (only what
    changed) when a league page is next read. A player's word on a hand changes no rating."""
    if kwargs.get("words"):
        return
    mark_stale(session.club, family_of(session.variant))
