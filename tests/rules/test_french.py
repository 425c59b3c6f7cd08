"""French tarot (RULES.md §4, FFT 2012): the worked examples, a golden table, validation and
sheets.

Every expected number is worked out by hand from RULES.md §4 and written out here: one unit u
per defender, signed from the taker's side; taker 3u at four, 2u at three, 2u with a partner
(partner u) or 4u alone at five; each defender −u.
"""

import json
from decimal import Decimal

import pytest

from rules import RulesError, get_variant, score_hand, score_sheet

THREE = ["Ana", "Bor", "Cene"]
FOUR = ["Ana", "Bor", "Cene", "Dani"]
FIVE = ["Ana", "Bor", "Cene", "Dani", "Eva"]
SEATS = {"french-3": THREE, "french-4": FOUR, "french-5": FIVE}


def hand(variant="french-4", **fields):
    data = {"variant": variant, "players": SEATS[variant], "declarer": "Ana", **fields}
    return data


def problems(data):
    with pytest.raises(RulesError) as caught:
        score_hand(data)
    return {(p.path, p.code) for p in caught.value.problems}


def messages(data):
    with pytest.raises(RulesError) as caught:
        score_hand(data)
    return [str(p) for p in caught.value.problems]


def poignee(player, level="simple"):
    return {"name": "poignee", "player": player, "level": level}


PETIT = {"name": "petit-au-bout"}
PETIT_DEFENCE = {"name": "petit-au-bout", "side": "defenders"}


# -- RULES.md §4 and §9, written out ------------------------------------------------------------

def test_garde_sans_one_oudler_exactly_51():
    data = hand(contract="garde-sans", oudlers=1, points=51)
    assert score_hand(data).amounts == {"Ana": 300, "Bor": -100, "Cene": -100, "Dani": -100}


def test_fft_1_garde_49_points_simple_poignee_petit_au_bout():
    data = hand(contract="garde", oudlers=2, points=49, bonuses=[poignee("Ana"), PETIT])
    assert score_hand(data).amounts == {"Ana": 318, "Bor": -106, "Cene": -106, "Dani": -106}


def test_fft_2_garde_sans_55_points_petit_au_bout_by_the_defence():
    data = hand(contract="garde-sans", oudlers=1, points=55, bonuses=[PETIT_DEFENCE])
    assert score_hand(data).amounts == {"Ana": 228, "Bor": -76, "Cene": -76, "Dani": -76}


def test_fft_3_petite_lost_poignee_goes_to_the_defence_petit_au_bout_to_the_taker():
    data = hand(contract="petite", oudlers=2, points=34, bonuses=[poignee("Ana"), PETIT])
    assert score_hand(data).amounts == {"Ana": -126, "Bor": 42, "Cene": 42, "Dani": 42}


def test_fft_4_garde_47_points_defenders_poignee_goes_to_the_taker():
    data = hand(contract="garde", oudlers=3, points=47, bonuses=[poignee("Bor")])
    assert score_hand(data).amounts == {"Ana": 276, "Bor": -92, "Cene": -92, "Dani": -92}


def test_fft_5_chelem_announced_and_made_with_87_points():
    data = hand(contract="garde", oudlers=2, points=87, bonuses=[
        {"name": "chelem", "announced": True}, poignee("Ana"), PETIT])
    assert score_hand(data).amounts == {"Ana": 1746, "Bor": -582, "Cene": -582, "Dani": -582}


def test_three_players_40_5_against_41_is_lost_by_1():
    data = hand("french-3", contract="garde", oudlers=2, points=40.5)
    assert score_hand(data).amounts == {"Ana": -104, "Bor": 52, "Cene": 52}


def test_three_players_41_5_against_41_is_made_by_1():
    data = hand("french-3", contract="garde", oudlers=2, points=41.5)
    assert score_hand(data).amounts == {"Ana": 104, "Bor": -52, "Cene": -52}


def test_five_players_garde_with_a_called_partner():
    data = hand("french-5", contract="garde", partner="Cene", oudlers=2, points=50)
    assert score_hand(data).amounts == {
        "Ana": 136, "Bor": -68, "Cene": 68, "Dani": -68, "Eva": -68}


