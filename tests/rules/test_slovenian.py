"""Slovenian tarok (RULES.md §1): the worked examples, a golden table, validation and sheets.

Every expected number is worked out by hand from RULES.md and written out here.
"""

import json

import pytest

from rules import RulesError, Running, evaluate, score_hand, score_sheet
from rules.problems import Problems
from rules.reader import read_hand
from rules.scoring import read_sheet

FOUR = ["Ana", "Bor", "Cene", "Dani"]
THREE = ["Ana", "Bor", "Cene"]


def hand(variant="slovenian-4", preset=None, players=None, **fields):
    seated = players or (THREE if variant == "slovenian-3" else FOUR)
    declared = fields.get("contract") not in ("klop", "game", "redeal", "adjustment")
    data = {"variant": variant, "players": seated, **({"declarer": "Ana"} if declared else {}),
            **fields}
    if preset is not None:
        data["rules"] = preset if isinstance(preset, dict) else {"preset": preset}
    return data


def amounts(data):
    return {p: v for p, v in score_hand(data).amounts.items() if v}


def problems(data):
    with pytest.raises(RulesError) as caught:
        score_hand(data)
    return {(p.path, p.code) for p in caught.value.problems}


def trula(**kw):
    return {"name": "trula", **kw}


# -- RULES.md §1 and §9, written out ------------------------------------------------------------

def test_seed_example_two_39_points_trula_announced():
    data = hand("slovenian-3", contract="two", points=39, bonuses=[trula(announced=True)])
    assert score_hand(data).amounts == {"Ana": 44, "Bor": 0, "Cene": 0}


def test_seed_example_with_a_contra_on_the_whole_game():
    data = hand("slovenian-3", contract="two", points=39, contra={"game": 1},
                bonuses=[trula(announced=True)])
    assert score_hand(data).amounts == {"Ana": 88, "Bor": 0, "Cene": 0}


def test_solo_one_44_points_silent_kings_game_contra():
    data = hand(contract="solo-one", points=44, contra={"game": 1}, bonuses=[{"name": "kings"}])
    assert score_hand(data).amounts == {"Ana": 118, "Bor": 0, "Cene": 0, "Dani": 0}


PAGAT_WITH_CONTRA = dict(contract="two", partner="Cene", points=38, bonuses=[
    {"name": "pagat-ultimo", "announced": True, "contra": 1}])


def test_tarzs_two_38_points_pagat_ultimo_announced_with_its_contra():
    result = score_hand(hand(preset="tarzs", **PAGAT_WITH_CONTRA))
    assert result.amounts == {"Ana": 125, "Bor": 0, "Cene": 125, "Dani": 0}
    assert [line.text for line in result.lines] == [
        "two 20 + difference 5", "pagat ultimo announced 50, contra ×2"]


def test_tarzs_same_hand_doubled_by_the_declarers_radelc():
    result = score_hand(hand(preset="tarzs", radelci={"Ana": 1}, **PAGAT_WITH_CONTRA))
    assert result.amounts == {"Ana": 250, "Bor": 0, "Cene": 250, "Dani": 0}
    assert result.radelci == {"Ana": 0, "Bor": 0, "Cene": 0, "Dani": 0}  # won: crossed out


def test_valat_announced_and_failed_adds_minus_500():
    data = hand(contract="two", partner="Cene", points=60,
                bonuses=[{"name": "valat", "announced": True, "made": False}])
    assert score_hand(data).amounts == {"Ana": -455, "Bor": 0, "Cene": -455, "Dani": 0}


def test_two_players_announcer_with_34_points():
    data = hand("slovenian-2", players=["Ana", "Bor"], contract="game", announcer="Ana",
                points_by_player={"Ana": 34, "Bor": 36})
    assert score_hand(data).amounts == {"Ana": -3, "Bor": 3}


