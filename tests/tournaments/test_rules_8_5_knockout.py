"""RULES.md §8.5, the knockout: seeds, byes for the first seeds, bracket positions, a match's
winner, and the final places (winner 1st, final's loser 2nd, semi-final losers share 3rd,
quarter-final losers share 5th, …)."""

from __future__ import annotations

import random

import pytest

from scorebook.tournaments.knockout import (
    bracket_positions,
    bracket_size,
    final_places,
    first_round,
    match_winner,
    next_round,
    seeds,
)


@pytest.mark.parametrize(
    "size, positions",
    [
        (2, [1, 2]),
        (4, [1, 4, 2, 3]),
        (8, [1, 8, 4, 5, 2, 7, 3, 6]),
        (16, [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]),
    ],
)
def test_bracket_positions_keep_the_first_two_seeds_apart_until_the_final(size, positions):
    assert bracket_positions(size) == positions


@pytest.mark.parametrize("players, size", [(2, 2), (3, 4), (4, 4), (5, 8), (8, 8), (9, 16)])
def test_the_bracket_is_the_next_power_of_two(players, size):
    assert bracket_size(players) == size


def test_seeds_in_a_seeded_random_order_or_by_the_organisers_ranking():
    players = ["Ana", "Bor", "Cene", "Dani", "Eva"]
    drawn = seeds(players, random.Random(11))
    assert drawn == seeds(players, random.Random(11))
    assert sorted(drawn) == sorted(players)
    assert len({tuple(seeds(players, random.Random(n))) for n in range(6)}) > 1
    assert seeds(players) == players  # by a ranking: as given, best first


def test_byes_go_to_the_first_seeds():
    """Six players in a bracket of eight: seeds 1 and 2 go straight to round 2."""
    assert first_round(["S1", "S2", "S3", "S4", "S5", "S6"]) == [
        ("S1",),
        ("S4", "S5"),
        ("S2",),
        ("S3", "S6"),
    ]
    # Five: seeds 1, 2 and 3 have a bye; 4 plays 5.
    assert first_round(["S1", "S2", "S3", "S4", "S5"]) == [("S1",), ("S4", "S5"), ("S2",), ("S3",)]
    assert first_round(["S1", "S2", "S3", "S4"]) == [("S1", "S4"), ("S2", "S3")]


def test_the_winners_meet_in_slot_order():
    assert next_round(["S1", "S4", "S2", "S3"]) == [("S1", "S4"), ("S2", "S3")]
    assert next_round(["S1", "S2"]) == [("S1", "S2")]
    assert next_round(["S1"]) == []  # the final is played


def test_the_higher_total_goes_on_and_a_tie_plays_on():
    assert match_winner({"Ana": 12, "Bor": -12}) == "Ana"
    assert match_winner({"Ana": -3, "Bor": 3}) == "Bor"
    assert match_winner({"Ana": 0, "Bor": 0}) is None


def test_final_places_of_eight():
    """Quarter-finals (round 1), semi-finals (2), final (3): the winner went out "in 4"."""
    went_out = {"S1": 4, "S2": 3, "S3": 2, "S4": 2, "S5": 1, "S6": 1, "S7": 1, "S8": 1}
    assert final_places(went_out) == {
        "S1": 1,
        "S2": 2,
        "S3": 3,
        "S4": 3,
        "S5": 5,
        "S6": 5,
        "S7": 5,
        "S8": 5,
    }


def test_final_places_with_byes():
    """Ten players in a bracket of sixteen: round 1 has two matches (7 v 10, 8 v 9); its
    losers share 9th, the eight of round 2 lose to share 5th, …"""
    matches = first_round([f"S{n}" for n in range(1, 11)])
    assert [m for m in matches if len(m) == 2] == [("S8", "S9"), ("S7", "S10")]
    went_out = {"S10": 1, "S9": 1, "S8": 2, "S7": 2, "S6": 2, "S5": 2, "S4": 3, "S3": 3}
    went_out |= {"S2": 4, "S1": 5}
    assert final_places(went_out) == {
        "S1": 1,
        "S2": 2,
        "S3": 3,
        "S4": 3,
        "S5": 5,
        "S6": 5,
        "S7": 5,
        "S8": 5,
        "S9": 9,
        "S10": 9,
    }