def test_half_points_as_decimal_or_json_text():
    assert score_hand(hand("french-5", contract="garde", oudlers=2, points=Decimal("40.5"))
                      ).amounts["Ana"] == -208
    data = json.loads('{"variant": "french-3", "players": ["Ana", "Bor", "Cene"], '
                      '"contract": "garde", "declarer": "Ana", "oudlers": 2, "points": 41.5}')
    assert score_hand(data).amounts == {"Ana": 104, "Bor": -52, "Cene": -52}


def test_lines_itemise_the_hand_and_add_up():
    result = score_hand(hand(contract="garde", oudlers=2, points=49,
                             bonuses=[poignee("Ana"), PETIT]))
    lines = {line.item: line for line in result.lines}
    assert dict(lines["game"].amounts) == {"Ana": 198, "Bor": -66, "Cene": -66, "Dani": -66}
    assert lines["game"].multiplier == 2
    assert "garde" in lines["game"].text and "×2" in lines["game"].text
    assert "41" in lines["game"].text and "difference 8" in lines["game"].text
    assert dict(lines["poignee"].amounts) == {"Ana": 60, "Bor": -20, "Cene": -20, "Dani": -20}
    assert lines["poignee"].multiplier == 1
    assert "Ana" in lines["poignee"].text
    assert dict(lines["petit-au-bout"].amounts) == {
        "Ana": 60, "Bor": -20, "Cene": -20, "Dani": -20}
    assert lines["petit-au-bout"].multiplier == 2
    total = {p: sum(line.amounts.get(p, 0) for line in result.lines) for p in FOUR}
    assert total == dict(result.amounts)


def test_a_lost_contract_says_so():
    line = score_hand(hand(contract="petite", oudlers=2, points=34)).lines[0]
    assert line.text.endswith("lost")


@pytest.mark.parametrize("bonus, text", [
    ({"name": "chelem", "announced": True}, "chelem announced 400"),
    ({"name": "chelem"}, "chelem silent 200"),
    ({"name": "chelem", "announced": True, "made": False}, "chelem announced failed 200"),
    ({"name": "chelem", "side": "defenders"}, "chelem silent 200 by the defenders"),
])
def test_chelem_words(bonus, text):
    points = 10 if bonus.get("side") == "defenders" else 85
    lines = score_hand(hand(contract="garde", oudlers=2, points=points, bonuses=[bonus])).lines
    assert lines[-1].item == "chelem" and lines[-1].text == text
    assert lines[-1].multiplier == 1


def test_variants_declare_themselves():
    for players in (3, 4, 5):
        variant = get_variant(f"french-{players}")
        assert variant.family == "french"
        assert variant.player_counts == (players,)
        assert variant.card_points == 91 and variant.half_points
        assert variant.default_preset == "fft" and dict(variant.presets) == {"fft": {}}
        rules = variant.rules()
        assert set(rules.contracts) == {
            "petite", "garde", "garde-sans", "garde-contre", "redeal", "adjustment"}
        assert rules.max_contra == 0
        assert variant.settlement_method(rules) == "average"
        garde = rules.contracts["garde"]
        assert garde.required == {"declarer", "points", "oudlers"}
        assert garde.optional == ({"partner"} if players == 5 else set())
        assert garde.bonuses == {"petit-au-bout", "poignee", "chelem"}


# -- golden table --------------------------------------------------------------------------------
# (id, variant, fields, expected amounts)

CHELEM_SILENT = {"name": "chelem"}
CHELEM_ANNOUNCED = {"name": "chelem", "announced": True}
CHELEM_FAILED = {"name": "chelem", "announced": True, "made": False}
CHELEM_DEFENCE = {"name": "chelem", "side": "defenders"}