def test_hands_md_example_result():
    data = {
        "format": 1, "variant": "slovenian-4", "rules": {"preset": "seed"},
        "players": FOUR, "dealer": "Dani", "contract": "two", "declarer": "Ana",
        "partner": "Cene", "points": 39, "contra": {"game": 1},
        "bonuses": [{"name": "trula", "side": "declarer", "announced": True, "made": True}],
    }
    assert score_hand(data).to_json() == {
        "amounts": {"Ana": 88, "Bor": 0, "Cene": 88, "Dani": 0},
        "lines": [
            {"item": "game", "text": "two 20 + difference 4, contra ×2",
             "amounts": {"Ana": 48, "Cene": 48}},
            {"item": "trula", "text": "trula announced 20, contra ×2",
             "amounts": {"Ana": 40, "Cene": 40}},
        ],
    }


# -- the golden table ---------------------------------------------------------------------------

PU = "pagat-ultimo"
BOR = dict(partner="Bor")
GOLDEN = [
    # seed preset: contracts
    ("three won by one point", None, dict(contract="three", points=36, **BOR), {"Ana": 11, "Bor": 11}),
    ("exactly 35 loses", None, dict(contract="three", points=35, **BOR), {"Ana": -10, "Bor": -10}),
    ("two alone, called own king", None, dict(contract="two", points=50), {"Ana": 35}),
    ("one lost", None, dict(contract="one", partner="Dani", points=30), {"Ana": -35, "Dani": -35}),
    ("solo three", None, dict(contract="solo-three", points=40), {"Ana": 25}),
    ("solo two lost", None, dict(contract="solo-two", points=20), {"Ana": -45}),
    ("solo one, all points", None, dict(contract="solo-one", points=70), {"Ana": 75}),
    ("solo without: value + difference", None, dict(contract="solo-without", points=36), {"Ana": 51}),
    ("piccolo made", None, dict(contract="piccolo", made=True), {"Ana": 60}),
    ("piccolo failed", None, dict(contract="piccolo", made=False), {"Ana": -60}),
    ("beggar made, contra", None, dict(contract="beggar", made=True, contra={"game": 1}), {"Ana": 140}),
    ("open beggar failed, re", None, dict(contract="open-beggar", made=False, contra={"game": 2}), {"Ana": -320}),
    ("beggar made, sub", None, dict(contract="beggar", made=True, contra={"game": 3}), {"Ana": 560}),
    # seed preset: bonuses in each state
    ("trula silent made", None, dict(contract="three", points=40, bonuses=[trula()], **BOR), {"Ana": 25, "Bor": 25}),
    ("trula silent made by defenders", None, dict(contract="three", points=40, bonuses=[trula(side="defenders")], **BOR), {"Ana": 5, "Bor": 5}),
    ("kings announced made", None, dict(contract="two", partner="Cene", points=45, bonuses=[{"name": "kings", "announced": True}]), {"Ana": 50, "Cene": 50}),
    ("kings announced failed", None, dict(contract="two", partner="Cene", points=45, bonuses=[{"name": "kings", "announced": True, "made": False}]), {"Ana": 10, "Cene": 10}),
    ("pagat lost by declarer's side", None, dict(contract="one", points=38, bonuses=[{"name": PU, "made": False}], **BOR), {"Ana": 8, "Bor": 8}),
    ("pagat lost by defenders", None, dict(contract="one", points=38, bonuses=[{"name": PU, "made": False, "side": "defenders"}], **BOR), {"Ana": 58, "Bor": 58}),
    ("pagat silent made by defenders", None, dict(contract="one", points=38, bonuses=[{"name": PU, "side": "defenders"}], **BOR), {"Ana": 8, "Bor": 8}),
    ("pagat announced made", None, dict(contract="one", points=38, bonuses=[{"name": PU, "announced": True}], **BOR), {"Ana": 83, "Bor": 83}),
    ("pagat announced failed", None, dict(contract="one", points=38, bonuses=[{"name": PU, "announced": True, "made": False}], **BOR), {"Ana": -17, "Bor": -17}),
    ("silent trula and pagat: one trulapagat 50", None, dict(contract="three", points=40, bonuses=[trula(), {"name": PU}], **BOR), {"Ana": 65, "Bor": 65}),
    ("trula and pagat of different sides stay apart", None, dict(contract="three", points=40, bonuses=[trula(), {"name": PU, "side": "defenders"}], **BOR), {}),
    ("trulapagat announced made", None, dict(contract="three", points=40, bonuses=[{"name": "trulapagat", "announced": True}], **BOR), {"Ana": 85, "Bor": 85}),
    ("trulapagat announced failed", None, dict(contract="three", points=40, bonuses=[{"name": "trulapagat", "announced": True, "made": False}], **BOR), {"Ana": -55, "Bor": -55}),
    ("valat silent made replaces everything", None, dict(contract="three", points=70, bonuses=[trula(), {"name": "valat"}], **BOR), {"Ana": 250, "Bor": 250}),
    ("valat announced made takes the game contra", None, dict(contract="three", points=70, contra={"game": 1}, bonuses=[{"name": "valat", "announced": True}], **BOR), {"Ana": 1000, "Bor": 1000}),
    ("valat's own contra wins over the game's", None, dict(contract="three", points=70, contra={"game": 1}, bonuses=[{"name": "valat", "announced": True, "contra": 2}], **BOR), {"Ana": 2000, "Bor": 2000}),
    ("valat silent made by defenders", None, dict(contract="three", points=0, bonuses=[{"name": "valat", "side": "defenders"}], **BOR), {"Ana": -250, "Bor": -250}),
    # seed preset: contra scope "hand"
    ("re on the game multiplies a silent bonus", None, dict(contract="two", partner="Cene", points=40, contra={"game": 2}, bonuses=[{"name": "kings"}]), {"Ana": 140, "Cene": 140}),
    ("a bonus's own contra wins over the game's", None, dict(contract="three", points=40, contra={"game": 1}, bonuses=[trula(announced=True, contra=2)], **BOR), {"Ana": 110, "Bor": 110}),
    # seed klop
    ("klop: minus own points, +10 without a trick", None, dict(contract="klop", points_by_player={"Ana": 0, "Bor": 20, "Cene": 30, "Dani": 20}), {"Ana": 10, "Bor": -20, "Cene": -30, "Dani": -20}),
    ("klop: tricks decide who took none", None, dict(contract="klop", points_by_player={"Ana": 0, "Bor": 35, "Cene": 35, "Dani": 0}, tricks_by_player={"Ana": 1, "Bor": 4, "Cene": 7, "Dani": 0}), {"Bor": -35, "Cene": -35, "Dani": 10}),
    # tarzs preset
    ("tarzs difference 2 rounds to 0", "tarzs", dict(contract="three", points=37, **BOR), {"Ana": 10, "Bor": 10}),
    ("tarzs solo three, difference 8 rounds to 10", "tarzs", dict(contract="solo-three", points=43), {"Ana": 50}),
    ("tarzs solo without is a fixed 80", "tarzs", dict(contract="solo-without", points=50), {"Ana": 80}),
    ("tarzs solo without lost", "tarzs", dict(contract="solo-without", points=30), {"Ana": -80}),
    ("tarzs colour valat made", "tarzs", dict(contract="colour-valat", made=True), {"Ana": 125}),
    ("tarzs valat contract failed, mort", "tarzs", dict(contract="valat", made=False, contra={"game": 4}), {"Ana": -8000}),
    ("tarzs game contra does not reach a silent bonus", "tarzs", dict(contract="two", partner="Cene", points=40, contra={"game": 1}, bonuses=[trula()]), {"Ana": 60, "Cene": 60}),
    ("tarzs king ultimo silent made", "tarzs", dict(contract="three", points=40, bonuses=[{"name": "king-ultimo"}], **BOR), {"Ana": 25, "Bor": 25}),
    ("tarzs king ultimo silent lost", "tarzs", dict(contract="three", points=40, bonuses=[{"name": "king-ultimo", "made": False}], **BOR), {"Ana": 5, "Bor": 5}),
    ("tarzs king ultimo announced failed", "tarzs", dict(contract="three", points=40, bonuses=[{"name": "king-ultimo", "announced": True, "made": False}], **BOR), {"Ana": -5, "Bor": -5}),
    ("tarzs defenders announce trula and make it", "tarzs", dict(contract="three", points=40, bonuses=[trula(side="defenders", announced=True)], **BOR), {"Ana": -5, "Bor": -5}),
    ("tarzs defenders' announced pagat fails", "tarzs", dict(contract="three", points=40, bonuses=[{"name": PU, "side": "defenders", "announced": True, "made": False}], **BOR), {"Ana": 65, "Bor": 65}),
    ("tarzs no trulapagat: silent parts apart", "tarzs", dict(contract="three", points=40, bonuses=[trula(), {"name": PU}], **BOR), {"Ana": 50, "Bor": 50}),
    ("tarzs mondfang: the mond's player pays 21", "tarzs", dict(contract="three", points=40, bonuses=[{"name": "mondfang", "player": "Dani"}], **BOR), {"Ana": 15, "Bor": 15, "Dani": -21}),
    ("tarzs mondfang is not doubled by a radelc", "tarzs", dict(contract="three", points=40, radelci={"Ana": 1}, bonuses=[{"name": "mondfang", "player": "Ana"}], **BOR), {"Ana": 9, "Bor": 30}),
    ("tarzs klop: a full player pays 70", "tarzs", dict(contract="klop", points_by_player={"Ana": 40, "Bor": 10, "Cene": 10, "Dani": 10}), {"Ana": -70}),
    ("tarzs klop: an empty player gets 70", "tarzs", dict(contract="klop", points_by_player={"Ana": 0, "Bor": 30, "Cene": 20, "Dani": 20}), {"Ana": 70}),
    ("tarzs klop: minus own points rounded to 5", "tarzs", dict(contract="klop", points_by_player={"Ana": 12, "Bor": 13, "Cene": 22, "Dani": 23}), {"Ana": -10, "Bor": -15, "Cene": -20, "Dani": -25}),
    ("tarzs klop is never doubled", "tarzs", dict(contract="klop", radelci={"Ana": 2, "Bor": 1}, points_by_player={"Ana": 12, "Bor": 13, "Cene": 22, "Dani": 23}), {"Ana": -10, "Bor": -15, "Cene": -20, "Dani": -25}),
    ("tarzs a doubled loss", "tarzs", dict(contract="two", partner="Cene", points=30, radelci={"Ana": 3}), {"Ana": -50, "Cene": -50}),
    # switches set on their own
    ("seed with round_difference 5", {"round_difference": 5}, dict(contract="three", points=38, **BOR), {"Ana": 15, "Bor": 15}),
    ("seed with contra_scope item", {"contra_scope": "item"}, dict(contract="two", partner="Cene", points=40, contra={"game": 1}, bonuses=[trula()]), {"Ana": 60, "Cene": 60}),
    ("seed with max_contra 4: mort", {"max_contra": 4}, dict(contract="beggar", made=True, contra={"game": 4}), {"Ana": 1120}),
    ("seed with its own value for three", {"values": {"three": 15}}, dict(contract="three", points=36, **BOR), {"Ana": 16, "Bor": 16}),
    ("seed with its own trula values", {"bonus_values": {"trula": [15, 30]}}, dict(contract="three", points=40, bonuses=[trula()], **BOR), {"Ana": 30, "Bor": 30}),
    ("seed with mondfang 30", {"mondfang": 30}, dict(contract="three", points=40, bonuses=[{"name": "mondfang", "player": "Cene"}], **BOR), {"Ana": 15, "Bor": 15, "Cene": -30}),
    ("seed with tarzs klop, difference rounding 1", {"klop_scoring": "tarzs"}, dict(contract="klop", points_by_player={"Ana": 12, "Bor": 13, "Cene": 22, "Dani": 23}), {"Ana": -12, "Bor": -13, "Cene": -22, "Dani": -23}),
    ("seed with defenders announcing", {"defenders_announce": True}, dict(contract="three", points=40, bonuses=[{"name": "kings", "side": "defenders", "announced": True}], **BOR), {"Ana": -5, "Bor": -5}),
    ("seed with radelci: beggar doubled", {"radelci": True}, dict(contract="beggar", made=True, radelci={"Ana": 1}), {"Ana": 140}),
    ("tarzs with piccolo added back", {"preset": "tarzs", "values": {"piccolo": 60}}, dict(contract="piccolo", made=True), {"Ana": 60}),
    # rows every variant has
    ("an adjustment beside the hand, never multiplied", None, dict(contract="three", points=40, contra={"game": 1}, adjustments=[{"player": "Dani", "amount": -20, "reason": "revoke"}], **BOR), {"Ana": 30, "Bor": 30, "Dani": -20}),
    ("a redeal scores nothing", None, dict(contract="redeal", dealer="Bor"), {}),
    ("an adjustment row", None, dict(contract="adjustment", adjustments=[{"player": "Cene", "amount": 10, "reason": "misdeal"}]), {"Cene": 10}),
]


