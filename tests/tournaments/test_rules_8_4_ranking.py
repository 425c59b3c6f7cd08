"""RULES.md §8.4, the ranking: table places and shared points, the modes `placement`,
`sheet` and `sheet+rank` with each tie-break deciding once, shared ranks, byes, teams.

Pure functions (scorebook.tournaments.ranking): each round is written out as its tables'
sheet sums, and every expected number by hand.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from scorebook.tournaments.ranking import (
    FOUR_PLAYER_LEAGUE,
    PLACEMENT,
    SHEET,
    SHEET_PLUS_RANK,
    THREE_PLAYER_CHAMPIONSHIP,
    Round,
    Seat,
    points_for_table,
    standings,
    table_places,
    team_standings,
    tiers,
)

F = Fraction
RANK_POINTS = (60, 40, 20, 0)


def ranks(result) -> list[tuple[int, str]]:
    return [(s.rank, s.player) for s in result]


def scores(result) -> dict[str, Fraction]:
    return {s.player: s.score for s in result}


# --- One table ----------------------------------------------------------------------------


def test_the_example_of_8_4_sheet_plus_rank():
    """60 / 40 / 20 / 0, sums Ana 12, Bor 12, Cene −4, Dani −20: Ana and Bor 12 + (60 + 40)/2
    = 62, Cene −4 + 20 = 16, Dani −20 + 0 = −20."""
    result = standings(
        SHEET_PLUS_RANK, [Round([{"Ana": 12, "Bor": 12, "Cene": -4, "Dani": -20}])], RANK_POINTS
    )
    assert scores(result) == {"Ana": 62, "Bor": 62, "Cene": 16, "Dani": -20}
    assert ranks(result) == [(1, "Ana"), (1, "Bor"), (3, "Cene"), (4, "Dani")]
    assert [s.points for s in result] == [50, 50, 20, 0]


def test_tied_players_share_the_points_of_the_places_they_cover():
    assert table_places({"Ana": 30, "Bor": 10, "Cene": 10, "Dani": -5}, [3, 2, 1, 0]) == {
        "Ana": Seat(1, F(3)),
        "Bor": Seat(2, F(3, 2)),
        "Cene": Seat(2, F(3, 2)),
        "Dani": Seat(4, F(0)),
    }


def test_shared_points_are_exact_never_rounded():
    """Three tied at a 2 / 1 / ½ table share 3½ points: 7/6 each, not 1.17."""
    seats = table_places({"Ana": 5, "Bor": 5, "Cene": 5}, THREE_PLAYER_CHAMPIONSHIP)
    assert {p: s.points for p, s in seats.items()} == {
        "Ana": F(7, 6),
        "Bor": F(7, 6),
        "Cene": F(7, 6),
    }
    assert sum(s.points for s in seats.values()) == F(7, 2)


def test_half_points_and_decimal_sums_are_read_exactly():
    seats = table_places({"Ana": Decimal("3.34"), "Bor": Decimal("-3.33"), "Cene": 0}, [2, 1, 0.5])
    assert seats == {"Ana": Seat(1, F(2)), "Cene": Seat(2, F(1)), "Bor": Seat(3, F(1, 2))}


@pytest.mark.parametrize(
    "size, points, expected",
    [
        (4, None, [3, 2, 1, 0]),  # N − 1 … 0 of the table played
        (3, None, [2, 1, 0]),
        (5, None, [4, 3, 2, 1, 0]),
        (3, THREE_PLAYER_CHAMPIONSHIP, [2, 1, F(1, 2)]),
        (3, FOUR_PLAYER_LEAGUE, [4, 3, 2]),  # a smaller table takes the first places
        (5, FOUR_PLAYER_LEAGUE, [4, 3, 2, 1, 0]),  # a larger one: 0 beyond the list
        (4, (5, 2.5, 1, 0), [5, F(5, 2), 1, 0]),  # a club's own list, halves allowed
    ],
)
def test_the_points_of_each_place_at_a_table(size, points, expected):
    assert points_for_table(size, points) == expected


# --- placement ----------------------------------------------------------------------------


def test_placement_ranks_by_placement_points():
    """Ana 2 + 3 points beats Cene 3 + 0, though Cene's sum is 95 and hers 20."""
    rounds = [
        Round([{"Cene": 100, "Ana": 10, "Bor": 5, "Dani": -115}]),
        Round([{"Ana": 10, "Bor": 5, "Dani": 0, "Cene": -5}]),
    ]
    result = standings(PLACEMENT, rounds)
    assert [(s.player, s.score, s.sheet_sum) for s in result] == [
        ("Ana", 5, 20),
        ("Cene", 3, 95),
        ("Bor", 3, 10),
        ("Dani", 1, -115),
    ]
    assert ranks(result) == [(1, "Ana"), (2, "Cene"), (3, "Bor"), (4, "Dani")]


