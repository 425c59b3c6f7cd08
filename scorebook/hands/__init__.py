"""The hand pipeline: the one path of a hand from the form (or an imported sheet) to the stored
hand, its row of the sheet and its entries, and the one place that reads them back.

A hand's own fields (HANDS.md) are scored by the engine as the next row of the session's sheet
and stored whole (`stored_hand`: with the session's format, variant, rules and players), so a
stored hand says everything on its own. The engine carries state from hand to hand (radelci,
the dealer), so each stored hand also keeps its row (`Hand.score`, made by `row_score`): its
amounts, lines and note, and the running state after it. A new hand is scored from the last
hand's running state alone, the sheet page reads the rows instead of replaying the session,
and a change rescores from the changed hand on.

Every write opens its own transaction (there is no ATOMIC_REQUESTS), or runs in the one a new
hand's save holds from its first read (`record_hand(locked=True)`, `lock_for_save`), and writes
the entries and rows of the hands it changes inside it, so the sum of a player's entries is
always the sum of the hands that are there. Every refusal is a ServiceError (scorebook.errors)
carrying each problem with its path; the engine's problems keep theirs (``points``,
``hands[3].points``).

One module a job; this package names what the rest of the app uses:

- ``session``: the engine's view of a session, what a page says of its game, its seats, locks;
- ``stored``: the stored hand's JSON, a hand inside a sheet, renames (from rules.fields);
- ``scoring``: a hand as the next row of its sheet, the stored row's shape, its entries;
- ``rows``: the one reader of stored rows (StoredRow), for the sheet, paper and polls;
- ``replay``: the engine's replay of a whole session;
- ``preview``: a hand scored in its place, storing nothing;
- ``refusals``: what a write refuses, each told apart;
- ``rescoring``: rows, entries and a closed session's closing kept in step with the hands;
- ``recording``, ``changing``, ``importing``: a new hand; an edit or a void; a sheet.
"""

from __future__ import annotations

from scorebook.hands.changing import edit_hand, void_hand
from scorebook.hands.importing import (
    MAX_IMPORT_HANDS,
    MAX_SHEET_BYTES,
    SheetProblems,
    describe_problem,
    import_sheet,
)
from scorebook.hands.preview import Scored, preview
from scorebook.hands.recording import REPEAT_WINDOW, SAME_SCORE_FIELDS, record_hand
from scorebook.hands.refusals import (
    HandChanged,
    HandVoided,
    JustRecorded,
    OtherSession,
    Refused,
    RepeatDiffers,
    SessionClosed,
)
from scorebook.hands.replay import evaluate_session, session_sheet
from scorebook.hands.rescoring import closing, rescore
from scorebook.hands.rows import (
    SHEET_FIELDS,
    SheetPart,
    StoredClosing,
    StoredLine,
    StoredRow,
    latest_rows,
    line_text,
    rows_before,
    rows_changed_since,
    stored_closing,
    stored_note_text,
    stored_rows,
    unchanged_since,
)
from scorebook.hands.scoring import (
    Unscored,
    row_score,
    running_after,
    running_before,
    score_hands,
    score_next,
    stored_line,
    void_score,
)
from scorebook.hands.session import (
    Game,
    engine_sheet,
    game,
    lock_for_save,
    lock_players,
    seated_session,
)
from scorebook.hands.stored import SESSION_KEYS, rename_in_hand, sheet_hand, stored_hand

__all__ = [
    "Game",
    "HandChanged",
    "HandVoided",
    "JustRecorded",
    "MAX_IMPORT_HANDS",
    "MAX_SHEET_BYTES",
    "OtherSession",
    "REPEAT_WINDOW",
    "Refused",
    "RepeatDiffers",
    "SAME_SCORE_FIELDS",
    "SESSION_KEYS",
    "SHEET_FIELDS",
    "Scored",
    "SessionClosed",
    "SheetPart",
    "SheetProblems",
    "StoredClosing",
    "StoredLine",
    "StoredRow",
    "Unscored",
    "closing",
    "describe_problem",
    "edit_hand",
    "engine_sheet",
    "evaluate_session",
    "game",
    "import_sheet",
    "latest_rows",
    "line_text",
    "lock_for_save",
    "lock_players",
    "preview",
    "record_hand",
    "rename_in_hand",
    "rescore",
    "row_score",
    "rows_before",
    "rows_changed_since",
    "running_after",
    "running_before",
    "score_hands",
    "score_next",
    "seated_session",
    "session_sheet",
    "sheet_hand",
    "stored_closing",
    "stored_hand",
    "stored_line",
    "stored_note_text",
    "stored_rows",
    "unchanged_since",
    "void_hand",
    "void_score",
]