GOLDEN = [
    # the game: every contract, made and lost, the threshold of every oudler count
    ("petite-0-oudlers-exactly-56", "french-4",
     dict(contract="petite", oudlers=0, points=56),
     {"Ana": 75, "Bor": -25, "Cene": -25, "Dani": -25}),
    ("petite-0-oudlers-55-lost-by-1", "french-4",
     dict(contract="petite", oudlers=0, points=55),
     {"Ana": -78, "Bor": 26, "Cene": 26, "Dani": 26}),
    ("petite-1-oudler-60", "french-4",
     dict(contract="petite", oudlers=1, points=60),
     {"Ana": 102, "Bor": -34, "Cene": -34, "Dani": -34}),
    ("garde-1-oudler-50-lost-by-1", "french-4",
     dict(contract="garde", oudlers=1, points=50),
     {"Ana": -156, "Bor": 52, "Cene": 52, "Dani": 52}),
    ("garde-3-oudlers-exactly-36", "french-4",
     dict(contract="garde", oudlers=3, points=36),
     {"Ana": 150, "Bor": -50, "Cene": -50, "Dani": -50}),
    ("garde-3-oudlers-35-lost-by-1", "french-4",
     dict(contract="garde", oudlers=3, points=35),
     {"Ana": -156, "Bor": 52, "Cene": 52, "Dani": 52}),
    ("garde-sans-2-oudlers-45", "french-4",
     dict(contract="garde-sans", oudlers=2, points=45),
     {"Ana": 348, "Bor": -116, "Cene": -116, "Dani": -116}),
    ("garde-sans-0-oudlers-40-lost-by-16", "french-4",
     dict(contract="garde-sans", oudlers=0, points=40),
     {"Ana": -492, "Bor": 164, "Cene": 164, "Dani": 164}),
    ("garde-contre-2-oudlers-exactly-41", "french-4",
     dict(contract="garde-contre", oudlers=2, points=41),
     {"Ana": 450, "Bor": -150, "Cene": -150, "Dani": -150}),
    ("garde-contre-1-oudler-30-lost-by-21", "french-4",
     dict(contract="garde-contre", oudlers=1, points=30),
     {"Ana": -828, "Bor": 276, "Cene": 276, "Dani": 276}),
    ("garde-contre-3-oudlers-70", "french-4",
     dict(contract="garde-contre", oudlers=3, points=70),
     {"Ana": 1062, "Bor": -354, "Cene": -354, "Dani": -354}),
    ("another-seat-declares", "french-4",
     dict(contract="garde", declarer="Cene", oudlers=1, points=56, bonuses=[poignee("Ana")]),
     {"Ana": -80, "Bor": -80, "Cene": 240, "Dani": -80}),
    # petit au bout: either side, whatever the result, times the contract's multiplier
    ("petit-au-bout-taker-made", "french-4",
     dict(contract="petite", oudlers=2, points=45, bonuses=[PETIT]),
     {"Ana": 117, "Bor": -39, "Cene": -39, "Dani": -39}),
    ("petit-au-bout-defence-made", "french-4",
     dict(contract="petite", oudlers=2, points=45, bonuses=[PETIT_DEFENCE]),
     {"Ana": 57, "Bor": -19, "Cene": -19, "Dani": -19}),
    ("petit-au-bout-taker-lost-garde-contre", "french-4",
     dict(contract="garde-contre", oudlers=2, points=38, bonuses=[PETIT]),
     {"Ana": -324, "Bor": 108, "Cene": 108, "Dani": 108}),
    ("petit-au-bout-defence-lost-garde-sans", "french-4",
     dict(contract="garde-sans", oudlers=1, points=40, bonuses=[PETIT_DEFENCE]),
     {"Ana": -552, "Bor": 184, "Cene": 184, "Dani": 184}),
    # poignées: 20/30/40, never multiplied, for the side that wins
    ("poignee-double-by-taker-made", "french-4",
     dict(contract="garde", oudlers=2, points=50, bonuses=[poignee("Ana", "double")]),
     {"Ana": 294, "Bor": -98, "Cene": -98, "Dani": -98}),
    ("poignee-triple-by-defender-goes-to-taker", "french-4",
     dict(contract="garde", oudlers=2, points=50, bonuses=[poignee("Dani", "triple")]),
     {"Ana": 324, "Bor": -108, "Cene": -108, "Dani": -108}),
    ("poignee-triple-by-defender-lost", "french-4",
     dict(contract="garde", oudlers=2, points=30, bonuses=[poignee("Dani", "triple")]),
     {"Ana": -336, "Bor": 112, "Cene": 112, "Dani": 112}),
    ("two-simple-poignees", "french-4",
     dict(contract="petite", oudlers=1, points=51, bonuses=[poignee("Ana"), poignee("Bor")]),
     {"Ana": 195, "Bor": -65, "Cene": -65, "Dani": -65}),
    ("poignee-triple-by-taker-lost", "french-4",
     dict(contract="petite", oudlers=1, points=50, bonuses=[poignee("Ana", "triple")]),
     {"Ana": -198, "Bor": 66, "Cene": 66, "Dani": 66}),
    # chelem: never multiplied
    ("chelem-silent-made", "french-4",
     dict(contract="garde", oudlers=3, points=90, bonuses=[CHELEM_SILENT]),
     {"Ana": 1074, "Bor": -358, "Cene": -358, "Dani": -358}),
    ("chelem-announced-failed", "french-4",
     dict(contract="garde", oudlers=2, points=80, bonuses=[CHELEM_FAILED]),
     {"Ana": -216, "Bor": 72, "Cene": 72, "Dani": 72}),
    ("chelem-by-the-defence", "french-4",
     dict(contract="petite", oudlers=0, points=5, bonuses=[CHELEM_DEFENCE]),
     {"Ana": -828, "Bor": 276, "Cene": 276, "Dani": 276}),
    ("everything-garde-sans-91", "french-4",
     dict(contract="garde-sans", oudlers=3, points=91,
          bonuses=[CHELEM_ANNOUNCED, PETIT, poignee("Ana", "triple")]),
     {"Ana": 2400, "Bor": -800, "Cene": -800, "Dani": -800}),
    # three players: taker 2u; a half point rounds away from the threshold
    ("three-41.5-made-by-1", "french-3",
     dict(contract="garde", oudlers=2, points=41.5),
     {"Ana": 104, "Bor": -52, "Cene": -52}),
    ("three-50.5-lost-by-1", "french-3",
     dict(contract="petite", oudlers=1, points=50.5),
     {"Ana": -52, "Bor": 26, "Cene": 26}),
    ("three-60.5-made-by-5", "french-3",
     dict(contract="garde-sans", oudlers=0, points=60.5),
     {"Ana": 240, "Bor": -120, "Cene": -120}),
    ("three-poignee-simple-13-trumps", "french-3",
     dict(contract="petite", oudlers=3, points=36, bonuses=[poignee("Bor")]),
     {"Ana": 90, "Bor": -45, "Cene": -45}),
    ("three-30.5-lost-by-11-petit-defence", "french-3",
     dict(contract="garde", oudlers=2, points=30.5, bonuses=[PETIT_DEFENCE]),
     {"Ana": -184, "Bor": 92, "Cene": 92}),
    ("three-chelem-announced-made", "french-3",
     dict(contract="petite", oudlers=3, points=91, bonuses=[CHELEM_ANNOUNCED]),
     {"Ana": 960, "Bor": -480, "Cene": -480}),
    # five players with a called partner: taker 2u, partner u, three defenders −u
    ("five-partner-petite-exactly-51", "french-5",
     dict(contract="petite", partner="Bor", oudlers=1, points=51),
     {"Ana": 50, "Bor": 25, "Cene": -25, "Dani": -25, "Eva": -25}),
    ("five-partner-55.5-lost-by-1", "french-5",
     dict(contract="garde", partner="Dani", oudlers=0, points=55.5),
     {"Ana": -104, "Bor": 52, "Cene": 52, "Dani": -52, "Eva": 52}),
    ("five-partner-garde-contre-everything", "french-5",
     dict(contract="garde-contre", partner="Eva", oudlers=3, points=40.5,
          bonuses=[poignee("Cene"), PETIT]),
     {"Ana": 520, "Bor": -260, "Cene": -260, "Dani": -260, "Eva": 260}),
    ("five-partner-chelem-announced-86.5", "french-5",
     dict(contract="garde-sans", partner="Cene", oudlers=2, points=86.5,
          bonuses=[CHELEM_ANNOUNCED]),
     {"Ana": 1368, "Bor": -684, "Cene": 684, "Dani": -684, "Eva": -684}),
    ("five-partner-lost-defender-poignee-double-10-trumps", "french-5",
     dict(contract="petite", partner="Bor", oudlers=2, points=40,
          bonuses=[poignee("Dani", "double")]),
     {"Ana": -112, "Bor": -56, "Cene": 56, "Dani": 56, "Eva": 56}),
    ("five-partner-null-is-alone", "french-5",
     dict(contract="garde", partner=None, oudlers=2, points=50),
     {"Ana": 272, "Bor": -68, "Cene": -68, "Dani": -68, "Eva": -68}),
    # five players alone: taker 4u, four defenders −u
    ("five-alone-garde", "french-5",
     dict(contract="garde", oudlers=2, points=50),
     {"Ana": 272, "Bor": -68, "Cene": -68, "Dani": -68, "Eva": -68}),
    ("five-alone-lost-petit-defence", "french-5",
     dict(contract="petite", oudlers=2, points=35, bonuses=[PETIT_DEFENCE]),
     {"Ana": -164, "Bor": 41, "Cene": 41, "Dani": 41, "Eva": 41}),
    ("five-alone-chelem-by-the-defence", "french-5",
     dict(contract="petite", oudlers=0, points=3, bonuses=[CHELEM_DEFENCE]),
     {"Ana": -1112, "Bor": 278, "Cene": 278, "Dani": 278, "Eva": 278}),
]