def test_placement_ties_by_total_sheet_sum():
    rounds = [
        Round([{"Ana": 30, "Bor": 10, "Cene": -10, "Dani": -30}]),
        Round([{"Ana": -40, "Bor": 20, "Cene": 10, "Dani": 0}]),
    ]
    result = standings(PLACEMENT, rounds)
    # Ana 3 points, sum −10; Cene 3 points, sum 0: Cene ahead although Ana won a table.
    assert [(s.player, s.score, s.sheet_sum) for s in result] == [
        ("Bor", 5, 30),
        ("Cene", 3, 0),
        ("Ana", 3, -10),
        ("Dani", 1, -30),
    ]
    assert ranks(result) == [(1, "Bor"), (2, "Cene"), (3, "Ana"), (4, "Dani")]


def test_placement_ties_by_the_count_of_first_places():
    """Ana (1st, 4th) and Bor (2nd, 3rd): 3 points and sum 0 each; Ana has a first place."""
    rounds = [
        Round([{"Ana": 40, "Bor": 10, "Cene": -20, "Dani": -30}]),
        Round([{"Cene": 30, "Dani": 20, "Bor": -10, "Ana": -40}]),
    ]
    result = standings(PLACEMENT, rounds)
    assert [(s.player, s.score, s.sheet_sum, s.places) for s in result] == [
        ("Cene", 4, 10, (1, 0, 1, 0)),
        ("Ana", 3, 0, (1, 0, 0, 1)),
        ("Bor", 3, 0, (0, 1, 1, 0)),
        ("Dani", 2, -10, (0, 1, 0, 1)),
    ]
    assert ranks(result) == [(1, "Cene"), (2, "Ana"), (3, "Bor"), (4, "Dani")]


def test_placement_ties_by_the_count_of_second_places():
    """Ana (1st, 2nd, 4th) and Bor (3rd, 1st, 3rd): 5 points, sum 0 and one first place each;
    Ana has a second place, Bor none."""
    rounds = [
        Round([{"Ana": 30, "Cene": 20, "Bor": -10, "Dani": -40}]),
        Round([{"Bor": 20, "Ana": 10, "Cene": 0, "Dani": -30}]),
        Round([{"Cene": 40, "Dani": 30, "Bor": -10, "Ana": -40}]),
    ]
    result = standings(PLACEMENT, rounds)
    assert [(s.player, s.score, s.sheet_sum, s.places) for s in result] == [
        ("Cene", 6, 60, (1, 1, 1, 0)),
        ("Ana", 5, 0, (1, 1, 0, 1)),
        ("Bor", 5, 0, (1, 0, 2, 0)),
        ("Dani", 2, -40, (0, 1, 0, 2)),
    ]
    assert ranks(result) == [(1, "Cene"), (2, "Ana"), (3, "Bor"), (4, "Dani")]


def test_placement_players_equal_after_every_tie_break_share_the_rank():
    rounds = [
        Round([{"Ana": 20, "Bor": 0, "Cene": -5, "Dani": -15}]),
        Round([{"Bor": 20, "Ana": 0, "Cene": -5, "Dani": -15}]),
    ]
    result = standings(PLACEMENT, rounds)
    assert ranks(result) == [(1, "Ana"), (1, "Bor"), (3, "Cene"), (4, "Dani")]
    assert tiers(result) == [["Ana", "Bor"], ["Cene"], ["Dani"]]