@pytest.mark.parametrize("name, preset, fields, expected", GOLDEN, ids=[g[0] for g in GOLDEN])
def test_golden(name, preset, fields, expected):
    assert amounts(hand(preset=preset, **fields)) == expected


def test_golden_table_is_large_enough():
    assert len(GOLDEN) >= 40


@pytest.mark.parametrize("players, announcer, expected", [
    ({"Ana": 36, "Bor": 34}, None, {"Ana": 1, "Bor": -1}),
    ({"Ana": 30, "Bor": 40}, None, {"Ana": -5, "Bor": 5}),
    ({"Ana": 35, "Bor": 35}, None, {"Ana": 0, "Bor": 0}),
    ({"Ana": 36, "Bor": 34}, "Ana", {"Ana": 2, "Bor": -2}),
    ({"Ana": 40, "Bor": 30}, "Ana", {"Ana": 10, "Bor": -10}),
    ({"Ana": 35, "Bor": 35}, "Ana", {"Ana": -3, "Bor": 3}),
    ({"Ana": 30, "Bor": 40}, "Ana", {"Ana": -15, "Bor": 15}),
    ({"Ana": 40, "Bor": 30}, "Bor", {"Ana": 15, "Bor": -15}),
])
def test_two_players(players, announcer, expected):
    data = hand("slovenian-2", players=["Ana", "Bor"], contract="game",
                points_by_player=players, announcer=announcer)
    assert score_hand(data).amounts == expected


