"""RULES.md §8.3, the draw: table sizes, `random`, `groups`, `swiss`, teammates apart, byes.

Pure functions (scorebook.tournaments.seating): no database. Players are letters or numbered
names; a seeded draw is written out as the seed draws it, so a change to the draw shows here.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorebook.tournaments.seating import (
    Draw,
    byes_for,
    draw_groups,
    draw_random,
    draw_swiss,
    table_sizes,
)

SLOVENIAN = (4, 3, 2)  # slovenian-4, slovenian-3, slovenian-2
FRENCH = (5, 4, 3)
CZECH = (4,)


def singles(players: str) -> list[list[str]]:
    """A standing with nobody equal: A first, B second, …"""
    return [[p] for p in players]


def numbered(n: int) -> list[str]:
    return [f"P{i:02}" for i in range(1, n + 1)]


# --- Table sizes --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "players, size, family, expected",
    [
        # §8.3's examples.
        (22, 4, SLOVENIAN, ([4, 4, 4, 4, 3, 3], 0)),  # not five fours and two byes
        (21, 4, FRENCH, ([4, 4, 4, 4, 5], 0)),  # a five-seat table, not three threes
        # A two-player table only in a two-player tournament: 6 at fours is two threes.
        (6, 4, SLOVENIAN, ([3, 3], 0)),
        (10, 4, SLOVENIAN, ([4, 3, 3], 0)),
        (5, 4, SLOVENIAN, ([4], 1)),  # 3 + 2 would need a two-player table
        (5, 3, SLOVENIAN, ([4], 1)),  # a slovenian-3 day seats a four before it gives two byes
        (8, 4, SLOVENIAN, ([4, 4], 0)),
        (9, 4, CZECH, ([4, 4], 1)),  # Czech tarok has no other table
        (7, 4, CZECH, ([4], 3)),
        (6, 4, FRENCH, ([3, 3], 0)),
        (13, 5, FRENCH, ([5, 5, 3], 0)),
        (14, 5, FRENCH, ([5, 5, 4], 0)),
        (3, 4, CZECH, ([], 3)),  # too few for one table
    ],
)
def test_table_sizes_seat_the_most_then_the_most_full_tables(players, size, family, expected):
    assert table_sizes(players, size, family) == expected


def test_the_fewest_other_tables_each_as_large_as_possible():
    """No family has three other sizes, where "each as large as possible" decides alone:
    14 at sixes with tables of 3, 4 and 5 is one six and two fours, not a three and a five."""
    assert table_sizes(14, 6, (6, 5, 4, 3)) == ([6, 4, 4], 0)
    # The most fives come first, then the fewest other tables: 12 at fives is a five, a
    # four and a three (two fives would leave two players out), 11 a five and two threes.
    assert table_sizes(12, 5, (5, 4, 3)) == ([5, 4, 3], 0)
    assert table_sizes(11, 5, (5, 4, 3)) == ([5, 3, 3], 0)


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(min_value=0, max_value=120),
    size_family=st.sampled_from(
        [(4, SLOVENIAN), (3, SLOVENIAN), (4, FRENCH), (5, FRENCH), (4, CZECH)]
    ),
)
def test_every_player_has_a_seat_or_a_bye(players, size_family):
    size, family = size_family
    sizes, byes = table_sizes(players, size, family)
    assert sum(sizes) + byes == players
    assert all(n in family and n != 2 for n in sizes)
    if family != CZECH:
        assert byes <= 2  # Slovenian and French seat everybody from six players on
        assert players < 6 or byes == 0


# --- random -------------------------------------------------------------------------------


def test_a_random_draw_replays_with_its_seed_and_the_last_drawn_has_the_bye():
    first = draw_random(list("ABCDE"), 4, CZECH, random.Random(7))
    assert first == Draw(tables=(("E", "A", "D", "B"),), byes=("C",))
    assert draw_random(list("ABCDE"), 4, CZECH, random.Random(7)) == first
    assert draw_random(list("ABCDE"), 4, CZECH, random.Random(8)) != first


def test_a_later_random_round_gives_the_bye_to_the_lowest_who_has_had_none():
    """E is last in the standing but had the bye of round 1: D has it now, wherever the
    random order put him."""
    for seed in range(5):
        drawn = draw_random(
            list("ABCDE"), 4, CZECH, random.Random(seed), standing=singles("ABCDE"), had_bye={"E"}
        )
        assert drawn.byes == ("D",)
        assert sorted(drawn.tables[0]) == ["A", "B", "C", "E"]


# --- groups -------------------------------------------------------------------------------


def test_groups_of_22_at_fours_give_one_of_each_group_and_two_threes():
    """Four groups of ⌈22/4⌉ = 6 (the last one short, 4): every table has one player of each
    of the first three groups; tables 1–4 one of the last group, tables 5 and 6 none."""
    groups = [set(numbered(22)[i : i + 6]) for i in range(0, 22, 6)]
    drawn = draw_groups(numbered(22), 4, SLOVENIAN, random.Random(3))
    assert drawn == Draw(
        tables=(
            ("P01", "P08", "P17", "P21"),
            ("P03", "P10", "P18", "P19"),
            ("P04", "P09", "P13", "P20"),
            ("P06", "P07", "P14", "P22"),
            ("P05", "P11", "P15"),
            ("P02", "P12", "P16"),
        ),
        byes=(),
    )
    for table in drawn.tables:
        assert [len(set(table) & group) for group in groups] == [1, 1, 1, len(table) - 3]


def test_groups_with_a_five_seat_table_give_it_a_fifth_player():
    drawn = draw_groups(numbered(21), 4, FRENCH, random.Random(3))
    assert [len(t) for t in drawn.tables] == [4, 4, 4, 4, 5]
    assert drawn.tables[4][-1] == "P21"  # the fifth seat's group is the last player alone


def test_groups_give_the_bye_to_the_last_of_the_last_group():
    drawn = draw_groups(list(range(1, 10)), 4, CZECH, random.Random(3))
    assert drawn == Draw(tables=((2, 4, 5, 7), (1, 3, 6, 8)), byes=(9,))


def test_groups_keep_teammates_apart_within_the_groups():
    """1 and 3 are teammates: when the draw seats them together, 3 swaps with 4, the nearest
    below him, who is of his group, so each table still has one of each group."""
    groups = [{1, 2}, {3, 4}, {5, 6}, {7, 8}]
    together = 0
    for seed in range(12):
        plain = draw_groups(list(range(1, 9)), 4, CZECH, random.Random(seed))
        together += any({1, 3} <= set(t) for t in plain.tables)
        drawn = draw_groups(
            list(range(1, 9)), 4, CZECH, random.Random(seed), team_of={1: "a", 3: "a"}
        )
        for table in drawn.tables:
            assert not {1, 3} <= set(table)
            assert [len(set(table) & g) for g in groups] == [1, 1, 1, 1]
    assert together  # some seeds do seat them together: the swap was needed


# --- swiss --------------------------------------------------------------------------------


def test_swiss_seats_best_with_best():
    drawn = draw_swiss(singles("ABCDEFG"), 4, SLOVENIAN, random.Random(1))
    assert drawn == Draw(tables=(("A", "B", "C", "D"), ("E", "F", "G")), byes=())


def test_swiss_orders_equal_players_by_the_seeded_random_order():
    orders = {draw_swiss([list("ABCD")], 4, CZECH, random.Random(seed)).tables for seed in range(8)}
    assert len(orders) > 1
    assert draw_swiss([list("ABCD")], 4, CZECH, random.Random(2)) == draw_swiss(
        [list("ABCD")], 4, CZECH, random.Random(2)
    )


def test_swiss_swaps_equal_players_so_that_two_do_not_meet_again():
    """A and D met in round 1; D and E are equal: E sits with A, D at table 2."""
    standing = [["A"], ["B"], ["C"], ["D", "E"], ["F"], ["G"], ["H"]]
    for seed in range(4):
        drawn = draw_swiss(standing, 4, CZECH, random.Random(seed), met=[("A", "D", "X", "Y")])
        assert drawn == Draw(tables=(("A", "B", "C", "E"), ("D", "F", "G", "H")), byes=())


def test_swiss_never_swaps_unequal_players_to_avoid_a_meeting():
    drawn = draw_swiss(singles("ABCDEFGH"), 4, CZECH, random.Random(1), met=[("A", "D")])
    assert drawn.tables[0] == ("A", "B", "C", "D")


def test_swiss_moves_the_lower_of_two_who_met():
    """B and C met; C, D and E are equal. C (the lower) swaps with E, the nearest equal
    player at another table; B keeps his place at the top table."""
    standing = [["A"], ["B"], ["C", "D", "E"], ["F"], ["G"], ["H"]]
    for seed in range(6):
        drawn = draw_swiss(standing, 4, CZECH, random.Random(seed), met=[("B", "C")])
        assert "B" in drawn.tables[0] and "C" in drawn.tables[1]
        assert not {"B", "C"} <= set(drawn.tables[0])


# --- teammates apart ----------------------------------------------------------------------


def test_the_lower_teammate_swaps_with_the_nearest_player_below():
    """A and C of one team at table 1: C swaps with E, the nearest below him at another table
    (D sits at table 1 already)."""
    drawn = draw_swiss(
        singles("ABCDEFGH"), 4, CZECH, random.Random(1), team_of={"A": "r", "C": "r"}
    )
    assert drawn == Draw(tables=(("A", "B", "E", "D"), ("C", "F", "G", "H")), byes=())


def test_the_swap_skips_a_teammate_of_anyone_at_the_table():
    """A, C and E are one team. C may not swap with E (E is A's teammate), nor go to table 2
    where E sits: he swaps with I, the nearest below who will do."""
    team = {"A": "r", "C": "r", "E": "r"}
    drawn = draw_swiss(singles("ABCDEFGHIJKL"), 4, CZECH, random.Random(1), team_of=team)
    assert drawn.tables == (("A", "B", "I", "D"), ("E", "F", "G", "H"), ("C", "J", "K", "L"))


def test_teammates_stay_together_when_no_swap_avoids_it():
    """A team of three at two tables: two of them share one, whatever is swapped."""
    team = {"A": "r", "C": "r", "E": "r"}
    drawn = draw_swiss(singles("ABCDEFGH"), 4, CZECH, random.Random(1), team_of=team)
    assert drawn.tables == (("A", "B", "C", "D"), ("E", "F", "G", "H"))


def test_a_random_draw_keeps_teammates_apart_too():
    team = {"A": "r", "B": "r", "C": "s", "D": "s"}
    for seed in range(10):
        drawn = draw_random(list("ABCDEFGH"), 4, CZECH, random.Random(seed), team_of=team)
        for table in drawn.tables:
            assert not {"A", "B"} <= set(table) and not {"C", "D"} <= set(table)


def test_a_teammate_with_no_one_below_swaps_with_the_nearest_above():
    """G and H are teammates at the last table: nobody is below H, so H swaps with D."""
    team = {"G": "r", "H": "r"}
    drawn = draw_swiss(singles("ABCDEFGH"), 4, CZECH, random.Random(1), team_of=team)
    assert drawn.tables == (("A", "B", "C", "H"), ("E", "F", "G", "D"))


# --- byes ---------------------------------------------------------------------------------


def test_byes_go_to_the_lowest_who_have_not_had_one():
    assert byes_for(list("ABCDEF"), 2, had_bye={"F"}) == ["E", "D"]
    assert byes_for(list("ABCDEF"), 1, had_bye=set("ABCDEF")) == ["F"]  # all had one
    assert byes_for(list("ABCDEF"), 2, had_bye=set("BCDEF")) == ["A", "F"]


def test_a_swiss_bye_goes_to_the_lowest_who_has_had_none():
    drawn = draw_swiss(singles("ABCDE"), 4, CZECH, random.Random(1), had_bye={"E"})
    assert drawn == Draw(tables=(("A", "B", "C", "E"),), byes=("D",))


def test_the_rules_of_the_day_need_no_django():
    """Seating, ranking, knockout and contras are pure: the web side wires them in."""
    modules = ["seating", "ranking", "knockout", "contras"]
    code = (
        "import sys\n"
        + "".join(f"import scorebook.tournaments.{m}\n" for m in modules)
        + "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root
    )
    assert done.stdout.strip() == "[]"