def test_placement_with_a_smaller_table_takes_the_first_places_of_the_list():
    result = standings(
        PLACEMENT,
        [Round([{"Ana": 10, "Bor": 0, "Cene": -5, "Dani": -5}, {"Eva": 9, "Fran": 1, "Gal": -3}])],
        FOUR_PLAYER_LEAGUE,
    )
    assert scores(result) == {
        "Ana": 4,
        "Eva": 4,
        "Bor": 3,
        "Fran": 3,
        "Gal": 2,
        "Cene": F(3, 2),
        "Dani": F(3, 2),
    }
    # Ana and Eva: 4 points; Ana's sum 10 beats Eva's 9.
    assert ranks(result)[:2] == [(1, "Ana"), (2, "Eva")]


# --- sheet --------------------------------------------------------------------------------


def test_sheet_ranks_by_the_sheet_sums_and_ties_by_table_wins():
    """Ana and Bor 30 each: Ana won round 1's table, Bor no table."""
    rounds = [
        Round([{"Ana": 30, "Bor": 20, "Cene": 0, "Dani": -50}]),
        Round([{"Cene": 40, "Bor": 10, "Ana": 0, "Dani": -50}]),
    ]
    result = standings(SHEET, rounds)
    assert [(s.player, s.score, s.table_wins) for s in result] == [
        ("Cene", 40, 1),
        ("Ana", 30, 1),
        ("Bor", 30, 0),
        ("Dani", -100, 0),
    ]
    assert ranks(result) == [(1, "Cene"), (2, "Ana"), (3, "Bor"), (4, "Dani")]


def test_sheet_ties_by_the_highest_single_round():
    """Ana and Bor: 30, no table win; Ana's best round 25, Bor's 15. Cene and Dani: −30 and
    a table win each; Dani's best round 60 beats Cene's 50."""
    rounds = [
        Round([{"Cene": 50, "Ana": 25, "Bor": 15, "Dani": -90}]),
        Round([{"Dani": 60, "Bor": 15, "Ana": 5, "Cene": -80}]),
    ]
    result = standings(SHEET, rounds)
    assert ranks(result) == [(1, "Ana"), (2, "Bor"), (3, "Dani"), (4, "Cene")]


def test_sheet_ties_by_the_second_highest_round():
    """Ana 20 + 0 + 10 and Bor 5 + 20 + 5: 30 each, no win, best round 20 each; then Ana's
    10 beats Bor's 5."""
    rounds = [
        Round([{"Cene": 100, "Ana": 20, "Bor": 5, "Dani": -125}]),
        Round([{"Dani": 100, "Bor": 20, "Ana": 0, "Cene": -120}]),
        Round([{"Cene": 100, "Ana": 10, "Bor": 5, "Dani": -115}]),
    ]
    result = standings(SHEET, rounds)
    assert [(s.player, s.score, s.table_wins) for s in result] == [
        ("Cene", 80, 2),
        ("Ana", 30, 0),
        ("Bor", 30, 0),
        ("Dani", -140, 1),
    ]
    assert ranks(result) == [(1, "Cene"), (2, "Ana"), (3, "Bor"), (4, "Dani")]


def test_sheet_a_shared_first_place_is_a_table_win_for_both():
    result = standings(SHEET, [Round([{"Ana": 10, "Bor": 10, "Cene": -5, "Dani": -15}])])
    assert [(s.rank, s.player, s.table_wins) for s in result] == [
        (1, "Ana", 1),
        (1, "Bor", 1),
        (3, "Cene", 0),
        (4, "Dani", 0),
    ]


# --- sheet+rank ---------------------------------------------------------------------------


