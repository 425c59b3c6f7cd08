"""The whole sheet at once: the engine's replay of a session's hands, for what needs all of them
(settlement, export, the league's radelci) and as the truth the stored rows agree with."""

from __future__ import annotations

import rules
from rules.problems import Problems
from rules.reader import read_hand
from scorebook.hands.session import engine_sheet
from scorebook.hands.stored import sheet_hand
from scorebook.models import Hand, Session


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
    read = []
    for i, hand in enumerate(hands):
        found = read_hand(
            sheet_hand(hand.data, sheet.players), problems, f"hands[{i}]", sheet, entered=False
        )
        if found is not None:
            read.append(found[2])
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