# -- validation ---------------------------------------------------------------------------------

@pytest.mark.parametrize("data, expected", [
    (hand(contract="klop", points_by_player=dict.fromkeys(FOUR, 10), declarer="Ana"),
     ("declarer", "unused-field")),
    (hand("slovenian-3", contract="two", points=40, partner="Bor"), ("partner", "unused-field")),
    (hand(contract="three"), ("points", "missing")),
    (hand(contract="three", points=71), ("points", "out-of-range")),
    (hand(contract="three", points=40, partner="Ana"), ("partner", "partner-is-declarer")),
    (hand(contract="three", points=40, partner="Eva"), ("partner", "unknown-player")),
    (hand(contract="piccolo", made=True, bonuses=[trula()]), ("bonuses[0].name", "no-bonuses")),
    (hand(preset="tarzs", contract="solo-one", points=40, bonuses=[{"name": "king-ultimo"}]),
     ("bonuses[0].name", "bonus-not-allowed")),
    (hand(contract="three", points=40, bonuses=[{"name": "king-ultimo"}]),
     ("bonuses[0].name", "bonus-not-allowed")),
    (hand("slovenian-3", preset="tarzs", contract="three", points=40,
          bonuses=[{"name": "king-ultimo"}]), ("bonuses[0].name", "bonus-not-allowed")),
    (hand(contract="klop", contra={"game": 1}, points_by_player=dict.fromkeys(FOUR, 10)),
     ("contra", "unused-field")),
    (hand(contract="three", points=40, contra={"game": 4}), ("contra.game", "contra-too-high")),
    (hand(contract="three", points=40, bonuses=[trula(contra=1)]),
     ("bonuses[0].contra", "contra-unannounced")),
    (hand(contract="three", points=40, bonuses=[trula(side="defenders", announced=True)]),
     ("bonuses[0].side", "defenders-cannot-announce")),
    (hand(contract="three", points=40, bonuses=[trula(made=False)]),
     ("bonuses[0].made", "silent-not-made")),
    (hand(contract="three", points=40, bonuses=[trula(), trula()]),
     ("bonuses[1].name", "duplicate-bonus")),
    (hand(contract="three", points=40, radelci={"Ana": 1}), ("radelci", "radelci-off")),
    (hand(contract="klop", points_by_player=dict.fromkeys(FOUR, 20)),
     ("points_by_player", "points-total")),
    (hand(contract="klop", points_by_player={"Ana": 10}), ("points_by_player", "not-every-player")),
    (hand(contract="three", points=40, bonuses=[{"name": "mondfang", "player": "Bor"}]),
     ("bonuses[0].name", "bonus-not-allowed")),
    (hand(preset="tarzs", contract="three", points=40, bonuses=[{"name": "mondfang"}]),
     ("bonuses[0].player", "player-required")),
    (hand(contract="three", points=40, bonuses=[{"name": "trulapagat"}, trula()]),
     ("bonuses[1].name", "trulapagat-and-part")),
    (hand(contract="three", points="40"), ("points", "not-a-number")),
    (hand(contract="three", points=True), ("points", "not-a-number")),
    (hand(contract="three", points=40, colour="red"), ("colour", "unknown-key")),
    (hand(contract="two-and-a-half", points=40), ("contract", "unknown-contract")),
    (hand(players=["Ana", "Bor", "Cene"], contract="three", points=40), ("players", "player-count")),
    (hand(players=["Ana", "Ana", "Bor", "Cene"], contract="three", points=40),
     ("players[1]", "duplicate-player")),
    (hand(preset="fancy", contract="three", points=40), ("rules.preset", "unknown-preset")),
    (hand(preset={"klop_scoring": "fancy"}, contract="three", points=40),
     ("rules.klop_scoring", "bad-switch-value")),
    (hand(preset={"radelc_penalty": 40}, contract="three", points=40),
     ("rules.radelc_penalty", "at-most")),
    (hand(preset={"speed": 2}, contract="three", points=40), ("rules.speed", "unknown-switch")),
    (hand(preset={"values": {"three": -1}}, contract="three", points=40),
     ("rules.values.three", "at-least")),
    (hand(contract="adjustment", adjustments=[{"player": "Ana", "amount": 1.234}]),
     ("adjustments[0].amount", "not-hundredths")),
])
def test_a_wrong_hand_names_its_field(data, expected):
    assert expected in problems(data)