def test_sheet_plus_rank_ties_by_rank_points():
    """Ana 10 + 40 and Bor 30 + 20 at two tables: 50 each; Ana's 40 rank points beat 20."""
    rounds = [
        Round(
            [
                {"Pia": 50, "Ana": 10, "Qen": -20, "Rok": -40},
                {"Sara": 70, "Tom": 40, "Bor": 30, "Urh": -10},
            ]
        )
    ]
    result = standings(SHEET_PLUS_RANK, rounds, RANK_POINTS)
    assert scores(result) == {
        "Sara": 130,
        "Pia": 110,
        "Tom": 80,
        "Ana": 50,
        "Bor": 50,
        "Qen": 0,
        "Urh": -10,
        "Rok": -40,
    }
    assert ranks(result)[3:5] == [(4, "Ana"), (5, "Bor")]


def test_sheet_plus_rank_ties_by_the_highest_single_round_with_its_rank_points():
    """Ana 70 (10 + 60) and 10 (−10 + 20), Bor 50 (10 + 40) and 30 (−10 + 40): 80 and 80
    rank points each; Ana's best round 70 beats Bor's 50."""
    rounds = [
        Round(
            [
                {"Ana": 10, "Cene": 5, "Dani": 0, "Eva": -15},
                {"Fran": 20, "Bor": 10, "Gal": 0, "Hana": -30},
            ]
        ),
        Round(
            [
                {"Cene": 20, "Dani": 0, "Ana": -10, "Eva": -20},
                {"Fran": 30, "Bor": -10, "Gal": -20, "Hana": -30},
            ]
        ),
    ]
    result = standings(SHEET_PLUS_RANK, rounds, RANK_POINTS)
    assert [(s.rank, s.player, s.score, s.points) for s in result] == [
        (1, "Fran", 170, 120),
        (2, "Cene", 125, 100),
        (3, "Ana", 80, 80),
        (4, "Bor", 80, 80),
        (5, "Dani", 60, 60),
        (6, "Gal", 20, 40),
        (7, "Eva", -35, 0),
        (8, "Hana", -60, 0),
    ]
    assert [s.rounds for s in result[2:4]] == [(70, 10), (50, 30)]


def test_sheet_plus_rank_needs_its_rank_points():
    with pytest.raises(ValueError, match="rank points"):
        standings(SHEET_PLUS_RANK, [Round([{"Ana": 1, "Bor": 0}])])


# --- byes ---------------------------------------------------------------------------------


def test_a_bye_scores_the_mean_of_the_round_exactly():
    """Czech, 13 players: three tables and Mia's bye. Lia's −10 adjustment (a revoke) makes
    the round's sums add up to −10: Mia's sheet sum is −10/12 = −5/6, exactly, not −0.83."""
    round_1 = Round(
        [
            {"Ana": 30, "Bor": -10, "Cene": -10, "Dani": -10},
            {"Eva": 12, "Fran": 12, "Gal": -12, "Hana": -12},
            {"Ivo": 6, "Jan": -2, "Kim": -2, "Lia": -12},
        ],
        byes=["Mia"],
    )
    mia = {s.player: s for s in standings(SHEET, [round_1])}["Mia"]
    assert (mia.score, mia.sheet_sum, mia.table_wins, mia.places, mia.rounds, mia.byes) == (
        F(-5, 6),
        F(-5, 6),
        0,
        (0, 0, 0, 0),
        (),
        1,
    )
    # In `placement` the mean of 3, 2, 1, 0 at three tables: 18 / 12 = 3/2; his sum the same −5/6.
    mia = {s.player: s for s in standings(PLACEMENT, [round_1])}["Mia"]
    assert (mia.score, mia.sheet_sum, mia.places) == (F(3, 2), F(-5, 6), (0, 0, 0, 0))


def test_a_bye_in_sheet_plus_rank_is_the_mean_of_sum_plus_rank_points():
    """§8.4's table and Eva's bye: (62 + 62 + 16 − 20) / 4 = 30, of it a sheet sum of 0."""
    round_1 = Round([{"Ana": 12, "Bor": 12, "Cene": -4, "Dani": -20}], byes=["Eva"])
    eva = {s.player: s for s in standings(SHEET_PLUS_RANK, [round_1], RANK_POINTS)}["Eva"]
    assert (eva.score, eva.sheet_sum, eva.points) == (30, 0, 30)


