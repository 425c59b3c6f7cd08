"""Changing a stored hand: an edit or a void, each checked against the version the form was
opened with, and the hands after it rescored."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

import rules
from scorebook import confirmations
from scorebook.errors import ServiceError
from scorebook.hands.refusals import HandChanged, HandVoided, check_writable
from scorebook.hands.rescoring import rescore, running_before_making_rows
from scorebook.hands.scoring import scored
from scorebook.hands.session import engine_sheet
from scorebook.hands.stored import stored_in
from scorebook.models import Hand, Session
from scorebook.signals import announce_hands_changed


def _update_hand(hand: Hand, version: int, user, reason: str, **changes: Any) -> Hand:
    """The optimistic lock: the UPDATE itself checks the version the form was opened with."""
    updated = Hand.objects.filter(pk=hand.pk, version=version).update(
        **changes, version=F("version") + 1, changed_by=user, changed_at=timezone.now()
    )
    if not updated:
        raise HandChanged(Hand.objects.get(pk=hand.pk))
    hand.refresh_from_db()
    hand._history_user = user
    # A queryset update sends no signal: write the history row ourselves, with who and why.
    Hand.history.bulk_history_create(
        [hand], update=True, default_user=user, default_change_reason=reason
    )
    return hand


def edit_hand(
    hand: Hand, data: Mapping[str, Any], version: int, user, *, change_closed: bool = False
) -> Hand:
    """Replace what was entered for a hand (`data`: its own fields) and rescore it and every
    hand after it.

    `version` is the hand's version when the form was opened: if somebody saved a change
    since, HandChanged is raised and nothing changes. A closed session is changed only with
    `change_closed`. Raises ServiceError (the engine's problems with paths of the hand).
    """
    with transaction.atomic():
        session = Session.objects.select_for_update().get(pk=hand.session_id)
        check_writable(session, change_closed)
        # Before anything is written: a voided hand stays as it was voided, whatever the
        # version its form carries.
        if Hand.objects.filter(pk=hand.pk, voided=True).exists():
            raise HandVoided()
        hand = _update_hand(
            hand,
            version,
            user,
            "edited",
            data=stored_in(session, data),
            rules_version=str(rules.RULES_VERSION),
        )
        # Check the new hand in its place first: its problems have its own paths.
        sheet = engine_sheet(session)
        scored(sheet, data, running_before_making_rows(session, sheet, hand.number))
        rescore(session, hand.number)
        confirmations.after_write(session, hand, user, admin=change_closed)
        announce_hands_changed(session)
    return hand


def void_hand(hand: Hand, reason: str, version: int, user, *, change_closed: bool = False) -> Hand:
    """Strike a hand from the sheet, saying why; the hands after it are rescored."""
    reason = " ".join((reason or "").split())
    if not reason:
        raise ServiceError(_("Say why the hand is voided."), "reason")
    max_length = Hand._meta.get_field("void_reason").max_length
    if len(reason) > max_length:
        raise ServiceError(
            _("Keep the reason under %(n)d characters.") % {"n": max_length + 1}, "reason"
        )
    with transaction.atomic():
        session = Session.objects.select_for_update().get(pk=hand.session_id)
        check_writable(session, change_closed)
        if Hand.objects.filter(pk=hand.pk, voided=True).exists():
            raise ServiceError(_("This hand is voided already."))
        hand = _update_hand(hand, version, user, reason, voided=True, void_reason=reason)
        rescore(session, hand.number)
        confirmations.after_write(session, hand, user, admin=change_closed)
        announce_hands_changed(session)
    return hand