def test_every_problem_is_reported_at_once():
    data = hand(contract="three", points=99, partner="Ana", colour="red",
                bonuses=[trula(contra=1), {"name": "nonsense"}])
    assert problems(data) == {
        ("points", "out-of-range"), ("partner", "partner-is-declarer"),
        ("colour", "unknown-key"), ("bonuses[0].contra", "contra-unannounced"),
        ("bonuses[1].name", "unknown-bonus"),
    }


def test_messages_are_words_a_player_understands():
    with pytest.raises(RulesError) as caught:
        score_hand(hand(contract="three", points=71))
    assert str(caught.value) == "points: must be between 0 and 70"


# -- sheets -------------------------------------------------------------------------------------

def sheet(hands, preset="tarzs", players=FOUR, **rules):
    return {"format": 1, "variant": "slovenian-4", "rules": {"preset": preset, **rules},
            "players": players, "hands": hands}


RADELC_SHEET = [
    {"contract": "beggar", "declarer": "Ana", "made": True},
    {"contract": "three", "declarer": "Bor", "partner": "Cene", "points": 40},
    {"contract": "two", "declarer": "Cene", "partner": "Dani", "points": 30},
    {"contract": "klop", "points_by_player": {"Ana": 0, "Bor": 30, "Cene": 20, "Dani": 20}},
    {"contract": "beggar", "declarer": "Ana", "made": True},
]