@pytest.mark.parametrize("variant, fields, expected",
                         [row[1:] for row in GOLDEN], ids=[row[0] for row in GOLDEN])
def test_golden(variant, fields, expected):
    result = score_hand(hand(variant, **fields))
    assert dict(result.amounts) == expected
    assert sum(result.amounts.values()) == 0  # zero-sum
    for line in result.lines:
        assert sum(line.amounts.values()) == 0  # every item is split zero-sum
    total = {p: sum(line.amounts.get(p, 0) for line in result.lines) for p in expected}
    assert total == expected  # the lines add up to the amounts


def test_golden_table_is_large_enough():
    assert len(GOLDEN) >= 30
    assert len({row[0] for row in GOLDEN}) == len(GOLDEN)


def test_adjustments_and_redeal():
    data = hand(contract="garde-sans", oudlers=1, points=51,
                adjustments=[{"player": "Bor", "amount": -20, "reason": "revoke"}])
    result = score_hand(data)
    assert result.amounts == {"Ana": 300, "Bor": -120, "Cene": -100, "Dani": -100}
    assert result.lines[-1].text == "adjustment: revoke"
    redeal = score_hand({"variant": "french-4", "players": FOUR, "contract": "redeal"})
    assert redeal.amounts == {"Ana": 0, "Bor": 0, "Cene": 0, "Dani": 0}