def test_a_bye_is_never_a_players_highest_single_round():
    """Slovenian, five players. Ana's bye is worth 80/4 = 20, more than any round Bor played,
    but her only round at a table is 10: Bor (15 and 15) is ahead on the same 30."""
    rounds = [
        Round([{"Cene": 50, "Bor": 15, "Dani": 15, "Eva": 0}], byes=["Ana"]),
        Round([{"Cene": 40, "Bor": 15, "Ana": 10, "Dani": 0}], byes=["Eva"]),
    ]
    result = standings(SHEET, rounds)
    assert [(s.rank, s.player, s.score) for s in result] == [
        (1, "Cene", 90),
        (2, "Bor", 30),
        (3, "Ana", 30),
        (4, "Eva", F(65, 4)),
        (5, "Dani", 15),
    ]


def test_a_withdrawn_player_ranks_on_the_rounds_he_played():
    rounds = [
        Round([{"Ana": 30, "Bor": 10, "Cene": -10, "Dani": -30}]),
        Round([{"Ana": 5, "Bor": 0, "Cene": -5}]),  # Dani withdrew after round 1
    ]
    result = standings(PLACEMENT, rounds)
    assert [(s.rank, s.player, s.score, len(s.rounds)) for s in result] == [
        (1, "Ana", 5, 2),
        (2, "Bor", 3, 2),
        (3, "Cene", 1, 2),
        (4, "Dani", 0, 1),
    ]


def test_the_players_given_are_ranked_and_keep_their_order_when_equal():
    result = standings(SHEET, [], players=["Bor", "Ana"])
    assert ranks(result) == [(1, "Bor"), (1, "Ana")]


# --- teams --------------------------------------------------------------------------------


def test_a_team_scores_the_sum_of_its_members_and_ties_by_its_best_member():
    """Sheet sums A 40, E 30, B 20, F 10, G −10, C −20, H −30, D −40. Red (A, H) and blue
    (B, G) 10 each: red's best is 1st; white (D, E) and green (C, F) −10 each: white's E
    is 2nd, green's F 4th."""
    rounds = [
        Round(
            [
                {"A": 40, "B": 20, "C": -20, "D": -40},
                {"E": 30, "F": 10, "G": -10, "H": -30},
            ]
        )
    ]
    team_of = {"A": "red", "H": "red", "B": "blue", "G": "blue", "D": "white", "E": "white"}
    team_of |= {"C": "green", "F": "green"}
    result = team_standings(standings(SHEET, rounds), team_of)
    assert [(t.rank, t.team, t.score, t.members) for t in result] == [
        (1, "red", 10, ("A", "H")),
        (2, "blue", 10, ("B", "G")),
        (3, "white", -10, ("E", "D")),
        (4, "green", -10, ("F", "C")),
    ]


def test_teams_equal_on_their_best_members_share_the_rank():
    rounds = [Round([{"A": 10, "B": 10, "C": -10, "D": -10}])]
    team_of = {"A": "red", "C": "red", "B": "blue", "D": "blue"}
    result = team_standings(standings(SHEET, rounds), team_of)
    assert [(t.rank, t.team, t.score) for t in result] == [(1, "red", 0), (1, "blue", 0)]


def test_a_team_scores_in_the_tournaments_mode():
    rounds = [Round([{"A": 12, "B": 12, "C": -4, "D": -20}])]
    team_of = {"A": "red", "C": "red", "B": "blue", "D": "blue"}
    result = team_standings(standings(SHEET_PLUS_RANK, rounds, RANK_POINTS), team_of)
    # red 62 + 16, blue 62 − 20.
    assert [(t.rank, t.team, t.score) for t in result] == [(1, "red", 78), (2, "blue", 42)]