def test_radelci_across_a_sheet():
    result = score_sheet(sheet(RADELC_SHEET))
    rows = [(row.result.amounts, row.result.radelci) for row in result.rows]
    assert rows == [
        # beggar: everybody receives a radelc afterwards
        ({"Ana": 70, "Bor": 0, "Cene": 0, "Dani": 0}, {"Ana": 1, "Bor": 1, "Cene": 1, "Dani": 1}),
        # Bor holds one: doubled, and his win crosses it out
        ({"Ana": 0, "Bor": 30, "Cene": 30, "Dani": 0}, {"Ana": 1, "Bor": 0, "Cene": 1, "Dani": 1}),
        # Cene holds one: a doubled loss, and it stays
        ({"Ana": 0, "Bor": 0, "Cene": -50, "Dani": -50}, {"Ana": 1, "Bor": 0, "Cene": 1, "Dani": 1}),
        # klop awards radelci but is never doubled
        ({"Ana": 70, "Bor": 0, "Cene": 0, "Dani": 0}, {"Ana": 2, "Bor": 1, "Cene": 2, "Dani": 2}),
        # two radelci double once; one is crossed out, then the beggar awards one to all
        ({"Ana": 140, "Bor": 0, "Cene": 0, "Dani": 0}, {"Ana": 2, "Bor": 2, "Cene": 3, "Dani": 3}),
    ]
    assert result.rows[-1].totals == {"Ana": 280, "Bor": 30, "Cene": -20, "Dani": -50}
    assert result.totals == {"Ana": 280, "Bor": 30, "Cene": -20, "Dani": -50}
    assert result.settlement.nets == {"Ana": 880, "Bor": -120, "Cene": -320, "Dani": -440}