# -- validation ----------------------------------------------------------------------------------

@pytest.mark.parametrize("data, expected", [
    (hand(contract="garde", oudlers=2, points=50, partner="Bor"), ("partner", "unused-field")),
    (hand("french-3", contract="garde", oudlers=2, points=50, partner="Bor"),
     ("partner", "unused-field")),
    (hand(contract="garde", oudlers=2, points=50, made=True), ("made", "unused-field")),
    (hand(contract="garde", oudlers=2, points=50, level=1), ("level", "unused-field")),
    (hand(contract="garde", oudlers=2, points=50, points_by_player={}),
     ("points_by_player", "unused-field")),
    (hand(contract="garde", oudlers=2, points=50, contra={"game": 1}), ("contra", "unused-field")),
    (hand(contract="garde", points=50), ("oudlers", "missing")),
    (hand(contract="garde", oudlers=2), ("points", "missing")),
    ({"variant": "french-4", "players": FOUR, "contract": "garde", "oudlers": 2, "points": 50},
     ("declarer", "missing")),
    (hand(contract="garde", oudlers=4, points=50), ("oudlers", "out-of-range")),
    (hand(contract="garde", oudlers=2, points=91.5), ("points", "out-of-range")),
    (hand("french-3", contract="garde", oudlers=2, points=40.25), ("points", "not-a-half")),
    (hand(contract="garde", oudlers=2, points=40.5), ("points", "french-whole-points")),
    (hand(contract="petite", oudlers=0, points=80), ("oudlers", "french-oudlers-points")),
    (hand(contract="petite", oudlers=3, points=13), ("oudlers", "french-oudlers-points")),
    (hand(contract="petite", oudlers=2, points=87.5), ("oudlers", "french-oudlers-points")),
    (hand(contract="prise", oudlers=2, points=50), ("contract", "unknown-contract")),
    (hand(contract="garde", oudlers=2, points=50, bonuses=[{"name": "trula"}]),
     ("bonuses[0].name", "unknown-bonus")),
    ({"variant": "french-4", "players": FOUR, "contract": "redeal", "bonuses": [PETIT]},
     ("bonuses[0].name", "no-bonuses")),
    (hand(contract="garde", oudlers=2, points=50,
          bonuses=[{"name": "chelem", "announced": True, "contra": 1}]),
     ("bonuses[0].contra", "contra-not-allowed")),
    (hand(contract="garde", oudlers=2, points=50, bonuses=[{**poignee("Ana"), "contra": 1}]),
     ("bonuses[0].contra", "contra-unannounced")),
    (hand(contract="garde", oudlers=2, points=50, bonuses=[{**PETIT, "announced": True}]),
     ("bonuses[0].announced", "cannot-announce")),
    (hand(contract="garde", oudlers=2, points=50, bonuses=[{**poignee("Ana"), "announced": True}]),
     ("bonuses[0].announced", "cannot-announce")),
    (hand(contract="garde", oudlers=2, points=50, bonuses=[{**PETIT, "made": False}]),
     ("bonuses[0].made", "silent-not-made")),
    (hand(contract="garde", oudlers=2, points=50, bonuses=[{"name": "poignee", "player": "Bor"}]),
     ("bonuses[0].level", "level-required")),
    (hand(contract="garde", oudlers=2, points=50, bonuses=[poignee("Bor", "quadruple")]),
     ("bonuses[0].level", "unknown-level")),
    (hand(contract="garde", oudlers=2, points=50, bonuses=[{"name": "poignee", "level": "simple"}]),
     ("bonuses[0].player", "player-required")),
    (hand(contract="garde", oudlers=2, points=50, bonuses=[poignee("Eva")]),
     ("bonuses[0].player", "unknown-player")),
    (hand(contract="garde", oudlers=2, points=50, bonuses=[{**PETIT, "player": "Ana"}]),
     ("bonuses[0].player", "player-not-used")),
    (hand(contract="garde", oudlers=2, points=50, bonuses=[poignee("Bor"), poignee("Bor")]),
     ("bonuses[1].name", "duplicate-bonus")),
    (hand(contract="garde", oudlers=2, points=50, bonuses=[PETIT, PETIT_DEFENCE]),
     ("bonuses[1].name", "duplicate-bonus")),
    (hand(contract="garde", oudlers=2, points=50,
          bonuses=[poignee("Ana", "triple"), poignee("Bor", "double")]),
     ("bonuses", "french-poignee-trumps")),
    (hand("french-3", contract="garde", oudlers=2, points=50,
          bonuses=[poignee("Ana"), poignee("Bor")]),
     ("bonuses", "french-poignee-trumps")),
    (hand(contract="garde", oudlers=2, points=50,
          bonuses=[{"name": "chelem", "side": "defenders", "announced": True}]),
     ("bonuses[0].side", "defenders-cannot-announce")),
    (hand(contract="garde", oudlers=2, points=50, bonuses=[{"name": "chelem", "made": False}]),
     ("bonuses[0].made", "silent-not-made")),
    (hand(contract="garde", oudlers=2, points=40, bonuses=[CHELEM_SILENT]),
     ("bonuses[0].made", "french-chelem-result")),
    (hand(contract="garde", oudlers=2, points=41, bonuses=[CHELEM_DEFENCE]),
     ("bonuses[0].made", "french-chelem-result")),
    (hand("french-5", contract="garde", partner="Ana", oudlers=2, points=50),
     ("partner", "partner-is-declarer")),
    (hand("french-5", contract="garde", partner="Zoe", oudlers=2, points=50),
     ("partner", "unknown-player")),
    ({**hand(contract="garde", oudlers=2, points=50), "players": FIVE},
     ("players", "player-count")),
    ({**hand("french-3", contract="garde", oudlers=2, points=50), "players": FOUR},
     ("players", "player-count")),
    ({**hand(contract="garde", oudlers=2, points=50), "rules": {"max_contra": 1}},
     ("rules.max_contra", "unknown-switch")),
    ({**hand(contract="garde", oudlers=2, points=50), "rules": {"preset": "seed"}},
     ("rules.preset", "unknown-preset")),
    ({**hand(contract="garde", oudlers=2, points=50), "radelci": {"Ana": 1}},
     ("radelci", "radelci-off")),  # RULES.md §11: no radelci in these rules, said so
], ids=lambda v: v[1] if isinstance(v, tuple) else None)
def test_a_wrong_hand_names_its_field(data, expected):
    assert expected in problems(data)


