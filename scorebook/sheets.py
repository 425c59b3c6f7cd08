"""A session as a sheet: its hands read through the engine in order, and the sheet as JSON/CSV.

The engine carries state from hand to hand (Slovenian radelci, the dealer), so a hand's
amounts depend on every hand before it. Each stored hand therefore keeps its row of the sheet
(`Hand.score`, made by `score_hands`): its amounts, lines and note, and the running state after
it. A new hand is scored from the last hand's running state alone, the sheet page reads the
rows instead of replaying the session, and a change rescores from the changed hand on.
Read-only; the write services that use it live in services.py.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _

import rules
from rules import labels
from rules.problems import Problem, Problems
from rules.reader import Sheet, read_hand
from rules.scoring import Running, amount_json, play, start
from scorebook import hand_form
from scorebook.models import Hand, Session

# What a stored hand repeats from its session; a hand inside a sheet leaves it out (HANDS.md).
SESSION_KEYS = ("format", "variant", "rules")


def session_players(session: Session) -> tuple[str, ...]:
    return tuple(session.seat_names)


def engine_sheet(session: Session) -> Sheet:
    """The engine's view of a session: variant, frozen rules and the seated players."""
    variant = rules.get_variant(session.variant)
    return Sheet(variant, variant.rules(session.rules), session_players(session))


def sheet_hand(data: Mapping[str, Any], players: Iterable[str]) -> dict[str, Any]:
    """A stored hand as it appears inside a sheet: no format, variant or rules, and no players
    when all of the sheet's players were dealt in."""
    hand = {key: value for key, value in data.items() if key not in SESSION_KEYS}
    if list(hand.get("players", ())) == list(players):
        del hand["players"]
    return hand


# Where a hand names a player (HANDS.md): as a value, as the keys of a map, inside list items.
_NAME_FIELDS = ("dealer", "declarer", "partner", "announcer")
_NAME_MAPS = ("points_by_player", "tricks_by_player", "radelci")
_NAME_ITEMS = ("bonuses", "declarations", "adjustments")