def test_a_sheet_continues_from_where_it_stood():
    """An app stores the running state with each hand and scores a new hand alone from it:
    the rows must be the ones the whole sheet gives (radelci, dealer, totals)."""
    data = sheet(RADELC_SHEET, radelc_penalty=-40)
    first = score_sheet({**data, "hands": data["hands"][:2]}, closed=False)
    stored = json.loads(json.dumps(first.running.to_json()))
    assert stored == {
        "totals": {"Ana": 70, "Bor": 30, "Cene": 30, "Dani": 0},
        "carry": {"Ana": 1, "Bor": 0, "Cene": 1, "Dani": 1},
        "dealer_seat": 2,
        "played": 2,
    }
    table = read_sheet(data, Problems())
    rest = [read_hand(hand, Problems(), "", table)[2] for hand in data["hands"][2:]]
    result = evaluate(table.variant, table.rules, table.players, rest, True,
                      Running.from_json(stored))
    assert [(row.number, row.dealer, row.result.amounts["Ana"], row.totals["Ana"])
            for row in result.rows] == [(3, "Cene", 0, 70), (4, "Dani", 70, 140),
                                        (5, "Ana", 140, 280)]
    assert result.totals == {"Ana": 200, "Bor": -50, "Cene": -140, "Dani": -170}
    assert result.running.carry == {"Ana": 2, "Bor": 2, "Cene": 3, "Dani": 3}


def test_unused_radelci_penalty_when_the_session_closes():
    result = score_sheet(sheet(RADELC_SHEET, radelc_penalty=-40))
    assert result.totals == {"Ana": 200, "Bor": -50, "Cene": -140, "Dani": -170}
    assert result.settlement.to_json() == {
        "nets": {"Ana": 960, "Bor": -40, "Cene": -400, "Dani": -520},
        "transfers": [
            {"from": "Dani", "to": "Ana", "amount": 520},
            {"from": "Cene", "to": "Ana", "amount": 400},
            {"from": "Bor", "to": "Ana", "amount": 40},
        ],
    }


def test_an_open_session_has_no_penalty_yet():
    result = score_sheet(sheet(RADELC_SHEET, radelc_penalty=-40), closed=False)
    assert result.totals == {"Ana": 280, "Bor": 30, "Cene": -20, "Dani": -50}


THREE_SHEET = [
    {"contract": "two", "declarer": "Ana", "points": 39,
     "bonuses": [{"name": "trula", "announced": True}]},
    {"contract": "three", "declarer": "Bor", "points": 36},
]