def test_the_fft_preset_is_the_default_and_may_be_named():
    data = hand(contract="garde-sans", oudlers=1, points=51, rules={"preset": "fft"})
    assert score_hand(data).amounts["Ana"] == 300


def test_two_poignees_within_the_22_trumps_are_fine():
    # 5 players: 13 + 8 = 21 trumps; 4 players: 10 + 10 = 20 trumps.
    data = hand("french-5", contract="petite", oudlers=1, points=51,
                bonuses=[poignee("Ana", "triple"), poignee("Bor")])
    assert score_hand(data).amounts == {"Ana": 340, "Bor": -85, "Cene": -85, "Dani": -85,
                                        "Eva": -85}
    data = hand(contract="petite", oudlers=1, points=51,
                bonuses=[poignee("Ana"), poignee("Bor")])
    assert score_hand(data).amounts["Ana"] == 195


def test_every_problem_is_reported_at_once():
    data = hand(contract="garde", oudlers=5, points=92, partner="Bor", contra={"game": 1},
                bonuses=[{"name": "kings"}, poignee("Bor", "quadruple")])
    assert problems(data) >= {
        ("oudlers", "out-of-range"), ("points", "out-of-range"), ("partner", "unused-field"),
        ("contra", "unused-field"), ("bonuses[0].name", "unknown-bonus"),
        ("bonuses[1].level", "unknown-level"),
    }


