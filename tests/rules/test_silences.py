"""Where the seeds were silent, RULES.md §11's last paragraph answers: a line of it, a test.

A whole-number field takes ``2`` and ``2.0`` alike and refuses ``2.5`` at its path; in klop,
as in varsovia, a player with card points took a trick; radelci on a hand whose rules keep
none are refused, saying so; an empty contra, a bonus's contra 0, no bonuses and an
adjustment without a reason are accepted.
"""

from __future__ import annotations

import copy

import pytest

from rules import RulesError, score_hand
from rules.fields import FIELDS

FOUR = ["Ana", "Bor", "Cene", "Dani"]


def slovenian(**fields):
    return {"variant": "slovenian-4", "players": FOUR, **fields}


THREE = slovenian(contract="three", declarer="Ana", points=40)
KLOP = slovenian(
    contract="klop",
    points_by_player={"Ana": 10, "Bor": 20, "Cene": 20, "Dani": 20},
    tricks_by_player={"Ana": 2, "Bor": 4, "Cene": 3, "Dani": 3},
)

# A field with a range -> (a hand, where in it the value goes, a whole value, a value that is
# no value of that field, the problem's path). An adjustment's amount is whole or in
# hundredths (HANDS.md), so its refused value has a third decimal.
RANGED = {
    "format": (THREE, ["format"], 1, 1.5, "format"),
    "points": (THREE, ["points"], 40, 40.5, "points"),
    "level": (
        {
            "variant": "czech",
            "players": FOUR,
            "contract": "trojka",
            "declarer": "Ana",
            "points": 41,
        },
        ["level"],
        2,
        2.5,
        "level",
    ),
    "oudlers": (
        {
            "variant": "french-4",
            "players": FOUR,
            "contract": "garde",
            "declarer": "Ana",
            "points": 50,
        },
        ["oudlers"],
        2,
        2.5,
        "oudlers",
    ),
    "contra": ({**THREE, "contra": {"game": 0}}, ["contra", "game"], 1, 1.5, "contra.game"),
    "points_by_player": (KLOP, ["points_by_player", "Ana"], 10, 10.5, "points_by_player.Ana"),
    "tricks_by_player": (KLOP, ["tricks_by_player", "Ana"], 2, 2.5, "tricks_by_player.Ana"),
    "radelci": (
        {**THREE, "rules": {"preset": "tarzs"}, "radelci": {"Ana": 0}},
        ["radelci", "Ana"],
        1,
        1.5,
        "radelci.Ana",
    ),
    "adjustments": (
        slovenian(contract="adjustment", adjustments=[{"player": "Ana", "amount": 0}]),
        ["adjustments", 0, "amount"],
        2,
        2.005,
        "adjustments[0].amount",
    ),
}


def put(data, where, value):
    data = copy.deepcopy(data)
    inner = data
    for key in where[:-1]:
        inner = inner[key]
    inner[where[-1]] = value
    return data


def paths(data) -> set[str]:
    with pytest.raises(RulesError) as caught:
        score_hand(data)
    return {problem.path for problem in caught.value.problems}


def test_every_field_with_a_range_is_tried():
    ranged = {name for name, field in FIELDS.items() if (field.low, field.high) != (None, None)}
    assert ranged == set(RANGED)


@pytest.mark.parametrize("name", sorted(RANGED))
def test_a_whole_number_is_the_same_written_with_a_point(name):
    data, where, whole, _fraction, _path = RANGED[name]
    as_int = score_hand(put(data, where, whole))
    as_float = score_hand(put(data, where, float(whole)))
    assert as_float.amounts == as_int.amounts
    assert [line.text for line in as_float.lines] == [line.text for line in as_int.lines]


@pytest.mark.parametrize("name", sorted(RANGED))
def test_a_fraction_is_refused_at_its_path(name):
    data, where, _whole, fraction, path = RANGED[name]
    assert path in paths(put(data, where, fraction))


def test_a_bonus_contra_written_with_a_point_is_the_same():
    bonus = {"name": "trula", "announced": True}
    as_int = score_hand({**THREE, "bonuses": [{**bonus, "contra": 1}]})
    as_float = score_hand({**THREE, "bonuses": [{**bonus, "contra": 1.0}]})
    assert as_float.amounts == as_int.amounts == {"Ana": 55, "Bor": 0, "Cene": 0, "Dani": 0}
    assert "bonuses[0].contra" in paths({**THREE, "bonuses": [{**bonus, "contra": 1.5}]})


def test_the_games_contra_written_with_a_point_doubles_it():
    # three 10 + difference 5 = 15, doubled by one contra: 30 (RULES.md §1).
    assert score_hand({**THREE, "contra": {"game": 1.0}}).amounts["Ana"] == 30


def test_klop_a_player_with_points_took_a_trick():
    data = put(KLOP, ["tricks_by_player", "Ana"], 0)
    with pytest.raises(RulesError) as caught:
        score_hand(data)
    assert [(p.path, p.code) for p in caught.value.problems] == [
        ("points_by_player.Ana", "no-trick-points")
    ]


def test_klop_no_points_and_no_trick_is_fine():
    data = put(put(KLOP, ["points_by_player", "Ana"], 0), ["points_by_player", "Bor"], 30)
    data = put(data, ["tricks_by_player", "Ana"], 0)
    assert score_hand(data).amounts == {"Ana": 10, "Bor": -30, "Cene": -20, "Dani": -20}


@pytest.mark.parametrize(
    "data",
    [
        {**THREE, "radelci": {"Ana": 1}},  # seed: no radelci
        slovenian(contract="redeal", radelci={"Ana": 1}),
        slovenian(
            contract="adjustment",
            adjustments=[{"player": "Ana", "amount": 5}],
            radelci={"Ana": 1},
        ),
        {
            "variant": "czech",
            "players": FOUR,
            "contract": "solo",
            "declarer": "Ana",
            "points": 40,
            "radelci": {"Ana": 1},
        },
    ],
    ids=["a-deal", "a-redeal", "an-adjustment", "a-family-without-radelci"],
)
def test_radelci_where_the_rules_keep_none_are_refused_saying_so(data):
    with pytest.raises(RulesError) as caught:
        score_hand(data)
    problems = [(p.path, p.code) for p in caught.value.problems]
    assert problems == [("radelci", "radelci-off")]
    assert caught.value.problems[0].text("en") == "these rules play without radelci"


def test_radelci_on_a_redeal_of_rules_that_keep_them_are_fine():
    data = slovenian(contract="redeal", radelci={"Ana": 1}, rules={"preset": "tarzs"})
    assert score_hand(data).amounts == {"Ana": 0, "Bor": 0, "Cene": 0, "Dani": 0}


@pytest.mark.parametrize(
    "extra",
    [{"contra": {}}, {"bonuses": []}, {"bonuses": [{"name": "trula", "contra": 0}]}],
    ids=["an-empty-contra", "no-bonuses", "a-bonus-contra-0"],
)
def test_nothing_written_is_nothing(extra):
    # three 10 + difference 5; a silent trula adds 10 (RULES.md §1).
    expected = 25 if extra.get("bonuses") else 15
    assert score_hand({**THREE, **extra}).amounts["Ana"] == expected


def test_an_adjustment_without_a_reason():
    data = slovenian(contract="adjustment", adjustments=[{"player": "Bor", "amount": -5}])
    assert score_hand(data).amounts == {"Ana": 0, "Bor": -5, "Cene": 0, "Dani": 0}