def test_pairwise_settlement_of_a_sheet_that_is_not_zero_sum():
    data = {"variant": "slovenian-3", "players": THREE, "hands": THREE_SHEET}
    result = score_sheet(data)
    assert result.totals == {"Ana": 44, "Bor": 11, "Cene": 0}
    assert result.settlement.to_json() == {
        "nets": {"Ana": 77, "Bor": -22, "Cene": -55},
        "transfers": [{"from": "Cene", "to": "Ana", "amount": 55},
                      {"from": "Bor", "to": "Ana", "amount": 22}],
    }


def test_average_settlement_rounds_to_the_hundredth_and_sums_to_zero():
    from decimal import Decimal

    data = {"variant": "slovenian-3", "players": THREE, "hands": THREE_SHEET,
            "rules": {"settlement": "average"}}
    settlement = score_sheet(data).settlement
    # mean 55/3: 25.666… → 25.67, −7.333… → −7.33, −18.333… → −18.33; the one hundredth
    # too many is taken back in seat order, from Ana.
    assert settlement.nets == {"Ana": Decimal("25.66"), "Bor": Decimal("-7.33"),
                               "Cene": Decimal("-18.33")}
    assert [(t.payer, t.payee, t.amount) for t in settlement.transfers] == [
        ("Cene", "Ana", Decimal("18.33")), ("Bor", "Ana", Decimal("7.33"))]


def test_a_fifth_player_sits_out_and_gets_no_entry():
    players = FOUR + ["Eva"]
    hands = [
        {"players": FOUR, "contract": "three", "declarer": "Ana", "partner": "Bor", "points": 40},
        {"players": ["Bor", "Cene", "Dani", "Eva"], "contract": "two", "declarer": "Eva",
         "partner": "Cene", "points": 45},
    ]
    result = score_sheet(sheet(hands, preset="seed", players=players))
    assert result.rows[0].result.amounts == {"Ana": 15, "Bor": 15, "Cene": 0, "Dani": 0}
    assert result.totals == {"Ana": 15, "Bor": 15, "Cene": 30, "Dani": 0, "Eva": 30}


def test_the_dealer_moves_on_but_deals_again_after_a_redeal():
    hands = [
        {"contract": "three", "declarer": "Ana", "partner": "Bor", "points": 40},
        {"contract": "redeal"},
        {"contract": "three", "declarer": "Cene", "partner": "Bor", "points": 40},
        {"contract": "three", "declarer": "Ana", "partner": "Bor", "points": 40, "dealer": "Ana"},
        {"contract": "redeal"},
    ]
    result = score_sheet(sheet(hands, preset="seed"))
    assert [row.dealer for row in result.rows] == ["Ana", "Bor", "Bor", "Ana", "Bor"]


def test_a_sheet_reports_problems_by_hand_number():
    hands = [
        {"contract": "three", "declarer": "Ana", "partner": "Bor", "points": 40},
        {"contract": "three", "declarer": "Ana", "points": 80, "rules": {"preset": "seed"}},
        {"contract": "three", "declarer": "Zoe", "points": 40},
        {"contract": "klop", "radelci": {"Ana": 1},
         "points_by_player": dict.fromkeys(FOUR, 10)},
        {"contract": "three", "declarer": "Ana", "points": 40, "players": ["Ana", "Bor"]},
    ]
    with pytest.raises(RulesError) as caught:
        score_sheet(sheet(hands))
    assert {(p.path, p.code) for p in caught.value.problems} == {
        ("hands[1].points", "out-of-range"), ("hands[1].rules", "own-rules-in-sheet"),
        ("hands[2].declarer", "unknown-player"), ("hands[3].radelci", "radelci-in-sheet"),
        ("hands[4].players", "player-count"),
    }


def test_sheet_json_has_rows_totals_and_settlement():
    data = {"variant": "slovenian-3", "players": THREE, "hands": THREE_SHEET}
    out = score_sheet(data).to_json()
    assert [row["totals"] for row in out["hands"]] == [
        {"Ana": 44, "Bor": 0, "Cene": 0}, {"Ana": 44, "Bor": 11, "Cene": 0}]
    assert out["totals"] == {"Ana": 44, "Bor": 11, "Cene": 0}
    assert out["settlement"]["nets"] == {"Ana": 77, "Bor": -22, "Cene": -55}
