"""RULES.md §8.7, the TARZS rating, with every number written out."""

from __future__ import annotations

from decimal import Decimal as D
from fractions import Fraction as F

from scorebook.series import tarzs

BEFORE = {
    "Ana": F(30),
    "Bor": F(20),
    "Dani": F(40),
    "Eva": F(25),
    "Fedja": F(15),
}  # Cene is new: 10.1


def seats(*order):
    """A table of three in finishing order: sheet sums 30, 20, 10."""
    return tuple(zip(order, (F(30), F(20), F(10)), strict=True))


EXAMPLE = tarzs.Tournament(
    "first",
    (
        (seats("Ana", "Cene", "Bor"), seats("Dani", "Eva", "Fedja")),
        (seats("Dani", "Ana", "Fedja"), seats("Eva", "Bor", "Cene")),
    ),
)


def test_the_rules_example_ratings_after_the_first_tournament():
    (outcome,) = tarzs.play_season(BEFORE, [EXAMPLE])
    assert outcome.before["Cene"] == F(101, 10)
    # Round 1: (30 + 20 + 10.1) / 3 = 20.0333… and (40 + 25 + 15) / 3 = 26.6667;
    # round 2: (30 + 40 + 15) / 3 = 28.3333 and (20 + 10.1 + 25) / 3 = 18.3667.
    # Ana (2 × 20.0333 + 1 × 28.3333) / 2 = 34.2; Bor (½ × 20.0333 + 1 × 18.3667) / 2 = 14.1917…
    assert outcome.after == {
        "Ana": F(342, 10),
        "Bor": F(1703, 120),
        "Cene": F(1753, 120),
        "Dani": F(55),
        "Eva": F(317, 10),
        "Fedja": F(1375, 100),
    }
    shown = {p: tarzs.shown(r) for p, r in outcome.after.items()}
    assert shown == {
        "Ana": D("34.2"),
        "Bor": D("14.2"),
        "Cene": D("14.6"),
        "Dani": D("55.0"),
        "Eva": D("31.7"),
        "Fedja": D("13.8"),
    }
    assert tarzs.stored(outcome.after["Bor"]) == D("14.1916666667")
    assert tarzs.stored(outcome.after["Cene"]) == D("14.6083333333")
    assert tarzs.stored(outcome.after["Fedja"]) == D("13.7500000000")
    assert outcome.rounds == dict.fromkeys(outcome.after, 2)


def test_the_tournaments_rating_is_its_strongest_third():
    (outcome,) = tarzs.play_season(BEFORE, [EXAMPLE])
    # Six participants: the best two before it, Dani 40 and Ana 30.
    assert set(outcome.strongest) == {"Dani", "Ana"}
    assert outcome.rating == F(35)
    # Seven: the third rounded up is three.
    strongest, rating = tarzs.strongest_third({**BEFORE, "Cene": F(101, 10), "Gal": F(26)})
    assert set(strongest) == {"Dani", "Ana", "Gal"} and rating == F(32)


def test_ties_at_a_table_share_exactly_a_three_way_tie_is_seven_sixths():
    three_way = (("a", F(0)), ("b", F(0)), ("c", F(0)))
    assert tarzs.table_points(three_way) == dict.fromkeys("abc", F(7, 6))
    two_first = (("a", F(10)), ("b", F(10)), ("c", F(-20)))
    assert tarzs.table_points(two_first) == {"a": F(3, 2), "b": F(3, 2), "c": F(1, 2)}


def test_the_rating_is_the_mean_over_every_round_of_the_season_so_far():
    second = tarzs.Tournament("second", ((seats("Bor", "Ana", "Cene"),),))
    first, after = tarzs.play_season(BEFORE, [EXAMPLE, second])
    # Before the second: Ana 34.2, Bor 14.1917, Cene 14.6083: mean 20.9972…
    assert after.before == {"Bor": F(1703, 120), "Ana": F(342, 10), "Cene": F(1753, 120)}
    # (34.2 + 14.1917 + 14.6083) / 3 = 21 exactly. Bor's three round values of the season:
    # ½ × 20.0333, 1 × 18.3667 and now 2 × 21: (10.0167 + 18.3667 + 42) / 3 = 23.4611…
    assert after.after["Bor"] == F(4223, 180)
    assert tarzs.shown(after.after["Bor"]) == D("23.5")
    # Dani did not play the second: his rating stays 55.
    assert tarzs.ratings_after(BEFORE, [first, after])["Dani"] == F(55)
    assert tarzs.tournaments_played([first, after]) == {
        "Ana": 2,
        "Bor": 2,
        "Cene": 2,
        "Dani": 1,
        "Eva": 1,
        "Fedja": 1,
    }


def test_a_bye_and_a_table_of_two_are_no_rated_round():
    tournament = tarzs.Tournament(
        "t", ((seats("Ana", "Bor", "Cene"), (("Dani", F(5)), ("Eva", F(1)))),)
    )
    (outcome,) = tarzs.play_season(BEFORE, [tournament])
    assert set(outcome.after) == {"Ana", "Bor", "Cene"}


def test_the_season_end_halving_floor_and_cap_each_decide():
    start = {"Ana": F(16), "Bor": F(30), "Cene": F(40), "Dani": F(12)}
    running = {"Ana": F(19), "Bor": F(12), "Cene": F(40), "Dani": F(16), "Eva": F(8)}
    played = {"Ana": 1, "Bor": 1, "Cene": 4, "Dani": 2, "Eva": 3}
    cap = tarzs.cap_of(20)  # twenty played a rated round the season before: cap 30
    assert cap == 30
    ends = tarzs.season_end(start, running, played, 4, cap)
    # Ana played 1 of 4: halved, 19 → 9.5, above her floor (half of 16).
    assert (ends["Ana"].rating, ends["Ana"].steps) == (F(19, 2), ("halved",))
    # Bor 1 of 4: halved to 6, raised to half his start, 15.
    assert (ends["Bor"].rating, ends["Bor"].steps) == (F(15), ("halved", "floor"))
    # Cene played all four: 40 is above 1.5 × 20 = 30.
    assert (ends["Cene"].rating, ends["Cene"].steps) == (F(30), ("cap",))
    # Dani played half (2 of 4): not halved; 16 stays.
    assert (ends["Dani"].rating, ends["Dani"].steps) == (F(16), ())
    # Eva is new this season: her floor is 10.1 / 2 = 5.05; 8 stays.
    assert (ends["Eva"].rating, ends["Eva"].steps) == (F(8), ())


def test_halving_alone_decides_and_a_first_season_has_no_cap():
    ends = tarzs.season_end({"Ana": F(20)}, {"Ana": F(60)}, {"Ana": 0}, 3, tarzs.cap_of(None))
    # None of three played: halved, 30, above the floor 10, and no cap in a first season.
    assert (ends["Ana"].rating, ends["Ana"].steps) == (F(30), ("halved",))


def test_a_rated_series_takes_three_player_placement_two_one_half_tarzs_tables():
    fits = tarzs.Facts(3, "placement", (F(2), F(1), F(1, 2)), "tarzs", False)
    assert tarzs.misfits(fits) == []
    four = tarzs.Facts(4, "placement", (F(3), F(2), F(1), F(0)), "seed", True)
    assert tarzs.misfits(four) == [
        "table_size",
        "placement_points",
        "preset",
        "two_player_tables",
    ]
    sheet = tarzs.Facts(3, "sheet", (F(2), F(1), F(1, 2)), "tarzs", False)
    assert tarzs.misfits(sheet) == ["placement_points"]