@pytest.mark.parametrize("variant, counts", [
    ("french-3", ("simple (13 trumps)", "double (15 trumps)", "triple (18 trumps)")),
    ("french-4", ("simple (10 trumps)", "double (13 trumps)", "triple (15 trumps)")),
    ("french-5", ("simple (8 trumps)", "double (10 trumps)", "triple (13 trumps)")),
])
def test_poignee_level_messages_name_the_trump_counts(variant, counts):
    for bonus in (poignee("Bor", "quadruple"), {"name": "poignee", "player": "Bor"}):
        [message] = messages(hand(variant, contract="garde", oudlers=2, points=50,
                                  bonuses=[bonus]))
        assert message.startswith("bonuses[0].level: ")
        assert ", ".join(counts) in message


def test_too_many_trumps_message_names_the_counts():
    [message] = messages(hand("french-3", contract="garde", oudlers=2, points=50,
                              bonuses=[poignee("Ana"), poignee("Bor")]))
    assert message == (
        "bonuses: the poignées shown need 26 trumps, more than the 22 of the deck "
        "(in 3 players: simple 13, double 15, triple 18 trumps)")


def test_oudler_message_gives_the_possible_points():
    [message] = messages(hand(contract="petite", oudlers=3, points=13))
    assert message == "oudlers: a pile with 3 oudlers counts between 13.5 and 91 points, not 13"
    [message] = messages(hand(contract="petite", oudlers=0, points=80))
    assert message == "oudlers: a pile with 0 oudlers counts between 0 and 78 points, not 80"


# -- sheets ----------------------------------------------------------------------------------------

