"""Tournament services (RULES.md §8): registration, presence, the start, the draw, the results.

One module per job, as pretix keeps its services; this package answers every name of them,
and refuses with the one ServiceError of scorebook.errors at the form's field:

- `common`: the clock (`now`, default timezone.now()) and the lock on the tournament's row
  that every change takes first;
- `variants`: the games a tournament table plays, the sizes of a round's tables;
- `points`: placement points, shared ties, the clubs' presets and the organiser's own list;
- `plan`: creating a tournament and editing it until the start;
- `registration`: signing up, the waiting list, walk-ins, confirming presence;
- `start`: the start and the tick that starts what is due;
- `drawing`: the draw of each round (seeded, so a draw can be replayed);
- `rounds`: a table done, finished, its round completed; the rounds as the draw page lists them;
- `ranking`: the standings, the knockout's ranking and bracket;
- `corrections`: a table's hands changed after its round: recompute, tell, record; the
  organiser's replay or keep of a knockout match;
- `day`: the director's screen and his taps on a table, presence at the door, a hand after
  the time, and where each player goes;
- `withdrawals`: a player withdrawn between rounds, and his substitute;
- `messages`: the organiser's message to every player.

Each table is a scorebook Session made with `scorebook.services.start_session`; its hands are
recorded with the ordinary hand form.
"""

from scorebook.tournaments.services.corrections import (
    decide_match,
    mark_seen,
    open_decisions,
    recompute_table,
    unseen_events,
)
from scorebook.tournaments.services.day import (
    MAX_MORE_MINUTES,
    MySeat,
    TableState,
    check_late_hand,
    director_tables,
    end_table,
    more_minutes,
    my_seat,
    reseat_table,
    round_over,
    set_presence,
    tables_of,
)
from scorebook.tournaments.services.drawing import swiss_order
from scorebook.tournaments.services.history import event_text, history
from scorebook.tournaments.services.messages import (
    MAX_MESSAGE,
    banners,
    dismiss,
    send_message,
)
from scorebook.tournaments.services.plan import (
    Plan,
    create_tournament,
    edit_tournament,
    has_started,
)
from scorebook.tournaments.services.points import (
    MAX_PLACEMENT_POINTS,
    N_MINUS_PLACE,
    OWN_POINTS,
    POINTS_PRESETS,
    POINTS_SEPARATORS,
    POINTS_SEPARATORS_BESIDE_DECIMAL_COMMAS,
    PointsPreset,
    choice_of,
    chosen_points,
    parse_hands_by_size,
    parse_points,
    parse_rank_points,
    points_for,
    points_scheme,
    points_text,
    preset_points,
    share_places,
)
from scorebook.tournaments.services.ranking import (
    Match,
    Standing,
    bracket,
    knockout_ranking,
    standings,
    team_standings,
)
from scorebook.tournaments.services.registration import (
    CONFIRMATION_WINDOW,
    add_walk_in,
    cancel_registration,
    confirm_presence,
    confirmation_is_open,
    confirmation_opens_at,
    may_register,
    register,
    registration_closes_at,
    registration_is_open,
    status_of,
)
from scorebook.tournaments.services.rounds import (
    DrawnTable,
    check_session,
    current_round,
    draw,
    finish_table,
    hands_confirmed,
    hands_played,
    last_round_number,
    sync_tournament,
    table_is_done,
)
from scorebook.tournaments.services.start import (
    PLAYER_NAME_LENGTH,
    process_due,
    start_tournament,
)
from scorebook.tournaments.services.variants import (
    family_variant,
    possible_sizes_of,
    possible_table_sizes,
    rules_choice,
    rules_label,
    table_size_of,
    table_sizes,
    tournament_variants,
)
from scorebook.tournaments.services.withdrawals import substitute_choices, withdraw

__all__ = [
    "CONFIRMATION_WINDOW",
    "DrawnTable",
    "MAX_MESSAGE",
    "MAX_MORE_MINUTES",
    "MAX_PLACEMENT_POINTS",
    "Match",
    "MySeat",
    "N_MINUS_PLACE",
    "OWN_POINTS",
    "PLAYER_NAME_LENGTH",
    "POINTS_PRESETS",
    "POINTS_SEPARATORS",
    "POINTS_SEPARATORS_BESIDE_DECIMAL_COMMAS",
    "Plan",
    "PointsPreset",
    "Standing",
    "TableState",
    "add_walk_in",
    "banners",
    "bracket",
    "cancel_registration",
    "check_late_hand",
    "check_session",
    "choice_of",
    "chosen_points",
    "confirm_presence",
    "confirmation_is_open",
    "confirmation_opens_at",
    "create_tournament",
    "current_round",
    "director_tables",
    "dismiss",
    "draw",
    "edit_tournament",
    "event_text",
    "end_table",
    "family_variant",
    "finish_table",
    "hands_confirmed",
    "hands_played",
    "has_started",
    "history",
    "knockout_ranking",
    "last_round_number",
    "mark_seen",
    "open_decisions",
    "decide_match",
    "may_register",
    "more_minutes",
    "my_seat",
    "parse_hands_by_size",
    "parse_points",
    "parse_rank_points",
    "points_for",
    "points_scheme",
    "points_text",
    "possible_sizes_of",
    "possible_table_sizes",
    "preset_points",
    "process_due",
    "recompute_table",
    "register",
    "registration_closes_at",
    "registration_is_open",
    "reseat_table",
    "round_over",
    "rules_choice",
    "rules_label",
    "send_message",
    "set_presence",
    "share_places",
    "standings",
    "start_tournament",
    "status_of",
    "substitute_choices",
    "swiss_order",
    "sync_tournament",
    "table_is_done",
    "team_standings",
    "tables_of",
    "table_size_of",
    "table_sizes",
    "tournament_variants",
    "unseen_events",
    "withdraw",
]