def rename_in_hand(data: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    """A stored hand with players renamed (old name -> new name) wherever they appear: hands
    keep names, so a renamed roster player's hands must follow him or they no longer match
    his seat. The names change all at once, so two players may swap names."""

    def swap(value: Any) -> Any:
        return names.get(value, value) if isinstance(value, str) else value

    hand = dict(data)
    if isinstance(hand.get("players"), list):
        hand["players"] = [swap(name) for name in hand["players"]]
    for key in _NAME_FIELDS:
        if key in hand:
            hand[key] = swap(hand[key])
    for key in _NAME_MAPS:
        if isinstance(hand.get(key), dict):
            hand[key] = {swap(name): value for name, value in hand[key].items()}
    for key in _NAME_ITEMS:
        if isinstance(hand.get(key), list):
            hand[key] = [
                {**item, "player": swap(item["player"])}
                if isinstance(item, dict) and "player" in item
                else item
                for item in hand[key]
            ]
    return hand


def read_stored_hands(
    sheet: Sheet, hands: Iterable[Mapping[str, Any]], problems: Problems, paths: Iterable[str]
) -> list[rules.Hand]:
    read = []
    for data, path in zip(hands, paths, strict=False):
        hand = read_hand(sheet_hand(data, sheet.players), problems, path, sheet, entered=False)
        if hand is not None:
            read.append(hand[2])
    return read


# --- Stored rows ----------------------------------------------------------------------------


def row_score(row: rules.SheetRow, running: Running) -> dict[str, Any]:
    """What a hand stores of its row: amounts, the engine's lines, the paper note, the dealer,
    and the running state after it (totals, radelci, next dealer)."""
    result = row.result
    return {
        "amounts": {name: amount_json(a) for name, a in result.amounts.items()},
        "lines": [
            [line.text, {name: amount_json(a) for name, a in line.amounts.items()}]
            for line in result.lines
        ],
        "note": hand_form.note(result),
        "dealer": row.dealer,
        "running": running.to_json(),
    }


def void_score(running: Running) -> dict[str, Any]:
    """A voided hand's row: no amounts; the running state passes through it unchanged."""
    return {"running": running.to_json()}


class Unscored(Exception):
    """A hand has no stored row: it was stored before rows were kept, and the migration that
    made them could not score its session."""


def running_after(sheet: Sheet, score: Mapping[str, Any] | None) -> Running:
    """Where the sheet stands after a hand with this stored score (None: before any hand)."""
    if score is None:
        return start(sheet.variant, sheet.rules, sheet.players)
    if "running" not in score:
        raise Unscored
    return Running.from_json(score["running"])


def running_before(session: Session, sheet: Sheet, number: int | None = None) -> Running:
    """Where the session's sheet stands before hand `number` (None: after its last hand)."""
    hands = session.hands.order_by("-number")
    if number is not None:
        hands = hands.filter(number__lt=number)
    return running_after(sheet, hands.values_list("score", flat=True).first())


def score_next(sheet: Sheet, hand_json: Mapping[str, Any], running: Running) -> rules.SheetRow:
    """A hand about to be stored, scored as the row after `running`. Raises RulesError with
    paths of the hand alone (``points``)."""
    problems = Problems()
    read = read_hand(sheet_hand(hand_json, sheet.players), problems, "", sheet)
    problems.raise_if_any()
    return play(sheet.variant, sheet.rules, sheet.players, read[2], running)


def score_hands(
    sheet: Sheet, hands: Sequence[tuple[int, Mapping[str, Any] | None]], running: Running
) -> list[dict[str, Any]]:
    """The stored score of each (number, data) in order, continuing from `running`; data None
    is a voided hand. Raises RulesError naming each hand the engine does not accept by its
    number (``hands[3]`` is hand 4)."""
    problems = Problems()
    scores = []
    for number, data in hands:
        if data is None:
            scores.append(void_score(running))
            continue
        read = read_hand(
            sheet_hand(data, sheet.players), problems, f"hands[{number - 1}]", sheet, entered=False
        )
        if read is None:
            continue
        row, running = play(sheet.variant, sheet.rules, sheet.players, read[2], running)
        scores.append(row_score(row, running))
    problems.raise_if_any()
    return scores


def evaluate_session(
    session: Session, closed: bool | None = None
) -> tuple[list[Hand], rules.SheetResult]:
    """The session's non-voided hands in number order and the engine's replay of all of them:
    for what needs the whole sheet at once (settlement, export, the league's radelci) and as
    the truth the stored rows agree with. ``rows[i]`` of the result belongs to ``hands[i]``;
    a stored hand the engine no longer accepts raises RulesError with ``hands[i]``.
    """
    sheet = engine_sheet(session)
    hands = list(session.hands.filter(voided=False).order_by("number"))
    problems = Problems()
    read = read_stored_hands(
        sheet, (hand.data for hand in hands), problems, (f"hands[{i}]" for i in range(len(hands)))
    )
    problems.raise_if_any()
    result = rules.evaluate(
        sheet.variant,
        sheet.rules,
        sheet.players,
        read,
        session.is_closed if closed is None else closed,
    )
    return hands, result


def session_sheet(session: Session, closed: bool | None = None) -> rules.SheetResult:
    """The evaluated sheet of a session (running totals, radelci, closing lines, settlement).

    ``closed`` defaults to whether the session is closed: only a closed sheet has the
    end-of-session radelc penalties in its totals.
    """
    return evaluate_session(session, closed)[1]


def settlement(session: Session) -> rules.Settlement:
    """Who gives whom how much if the session were closed now (nets and ≤ N − 1 transfers)."""
    return session_sheet(session, closed=True).settlement


def sheet_json(session: Session) -> dict[str, Any]:
    """The session in the sheet format of HANDS.md (voided hands left out)."""
    players = session_players(session)
    return {
        "format": 1,
        "variant": session.variant,
        "rules": dict(session.rules),
        "players": list(players),
        "hands": [
            sheet_hand(hand.data, players)
            for hand in session.hands.filter(voided=False).order_by("number")
        ],
    }


export_json = sheet_json


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
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([_text(_("Hand")), *map(_text, players), _text(_("Note"))])
    for hand, row in zip(hands, sheet.rows, strict=True):
        writer.writerow(
            [
                hand.number,
                *(
                    _number(row.result.amounts[p]) if p in row.result.amounts else ""
                    for p in players
                ),
                _text(hand_form.note(row.result)),
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


# --- Problems in words --------------------------------------------------------------------

_HAND_PATH = re.compile(r"^hands\[(\d+)\]\.?(.*)$")


def describe_problem(problem: Problem) -> str:
    """A sheet problem with its hand number counted from 1: ``hands[3].points`` → "hand 4:
    points: …"."""
    match = _HAND_PATH.match(problem.path)
    if match is None:
        return str(problem)
    number = int(match.group(1)) + 1
    rest = match.group(2)
    where = _("hand %(number)d") % {"number": number}
    if rest:
        where = f"{where}: {rest}"
    return f"{where}: {problem.message}"


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


def hand_summary(data: Mapping[str, Any]) -> str:
    """What a stored hand says, in a few words: "two · Ana + Cene · 38"."""
    parts = [labels.CONTRACTS.get(data.get("contract"), str(data.get("contract", "")))]
    who = " + ".join(str(data[k]) for k in ("declarer", "partner") if data.get(k))
    if who:
        parts.append(who)
    if "points" in data:
        parts.append(str(data["points"]))
    if "made" in data:
        parts.append(_("made") if data["made"] else _("lost"))
    if data.get("bonuses"):
        parts.append(", ".join(str(b.get("name", "")) for b in data["bonuses"] if b))
    return " · ".join(parts)


def session_history(session: Session) -> list[Change]:
    """Every recorded change of the session and its hands, newest first."""
    changes = []
    for record in Hand.history.filter(session_id=session.pk).select_related("history_user"):
        if record.history_type == "+":
            what = _("recorded")
        elif record.history_type == "-":
            what = _("deleted")
        elif record.voided:
            what = _("voided")
        else:
            what = _("changed")
        detail = hand_summary(record.data or {})
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
    changes.sort(key=lambda change: change.when, reverse=True)
    return changes
