"""RULES.md §8.6: a series' points tables, shared places, factor, best N and tie-breaks, with
the numbers written out."""

from __future__ import annotations

from decimal import Decimal as D
from fractions import Fraction as F

from scorebook.series.standing import (
    CUP,
    N_MINUS_PLACE,
    OWN,
    Result,
    all_time,
    place_points,
    points_table,
    standing,
    two_decimals,
)


def test_the_rules_example_tied_second_and_third_share_eighteen():
    table = points_table(OWN, [F(25), F(20), F(16), F(13)])
    points = place_points([("Ana", 1), ("Bor", 2), ("Cene", 2), ("Dani", 4)], table)
    assert points == {"Ana": 25, "Bor": 18, "Cene": 18, "Dani": 13}


def test_the_cup_table_and_places_past_it():
    table = points_table(CUP)
    ranking = [(f"p{i}", i) for i in range(1, 18)]
    points = place_points(ranking, table)
    assert [points[f"p{i}"] for i in (1, 2, 3, 15, 16, 17)] == [25, 20, 16, 1, 0, 0]
    # 15th and 16th tied: (1 + 0) / 2.
    points = place_points([("a", 1), ("b", 15), ("c", 15)], table)
    assert points["b"] == F(1, 2) and two_decimals(points["b"]) == D("0.50")


def test_n_minus_place_plus_one_counts_the_players_ranked():
    table = points_table(N_MINUS_PLACE, ranked=5)
    assert table == [5, 4, 3, 2, 1]
    # A three-way tie for 2nd of five: (4 + 3 + 2) / 3 = 3 each.
    points = place_points([("a", 1), ("b", 2), ("c", 2), ("d", 2), ("e", 5)], table)
    assert points == {"a": 5, "b": 3, "c": 3, "d": 3, "e": 1}


def test_shared_points_are_exact_and_shown_to_two_decimals_half_up():
    table = points_table(OWN, [F(25), F(20), F(16), F(13), F(12)])
    # 2nd, 3rd and 4th tied: (20 + 16 + 13) / 3 = 16.333…
    points = place_points([("a", 1), ("b", 2), ("c", 2), ("d", 2), ("e", 5)], table)
    assert points["b"] == F(49, 3)
    assert two_decimals(points["b"]) == D("16.33")
    assert two_decimals(F(1, 8)) == D("0.13")  # a half is rounded up, not to even
    assert two_decimals(F(2, 3)) == D("0.67")


def test_best_n_counts_the_best_results_factor_applied_the_final_too():
    # Three tournaments, the last a final with factor 2: Ana 25, 20, 2 × 10.
    ana = [Result(0, 1, F(25)), Result(1, 2, F(20)), Result(2, 4, F(20))]
    bor = [Result(0, 2, F(20)), Result(1, 1, F(25)), Result(2, 1, F(50))]
    rows = standing({"Ana": ana, "Bor": bor}, best_n=2)
    assert [(r.person, r.place, r.total) for r in rows] == [("Bor", 1, 75), ("Ana", 2, 45)]
    # Ana's 20 and the final's 20 are equal: the earlier one is marked counted.
    assert rows[1].counted == {0, 1}
    assert rows[0].counted == {1, 2}


def test_ties_by_more_results_counted():
    rows = standing(
        {
            "Ana": [Result(0, 1, F(25))],
            "Bor": [Result(0, 3, F(16)), Result(1, 10, F(9))],
        }
    )
    assert [(r.person, r.place) for r in rows] == [("Bor", 1), ("Ana", 2)]


def test_ties_by_the_best_single_result():
    rows = standing(
        {
            "Ana": [Result(0, 4, F(13)), Result(1, 4, F(13))],
            "Bor": [Result(0, 2, F(20)), Result(1, 13, F(6))],
        }
    )
    assert [(r.person, r.place) for r in rows] == [("Bor", 1), ("Ana", 2)]


def test_ties_by_the_latest_tournament_either_played():
    # Equal totals, counts and best: in tournament 2 Cene (3rd) beats Ana (5th), and Bor did
    # not play it: who played it before who did not.
    rows = standing(
        {
            "Ana": [Result(0, 1, F(20)), Result(2, 5, F(10))],
            "Bor": [Result(0, 1, F(20)), Result(1, 5, F(10))],
            "Cene": [Result(1, 1, F(20)), Result(2, 3, F(10))],
        }
    )
    assert [(r.person, r.place) for r in rows] == [("Cene", 1), ("Ana", 2), ("Bor", 3)]


def test_still_equal_after_every_tie_break_share_the_place():
    same = [Result(0, 2, F(18))]
    rows = standing({"Ana": same, "Bor": same, "Cene": [Result(0, 4, F(13))]})
    assert [(r.person, r.place) for r in rows] == [("Ana", 1), ("Bor", 1), ("Cene", 3)]


def test_the_all_time_list_adds_each_seasons_counted_results():
    first = standing(
        {"Ana": [Result(0, 1, F(25)), Result(1, 5, F(11))], "Bor": [Result(0, 2, F(20))]},
        best_n=1,
    )
    second = standing({"Bor": [Result(0, 1, F(25))], "Cene": [Result(0, 2, F(20))]})
    rows = all_time([first, second])
    # Ana 25 (her 11 was not counted), Bor 20 + 25, Cene 20; Ana before Cene by best result.
    assert [(r.person, r.place, r.total) for r in rows] == [
        ("Bor", 1, 45),
        ("Ana", 2, 25),
        ("Cene", 3, 20),
    ]
