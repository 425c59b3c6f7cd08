"""A session out of Scorebook: the sheet as JSON and CSV (HANDS.md), and its history of changes.

Read-only. The hands come through the hand pipeline (scorebook.hands), which reads the stored
hands and replays the sheet; this module only writes them out.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _

import rules
from rules import note, note_text
from scorebook import confirmations
from scorebook.hands import evaluate_session, sheet_hand
from scorebook.models import Hand, Session
from scorebook.templatetags.amounts import number


def export_json(session: Session) -> dict[str, Any]:
    """The session in the sheet format of HANDS.md (voided hands left out), with the name of
    the club's house rules it was played by when it has one."""
    players = list(session.seat_names)
    named = {"house_rules": session.house_rules_name} if session.house_rules_name else {}
    return {
        "format": 1,
        "variant": session.variant,
        "rules": dict(session.rules),
        **named,
        "players": list(players),
        "hands": [
            sheet_hand(hand.data, players)
            for hand in session.hands.filter(voided=False).order_by("number")
        ],
        **confirmations.exported(session),  # beside the hands, which stay as they are
    }


# --- Notes and CSV ------------------------------------------------------------------------


def _number(value: Any) -> str:
    if isinstance(value, Decimal):
        value = value.normalize() if value == value.to_integral_value() else value
        return format(value, "f")
    return str(value)


# A spreadsheet runs a cell that starts with one of these as a formula (OWASP: CSV injection).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _text(value: str) -> str:
    """A text cell (a name, a note, a line) that a spreadsheet shows and never runs: a leading
    quote before a formula sign. Amounts are written by `_number` and stay numbers."""
    return f"'{value}" if value.startswith(_FORMULA_START) else value


def export_csv(session: Session) -> str:
    """UTF-8 with a BOM (spreadsheets need it to read the names right): one row per hand, one
    column per player (blank when not dealt in), the sheet's paper note, and a totals row."""
    hands, sheet = evaluate_session(session)
    players = sheet.players
    words = confirmations.in_words(session)  # None: the session asks for no confirmations
    word = [] if words is None else [_text(_("Confirmation"))]
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([_text(_("Hand")), *map(_text, players), _text(_("Note")), *word])
    for hand, row in zip(hands, sheet.rows, strict=True):
        writer.writerow(
            [
                hand.number,
                *(
                    _number(row.result.amounts[p]) if p in row.result.amounts else ""
                    for p in players
                ),
                _text(note_text(note(row.result))),
                *([] if words is None else [_text(words.get(hand.number, ""))]),
            ]
        )
    for line in sheet.closing:
        writer.writerow(
            [
                "",
                *(_number(line.amounts[p]) if p in line.amounts else "" for p in players),
                _text(line.text),
            ]
        )
    writer.writerow([_text(_("Total")), *(_number(sheet.totals[p]) for p in players), ""])
    return out.getvalue()


# --- History ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Change:
    """One recorded change of a session or one of its hands, for the admins' history page."""

    when: Any
    user: Any
    hand: int | None
    version: int | None
    what: str
    detail: str


def hand_summary(variant: rules.Variant, data: Mapping[str, Any]) -> str:
    """What a stored hand says, in a few words: "two · Ana + Cene · 38"."""
    parts = [variant.contract_label(str(data.get("contract", "")))]
    who = " + ".join(str(data[k]) for k in ("declarer", "partner") if data.get(k))
    if who:
        parts.append(who)
    if "points" in data:
        parts.append(number(data["points"]))
    if "made" in data:
        parts.append(_("made") if data["made"] else _("lost"))
    if data.get("bonuses"):
        parts.append(", ".join(str(b.get("name", "")) for b in data["bonuses"] if b))
    return " · ".join(parts)


def session_history(session: Session) -> list[Change]:
    """Every recorded change of the session and its hands, newest first."""
    changes = []
    variant = rules.get_variant(session.variant)
    for record in Hand.history.filter(session_id=session.pk).select_related("history_user"):
        if record.history_type == "+":
            what = _("recorded")
        elif record.history_type == "-":
            what = _("deleted")
        elif record.voided:
            what = _("voided")
        else:
            what = _("changed")
        detail = hand_summary(variant, record.data or {})
        reason = record.history_change_reason or ""
        if record.voided and record.void_reason:
            detail = _("%(hand)s — reason: %(reason)s") % {
                "hand": detail,
                "reason": record.void_reason,
            }
        elif reason and reason not in ("edited",):
            detail = f"{detail} — {reason}"
        changes.append(
            Change(
                record.history_date,
                record.history_user,
                record.number,
                record.version,
                what,
                detail,
            )
        )
    for record in Session.history.filter(id=session.pk).select_related("history_user"):
        before = record.prev_record
        if record.history_type == "+":
            what = _("session started")
        elif before is not None and before.is_closed != record.is_closed:
            what = _("session closed") if record.is_closed else _("session reopened")
        else:
            what = _("session changed")
        changes.append(Change(record.history_date, record.history_user, None, None, what, ""))
    changes += [Change(*said) for said in confirmations.history(session)]
    changes.sort(key=lambda change: change.when, reverse=True)
    return changes
