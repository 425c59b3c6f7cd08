"""Scoring hands as rows of their sheet: the row a hand stores (its amounts, lines, note and
the running state after it), where the sheet stands before a hand, and a hand's entries."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import rules
from rules import note
from rules.problems import Problems
from rules.reader import Sheet, read_hand
from rules.scoring import Running, amount_json, play, start
from rules.words import phrase_json
from scorebook.amounts import cents
from scorebook.errors import ServiceError
from scorebook.hands.stored import sheet_hand
from scorebook.models import Entry, Hand, Session

# The keys of a stored row (Hand.score), which scorebook.hands.rows reads back: its amounts,
# the engine's lines, the paper note, who dealt (a row's, not the hand's field) and the running
# state after it.
AMOUNTS, LINES, NOTE, DEALT_BY, RUNNING = "amounts", "lines", "note", "dealer", "running"


def row_score(row: rules.SheetRow, running: Running) -> dict[str, Any]:
    """What a hand stores of its row: amounts, the engine's lines, the paper note, the dealer,
    and the running state after it (totals, radelci, next dealer). Lines and note are stored
    as words (ids and values, rules.words), said in the reader's language when shown."""
    result = row.result
    return {
        AMOUNTS: {name: amount_json(a) for name, a in result.amounts.items()},
        LINES: [stored_line(line) for line in result.lines],
        NOTE: phrase_json(note(result)),
        DEALT_BY: row.dealer,
        RUNNING: running.to_json(),
    }


def stored_line(line: rules.Line) -> list[Any]:
    """A line as a stored row keeps it: ``[words, {player: amount}]``."""
    return [phrase_json(line.words), {name: amount_json(a) for name, a in line.amounts.items()}]


def void_score(running: Running) -> dict[str, Any]:
    """A voided hand's row: no amounts; the running state passes through it unchanged."""
    return {RUNNING: running.to_json()}


class Unscored(Exception):
    """A hand has no stored row: it was stored before rows were kept, and the migration that
    made them could not score its session."""


def running_after(sheet: Sheet, score: Mapping[str, Any] | None) -> Running:
    """Where the sheet stands after a hand with this stored score (None: before any hand)."""
    if score is None:
        return start(sheet.variant, sheet.rules, sheet.players)
    if RUNNING not in score:
        raise Unscored
    return Running.from_json(score[RUNNING])


def running_before(session: Session, sheet: Sheet, number: int | None = None) -> Running:
    """Where the session's sheet stands before hand `number` (None: after its last hand), read
    from the stored rows; raises Unscored where the row before is missing."""
    hands = session.hands.order_by("-number")
    if number is not None:
        hands = hands.filter(number__lt=number)
    return running_after(sheet, hands.values_list("score", flat=True).first())


def score_next(sheet: Sheet, hand: Mapping[str, Any], running: Running) -> rules.SheetRow:
    """A hand about to be stored, scored as the row after `running`. Raises RulesError with
    paths of the hand alone (``points``)."""
    problems = Problems()
    read = read_hand(sheet_hand(hand, sheet.players), problems, "", sheet)
    problems.raise_if_any()
    return play(sheet.variant, sheet.rules, sheet.players, read[2], running)


def score_hands(
    sheet: Sheet, hands: Sequence[tuple[int, Mapping[str, Any] | None]], running: Running
) -> list[dict[str, Any]]:
    """The stored score of each (number, hand) in order, continuing from `running`; hand None
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


def scored(sheet: Sheet, own: Mapping[str, Any], before: Running) -> rules.SheetRow:
    """score_next, the engine's refusal as the pipeline's."""
    try:
        return score_next(sheet, own, before)
    except rules.RulesError as exc:
        raise ServiceError.of(exc.problems) from None


def entries(
    hand: Hand, seats: Mapping[str, int], amounts: Mapping[str, Any] | None = None
) -> list[Entry]:
    """A hand's entries: the `amounts` of the row just scored (None: of its stored row);
    `seats` maps each seated name to its player id."""
    if amounts is None:
        amounts = hand.score[AMOUNTS]
    return [
        Entry(hand=hand, player_id=seats[name], amount=cents(amount))
        for name, amount in amounts.items()
    ]