def test_a_five_seat_table_records_four_player_hands():
    sheet = {
        "format": 1, "variant": "french-4", "players": FIVE,
        "hands": [
            # Eva sits out: FFT 1
            {"players": FOUR, "contract": "garde", "declarer": "Ana", "oudlers": 2,
             "points": 49, "bonuses": [poignee("Ana"), PETIT]},
            # Ana sits out: Bor's petite lost by 6
            {"players": ["Bor", "Cene", "Dani", "Eva"], "contract": "petite",
             "declarer": "Bor", "oudlers": 1, "points": 45},
            {"players": ["Ana", "Cene", "Dani", "Eva"], "contract": "redeal"},
            {"players": FOUR, "contract": "adjustment",
             "adjustments": [{"player": "Dani", "amount": -10, "reason": "revoke"}]},
        ],
    }
    result = score_sheet(sheet)
    rows = result.rows
    assert dict(rows[0].result.amounts) == {"Ana": 318, "Bor": -106, "Cene": -106, "Dani": -106}
    assert "Eva" not in rows[0].result.amounts
    assert dict(rows[1].result.amounts) == {"Bor": -93, "Cene": 31, "Dani": 31, "Eva": 31}
    assert dict(rows[0].totals) == {"Ana": 318, "Bor": -106, "Cene": -106, "Dani": -106,
                                    "Eva": 0}
    assert dict(rows[1].totals) == {"Ana": 318, "Bor": -199, "Cene": -75, "Dani": -75, "Eva": 31}
    assert dict(rows[2].totals) == dict(rows[1].totals)
    assert dict(rows[3].totals) == {"Ana": 318, "Bor": -199, "Cene": -75, "Dani": -85, "Eva": 31}
    assert [row.dealer for row in rows] == ["Ana", "Bor", "Cene", "Cene"]
    assert dict(result.totals) == {"Ana": 318, "Bor": -199, "Cene": -75, "Dani": -85, "Eva": 31}
    # total − mean; the adjustment broke the zero sum: mean −2
    assert dict(result.settlement.nets) == {
        "Ana": 320, "Bor": -197, "Cene": -73, "Dani": -83, "Eva": 33}
    assert [(t.payer, t.payee, t.amount) for t in result.settlement.transfers] == [
        ("Bor", "Ana", 197), ("Dani", "Ana", 83), ("Cene", "Ana", 40), ("Cene", "Eva", 33)]


def test_a_five_player_sheet_settles_to_the_totals():
    sheet = {
        "variant": "french-5", "players": FIVE,
        "hands": [
            {"contract": "garde", "declarer": "Ana", "partner": "Cene", "oudlers": 2,
             "points": 50},
            {"contract": "petite", "declarer": "Dani", "oudlers": 1, "points": 45.5},
            {"contract": "garde-sans", "declarer": "Eva", "partner": "Bor", "oudlers": 3,
             "points": 36, "bonuses": [poignee("Ana", "double")]},
        ],
    }
    result = score_sheet(sheet)
    # hand 1: Ana +136, Cene +68, Bor, Dani, Eva −68
    # hand 2: Dani alone, 45.5 of 51 lost by 5.5 → 6: u = −31; Dani −124, others +31
    # hand 3: Eva with Bor, exactly 36: u = 25 × 4 = 100, Ana's double poignée +30 → 130;
    #         Eva +260, Bor +130, Ana, Cene, Dani −130
    assert dict(result.rows[1].result.amounts) == {
        "Ana": 31, "Bor": 31, "Cene": 31, "Dani": -124, "Eva": 31}
    assert dict(result.rows[2].result.amounts) == {
        "Ana": -130, "Bor": 130, "Cene": -130, "Dani": -130, "Eva": 260}
    assert dict(result.totals) == {"Ana": 37, "Bor": 93, "Cene": -31, "Dani": -322, "Eva": 223}
    assert dict(result.settlement.nets) == dict(result.totals)  # zero-sum: mean 0
    assert [(t.payer, t.payee, t.amount) for t in result.settlement.transfers] == [
        ("Dani", "Eva", 223), ("Dani", "Bor", 93), ("Cene", "Ana", 31), ("Dani", "Ana", 6)]


def test_sheet_json_keeps_half_points_out_of_the_amounts():
    sheet = {"variant": "french-3", "players": THREE, "hands": [
        {"contract": "garde", "declarer": "Ana", "oudlers": 2, "points": 40.5}]}
    out = score_sheet(sheet).to_json()
    assert out["totals"] == {"Ana": -104, "Bor": 52, "Cene": 52}
    assert out["hands"][0]["amounts"] == {"Ana": -104, "Bor": 52, "Cene": 52}
    assert json.loads(json.dumps(out)) == out
