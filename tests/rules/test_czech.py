"""Czech tarok (RULES.md §2): the worked examples, a golden table, validation and sheets.

Every expected number is worked out by hand from RULES.md and written out here.
"""

from decimal import Decimal

import pytest

from rules import RulesError, resolve_rules, score_hand, score_sheet

FOUR = ["Ana", "Bor", "Cene", "Dani"]
UNDECLARED = ("varsovia", "redeal", "adjustment")


def hand(rules=None, players=None, **fields):
    data = {"variant": "czech", "players": players or FOUR}
    if fields.get("contract") not in UNDECLARED:
        data["declarer"] = "Ana"
    data.update(fields)
    if rules is not None:
        data["rules"] = rules
    return data


def problems(data):
    with pytest.raises(RulesError) as caught:
        score_hand(data)
    return {(p.path, p.code) for p in caught.value.problems}


def pagat(**kw):
    return {"name": "pagat-ultimo", **kw}


def valat(**kw):
    return {"name": "valat", **kw}


def says(*pairs):
    return [{"player": p, "name": n} for p, n in pairs]


def each(ana, bor, cene, dani):
    return {"Ana": ana, "Bor": bor, "Cene": cene, "Dani": dani}


INDIVIDUAL = {"declarations_payer": "individual"}
D = Decimal


# -- RULES.md §2 and §9, written out ---------------------------------------------------------------

def test_trojka_level_3_with_41_points():
    data = hand(contract="trojka", level=3, points=41)
    assert score_hand(data).amounts == {"Ana": 54, "Bor": -18, "Cene": -18, "Dani": -18}


def test_solo_with_35_points_loses_one_unit():
    data = hand(contract="solo", points=35)
    assert score_hand(data).amounts == {"Ana": -3, "Bor": 1, "Cene": 1, "Dani": 1}


def test_varsovia_loser_pays_by_his_own_points_and_a_player_without_a_trick_collects_double():
    data = hand(contract="varsovia", points_by_player=each(5, 0, 44, 21))
    assert score_hand(data).amounts == {"Ana": 40, "Bor": 80, "Cene": -160, "Dani": 40}


def test_varsovia_three_tied_losers_share_to_the_hundredth_leftover_in_seat_order():
    data = hand(contract="varsovia", points_by_player=each(23, 23, 23, 1))
    assert score_hand(data).amounts == {
        "Ana": Decimal("-3.34"), "Bor": Decimal("-3.33"), "Cene": Decimal("-3.33"), "Dani": 10,
    }


def test_35_35_loses_one_unit_whatever_the_rate_times_the_game_contra():
    data = hand(contract="trojka", level=3, points=35, contra={"game": 1})
    assert score_hand(data).amounts == {"Ana": -6, "Bor": 2, "Cene": 2, "Dani": 2}


def test_lines_keep_each_item_with_its_multiplier_in_words():
    data = hand(contract="second-obligation", partner="Cene", points=30, contra={"game": 1},
                bonuses=[pagat(announced=True, made=False, contra=2)],
                declarations=says(("Bor", "trul")))
    result = score_hand(data)
    assert [(line.item, line.text, dict(line.amounts), line.multiplier)
            for line in result.lines] == [
        ("game", "second obligation, 30 points: difference −5 × 1, lost, contra ×2",
         each(-10, 10, -10, 10), 2),
        ("pagat-ultimo", "pagat ultimo announced failed 20, re ×4", each(-80, 80, -80, 80), 4),
        ("trul", "Bor: trul 5", each(-5, 5, -5, 5), 1),
    ]
    assert result.amounts == each(-95, 95, -95, 95)


def test_varsovia_lines_one_per_payee():
    result = score_hand(hand(contract="varsovia", points_by_player=each(5, 0, 44, 21)))
    assert [(line.text, dict(line.amounts)) for line in result.lines] == [
        ("varsovia: Cene 44 pays Ana 40", {"Cene": -40, "Ana": 40}),
        ("varsovia: Cene 44 pays Bor 80 (no trick ×2)", {"Cene": -80, "Bor": 80}),
        ("varsovia: Cene 44 pays Dani 40", {"Cene": -40, "Dani": 40}),
    ]


def test_preset_and_switch():
    assert resolve_rules("czech") == {"preset": "seed", "declarations_payer": "side"}
    assert resolve_rules("czech", INDIVIDUAL) == {
        "preset": "seed", "declarations_payer": "individual"}


# -- the golden table ------------------------------------------------------------------------------

GOLDEN = [
    # obligations: pairs ±v, alone 3v / −v
    ("first-pair-won", hand(contract="first-obligation", partner="Cene", points=40),
     each(5, -5, 5, -5)),
    ("first-pair-lost", hand(contract="first-obligation", partner="Cene", points=30),
     each(-5, 5, -5, 5)),
    ("first-alone-won", hand(contract="first-obligation", points=40), each(15, -5, -5, -5)),
    ("first-partner-null-36", hand(contract="first-obligation", partner=None, points=36),
     each(3, -1, -1, -1)),
    ("first-35-loses-1", hand(contract="first-obligation", partner="Bor", points=35),
     each(-1, -1, 1, 1)),
    ("first-35-re", hand(contract="first-obligation", partner="Cene", points=35,
                         contra={"game": 2}), each(-4, 4, -4, 4)),
    ("first-contra", hand(contract="first-obligation", partner="Cene", points=45,
                          contra={"game": 1}), each(20, -20, 20, -20)),
    ("first-sub", hand(contract="first-obligation", partner="Cene", points=45,
                       contra={"game": 3}), each(80, -80, 80, -80)),
    ("first-contra-0", hand(contract="first-obligation", partner="Cene", points=45,
                            contra={"game": 0}), each(10, -10, 10, -10)),
    # second obligation: game + its announced pagat ultimo
    ("second-pagat-made", hand(contract="second-obligation", partner="Cene", points=38,
                               bonuses=[pagat(announced=True)]), each(23, -23, 23, -23)),
    ("second-pagat-failed", hand(contract="second-obligation", partner="Cene", points=38,
                                 bonuses=[pagat(announced=True, made=False)]),
     each(-17, 17, -17, 17)),
    ("second-alone-pagat-contra", hand(contract="second-obligation", points=40,
                                       bonuses=[pagat(announced=True, contra=1)]),
     each(135, -45, -45, -45)),
    ("second-game-contra-pagat-re", hand(contract="second-obligation", partner="Cene", points=30,
                                         contra={"game": 1},
                                         bonuses=[pagat(announced=True, made=False, contra=2)]),
     each(-90, 90, -90, 90)),
    # trojka: rate = level
    ("trojka-1-won", hand(contract="trojka", level=1, points=40), each(15, -5, -5, -5)),
    ("trojka-2-lost", hand(contract="trojka", level=2, points=30), each(-30, 10, 10, 10)),
    ("trojka-3-41", hand(contract="trojka", level=3, points=41), each(54, -18, -18, -18)),
    ("trojka-2-35", hand(contract="trojka", level=2, points=35), each(-3, 1, 1, 1)),
    # solo: rate 6
    ("solo-won", hand(contract="solo", points=40), each(90, -30, -30, -30)),
    ("solo-lost-contra", hand(contract="solo", points=30, contra={"game": 1}),
     each(-180, 60, 60, 60)),
    ("solo-35-sub", hand(contract="solo", points=35, contra={"game": 3}), each(-24, 8, 8, 8)),
    # pagat ultimo, every state
    ("pagat-silent-made", hand(contract="first-obligation", partner="Cene", points=40,
                               bonuses=[pagat()]), each(15, -15, 15, -15)),
    ("pagat-silent-lost", hand(contract="first-obligation", partner="Cene", points=40,
                               bonuses=[pagat(made=False)]), each(-5, 5, -5, 5)),
    ("pagat-silent-defenders", hand(contract="first-obligation", partner="Cene", points=42,
                                    bonuses=[pagat(side="defenders")]), each(-3, 3, -3, 3)),
    ("pagat-announced-defenders-contra", hand(
        contract="first-obligation", partner="Cene", points=30,
        bonuses=[pagat(side="defenders", announced=True, contra=1)]), each(-45, 45, -45, 45)),
    ("pagat-announced-defenders-failed-sub", hand(
        contract="solo", points=40,
        bonuses=[pagat(side="defenders", announced=True, made=False, contra=3)]),
     each(570, -190, -190, -190)),
    ("pagat-silent-lost-defenders", hand(contract="trojka", level=1, points=40,
                                         bonuses=[pagat(side="defenders", made=False)]),
     each(45, -15, -15, -15)),
    ("pagat-not-doubled-by-game-contra", hand(contract="first-obligation", partner="Cene",
                                              points=40, contra={"game": 1}, bonuses=[pagat()]),
     each(20, -20, 20, -20)),
    # valat, added to the game
    ("valat-silent", hand(contract="first-obligation", partner="Cene", points=70,
                          bonuses=[valat()]), each(105, -105, 105, -105)),
    ("valat-announced-contra", hand(contract="first-obligation", partner="Cene", points=70,
                                    bonuses=[valat(announced=True, contra=1)]),
     each(315, -315, 315, -315)),
    ("valat-announced-failed", hand(contract="first-obligation", partner="Cene", points=50,
                                    bonuses=[valat(announced=True, made=False)]),
     each(-125, 125, -125, 125)),
    ("valat-defenders-silent", hand(contract="solo", points=0,
                                    bonuses=[valat(side="defenders")]),
     each(-840, 280, 280, 280)),
    ("valat-re-game-contra", hand(contract="trojka", level=2, points=60, contra={"game": 1},
                                  bonuses=[valat(announced=True, contra=2)]),
     each(1980, -660, -660, -660)),
    ("valat-failed-sub", hand(contract="solo", points=40,
                              bonuses=[valat(announced=True, made=False, contra=3)]),
     each(-3270, 1090, 1090, 1090)),
    ("valat-defenders-announced-failed", hand(
        contract="first-obligation", partner="Cene", points=50,
        bonuses=[valat(side="defenders", announced=True, made=False)]),
     each(155, -155, 155, -155)),
    ("pagat-and-valat", hand(contract="first-obligation", partner="Cene", points=70,
                             bonuses=[pagat(announced=True), valat()]),
     each(125, -125, 125, -125)),
    # declarations: side (default) and individual
    ("decl-side-trul", hand(contract="first-obligation", partner="Cene", points=40,
                            declarations=says(("Ana", "trul"))), each(10, -10, 10, -10)),
    ("decl-individual-trul", hand(INDIVIDUAL, contract="first-obligation", partner="Cene",
                                  points=40, declarations=says(("Ana", "trul"))),
     each(20, -10, 0, -10)),
    ("decl-side-defender-trumps-10", hand(contract="first-obligation", partner="Cene", points=40,
                                          declarations=says(("Bor", "trumps-10"))),
     each(-5, 5, -5, 5)),
    ("decl-individual-defender-trumps-10", hand(
        INDIVIDUAL, contract="first-obligation", partner="Cene", points=40,
        declarations=says(("Bor", "trumps-10"))), each(-5, 25, -5, -15)),
    ("decl-side-solo-two-of-one-player", hand(
        {"preset": "seed", "declarations_payer": "side"}, contract="solo", points=40,
        declarations=says(("Ana", "trumps-8"), ("Ana", "honours"))),
     each(120, -40, -40, -40)),
    ("decl-side-solo-defender-four-kings", hand(contract="solo", points=40,
                                                declarations=says(("Bor", "four-kings"))),
     each(60, -20, -20, -20)),
    ("decl-individual-solo-four-kings", hand(INDIVIDUAL, contract="solo", points=40,
                                             declarations=says(("Bor", "four-kings"))),
     each(80, 0, -40, -40)),
    ("decl-not-contrad", hand(contract="trojka", level=1, points=36, contra={"game": 1},
                              declarations=says(("Ana", "no-trumps"), ("Cene", "trumps-1"))),
     each(21, -7, -7, -7)),
    ("decl-alone-defender-adds-up", hand(contract="first-obligation", points=40,
                                         declarations=says(("Dani", "trul"),
                                                           ("Dani", "four-kings"))),
     each(-30, 10, 10, 10)),
    ("decl-individual-two-holders", hand(INDIVIDUAL, contract="first-obligation", partner="Cene",
                                         points=40, declarations=says(("Cene", "honours"),
                                                                      ("Dani", "trumps-8"))),
     each(-5, -15, 15, 5)),
    # varsovia
    ("varsovia-44", hand(contract="varsovia", points_by_player=each(5, 0, 44, 21)),
     each(40, 80, -160, 40)),
    ("varsovia-tie-3", hand(contract="varsovia", points_by_player=each(23, 23, 23, 1)),
     each(D("-3.34"), D("-3.33"), D("-3.33"), 10)),
    ("varsovia-29", hand(contract="varsovia", points_by_player=each(29, 20, 15, 6)),
     each(-30, 10, 10, 10)),
    ("varsovia-30", hand(contract="varsovia", points_by_player=each(10, 30, 20, 10)),
     each(20, -60, 20, 20)),
    ("varsovia-tricks-given", hand(contract="varsovia", points_by_player=each(39, 0, 0, 31),
                                   tricks_by_player=each(6, 0, 1, 5)),
     each(-80, 40, 20, 20)),
    ("varsovia-tie-2", hand(contract="varsovia", points_by_player=each(30, 30, 10, 0)),
     each(-30, -30, 20, 40)),
    ("varsovia-tie-3-no-trick", hand(contract="varsovia", points_by_player=each(23, 23, 23, 0)),
     each(D("-6.67"), D("-6.67"), D("-6.66"), 20)),
    ("varsovia-tie-3-later-seats", hand(contract="varsovia",
                                        points_by_player=each(18, 15, 18, 18)),
     each(D("-3.34"), 10, D("-3.33"), D("-3.33"))),
    ("varsovia-40", hand(contract="varsovia", points_by_player=each(10, 10, 10, 40)),
     each(40, 40, 40, -120)),
    ("varsovia-71", hand(contract="varsovia", points_by_player=each(41, 10, 10, 10)),
     each(-120, 40, 40, 40)),
    # adjustments and redeals
    ("with-adjustment", hand(contract="solo", points=40,
                             adjustments=[{"player": "Bor", "amount": -5, "reason": "revoke"}]),
     each(90, -35, -30, -30)),
    ("redeal", hand(contract="redeal"), each(0, 0, 0, 0)),
]


@pytest.mark.parametrize("data, expected", [row[1:] for row in GOLDEN],
                         ids=[row[0] for row in GOLDEN])
def test_golden(data, expected):
    result = score_hand(data)
    assert result.amounts == expected
    # the lines add up exactly to the amounts
    summed = dict.fromkeys(FOUR, 0)
    for line in result.lines:
        for player, value in line.amounts.items():
            summed[player] += value
    assert summed == expected
    # zero-sum, adjustments aside
    game = [line for line in result.lines if line.item != "adjustment"]
    assert sum(v for line in game for v in line.amounts.values()) == 0


def test_golden_table_is_big_enough():
    assert len(GOLDEN) >= 30


# -- validation ------------------------------------------------------------------------------------

@pytest.mark.parametrize("data, expected", [
    (hand(contract="varsovia", declarer="Ana", points_by_player=each(5, 0, 44, 21)),
     ("declarer", "unused-field")),
    (hand(contract="varsovia", contra={"game": 1}, points_by_player=each(5, 0, 44, 21)),
     ("contra", "unused-field")),
    (hand(contract="varsovia", declarations=says(("Ana", "trul")),
          points_by_player=each(5, 0, 44, 21)), ("declarations", "unused-field")),
    (hand(contract="trojka", level=1, partner="Bor", points=40), ("partner", "unused-field")),
    (hand(contract="solo", level=1, points=40), ("level", "unused-field")),
    (hand(contract="solo", points=40, points_by_player=each(5, 0, 44, 21)),
     ("points_by_player", "unused-field")),
    (hand(contract="trojka", points=40), ("level", "missing")),
    (hand(contract="first-obligation"), ("points", "missing")),
    (hand(contract="varsovia"), ("points_by_player", "missing")),
    (hand(contract="trojka", level=4, points=40), ("level", "out-of-range")),
    (hand(contract="solo", points=71), ("points", "out-of-range")),
    (hand(contract="first-obligation", partner="Ana", points=40),
     ("partner", "partner-is-declarer")),
    (hand(contract="first-obligation", partner="Eva", points=40), ("partner", "unknown-player")),
    (hand(contract="first-obligation", points=40, bonuses=[{"name": "trula"}]),
     ("bonuses[0].name", "unknown-bonus")),
    (hand(contract="varsovia", points_by_player=each(5, 0, 44, 21), bonuses=[pagat()]),
     ("bonuses[0].name", "no-bonuses")),
    (hand(contract="solo", points=40, bonuses=[pagat(contra=1)]),
     ("bonuses[0].contra", "contra-unannounced")),
    (hand(contract="solo", points=40, contra={"game": 4}), ("contra.game", "contra-too-high")),
    (hand(contract="solo", points=40, bonuses=[pagat(announced=True, contra=4)]),
     ("bonuses[0].contra", "contra-too-high")),
    (hand(contract="solo", points=40, bonuses=[valat(made=False)]),
     ("bonuses[0].made", "silent-not-made")),
    (hand(contract="solo", points=40, bonuses=[pagat(), pagat()]),
     ("bonuses[1].name", "duplicate-bonus")),
    (hand(contract="solo", points=40, declarations=says(("Ana", "kings"))),
     ("declarations[0].name", "unknown-bonus")),
    (hand(contract="solo", points=40, declarations=says(("Eva", "trul"))),
     ("declarations[0].player", "unknown-player")),
    (hand(contract="solo", points=40, colour="hearts"), ("colour", "unknown-key")),
    (hand(players=FOUR[:3], contract="solo", points=40), ("players", "player-count")),
    (hand({"declarations_payer": "both"}, contract="solo", points=40),
     ("rules.declarations_payer", "bad-switch-value")),
    (hand({"contra_scope": "item"}, contract="solo", points=40),
     ("rules.contra_scope", "unknown-switch")),
    (hand({"preset": "tarzs"}, contract="solo", points=40), ("rules.preset", "unknown-preset")),
    # the second obligation's pagat ultimo
    (hand(contract="second-obligation", partner="Cene", points=40),
     ("bonuses", "second-obligation-pagat")),
    (hand(contract="second-obligation", partner="Cene", points=40, bonuses=[valat(
        announced=True, made=False)]), ("bonuses", "second-obligation-pagat")),
    (hand(contract="second-obligation", partner="Cene", points=40, bonuses=[pagat()]),
     ("bonuses[0].announced", "second-obligation-pagat-announced")),
    (hand(contract="second-obligation", partner="Cene", points=40,
          bonuses=[pagat(side="defenders", announced=True)]),
     ("bonuses[0].side", "second-obligation-pagat-side")),
    # valat against the points and the pagat
    (hand(contract="solo", points=35, bonuses=[valat()]), ("points", "valat-declarer-points")),
    (hand(contract="solo", points=40, bonuses=[valat(side="defenders")]),
     ("points", "valat-defenders-points")),
    (hand(contract="solo", points=70, bonuses=[valat(), pagat(side="defenders")]),
     ("bonuses[1].made", "valat-and-pagat")),
    # declarations
    (hand(contract="solo", points=40, declarations=says(("Ana", "trumps-10"), ("Ana", "trumps-8"))),
     ("declarations[1].name", "declarations-incompatible")),
    (hand(contract="solo", points=40, declarations=says(("Bor", "no-trumps"), ("Bor", "trumps-1"))),
     ("declarations[1].name", "declarations-incompatible")),
    (hand(contract="solo", points=40, declarations=says(("Ana", "four-kings"), ("Ana", "honours"))),
     ("declarations[1].name", "declarations-incompatible")),
    (hand(contract="solo", points=40, declarations=says(("Ana", "trul"), ("Ana", "no-trumps"))),
     ("declarations[1].name", "declarations-incompatible")),
    (hand(contract="solo", points=40, declarations=says(("Ana", "trumps-1"), ("Ana", "trul"))),
     ("declarations[1].name", "declarations-incompatible")),
    (hand(contract="solo", points=40, declarations=says(("Ana", "trul"), ("Bor", "trul"))),
     ("declarations[1].name", "declaration-one-holder")),
    (hand(contract="solo", points=40,
          declarations=says(("Cene", "four-kings"), ("Dani", "four-kings"))),
     ("declarations[1].name", "declaration-one-holder")),
    (hand(contract="solo", points=40, declarations=says(("Ana", "honours"), ("Ana", "honours"))),
     ("declarations[1].name", "duplicate-declaration")),
    # varsovia
    (hand(contract="varsovia", points_by_player=each(5, 0, 42, 21)),
     ("points_by_player", "varsovia-points-total")),
    (hand(contract="varsovia", points_by_player=each(5, 2, 44, 21)),
     ("points_by_player", "varsovia-points-total")),
    (hand(contract="varsovia", points_by_player={"Ana": 35, "Bor": 35}),
     ("points_by_player", "not-every-player")),
    (hand(contract="varsovia", points_by_player=each(5, 0, 44, 21),
          tricks_by_player=each(1, 0, 6, 4)), ("tricks_by_player", "tricks-total")),
    (hand(contract="varsovia", points_by_player=each(5, 0, 44, 21),
          tricks_by_player=each(0, 1, 7, 4)), ("points_by_player.Ana", "no-trick-points")),
], ids=lambda v: v[1] if isinstance(v, tuple) else None)
def test_problems(data, expected):
    assert expected in problems(data)


def test_every_problem_is_reported_at_once():
    data = hand(contract="second-obligation", partner="Cene", points=30, level=2,
                bonuses=[valat()], declarations=says(("Ana", "trul"), ("Bor", "trul")))
    found = problems(data)
    # the generic reader stops before the family checks: first the unused level
    assert ("level", "unused-field") in found
    data.pop("level")
    assert problems(data) == {
        ("bonuses", "second-obligation-pagat"),
        ("points", "valat-declarer-points"),
        ("declarations[1].name", "declaration-one-holder"),
    }


# Solo with 40 points: the game is (40 − 35) × 6 = 30, Ana alone +90 and each other −30 (§2.1,
# §0). A declaration of v units is a side item of the holder's side (§2.2): Ana's +3v / −v
# each; a defender's +v to each defender and −3v to Ana.
@pytest.mark.parametrize("declarations, amounts", [
    # Ana 10 + 5 + 5 = 20: +60 / −20
    (says(("Ana", "trumps-10"), ("Ana", "trul"), ("Ana", "honours")), each(150, -50, -50, -50)),
    # Ana 5 + 10 + 5 = 20: +60 / −20
    (says(("Ana", "trumps-8"), ("Ana", "four-kings"), ("Ana", "trul")), each(150, -50, -50, -50)),
    # Ana 10: +30 / −10; Bor 10: +10 each defender, −30 Ana
    (says(("Ana", "trumps-10"), ("Bor", "trumps-10")), each(90, -30, -30, -30)),
    # Ana 5: +15 / −5; Bor 5: +5 each defender, −15 Ana
    (says(("Ana", "honours"), ("Bor", "honours")), each(90, -30, -30, -30)),
    # Ana 5: +15 / −5; Bor 10: +10 each defender, −30 Ana
    (says(("Ana", "trul"), ("Bor", "four-kings")), each(75, -25, -25, -25)),
    # Ana 10: +30 / −10; Bor 5 and Cene 5: +5 +5 each defender, −15 −15 Ana
    (says(("Ana", "no-trumps"), ("Bor", "trumps-1"), ("Cene", "trumps-8")),
     each(90, -30, -30, -30)),
])
def test_compatible_declarations_are_accepted(declarations, amounts):
    result = score_hand(hand(contract="solo", points=40, declarations=declarations))
    assert result.amounts == amounts


def test_problem_messages_read_well():
    with pytest.raises(RulesError) as caught:
        score_hand(hand(contract="solo", points=40,
                        declarations=says(("Ana", "trul"), ("Ana", "no-trumps"))))
    assert str(caught.value) == (
        "declarations[1].name: Ana cannot declare no trump (or pagat alone) together with trul")


# -- a sheet ---------------------------------------------------------------------------------------

def test_sheet_running_totals_and_settlement():
    sheet = {
        "format": 1, "variant": "czech", "players": FOUR,
        "hands": [
            {"contract": "solo", "declarer": "Ana", "points": 35},
            {"contract": "first-obligation", "declarer": "Bor", "partner": "Dani", "points": 40},
            {"contract": "redeal"},
            {"contract": "varsovia", "points_by_player": each(23, 23, 23, 1)},
            {"contract": "adjustment",
             "adjustments": [{"player": "Cene", "amount": -2, "reason": "revoke"}]},
        ],
    }
    result = score_sheet(sheet)
    assert [row.dealer for row in result.rows] == ["Ana", "Bor", "Cene", "Cene", "Dani"]
    assert [dict(row.totals) for row in result.rows] == [
        each(-3, 1, 1, 1),
        each(-8, 6, -4, 6),
        each(-8, 6, -4, 6),
        each(D("-11.34"), D("2.67"), D("-7.33"), 16),
        each(D("-11.34"), D("2.67"), D("-9.33"), 16),
    ]
    assert result.totals == each(D("-11.34"), D("2.67"), D("-9.33"), 16)
    # the adjustment broke the zero sum: nets are total − mean (mean −0.5)
    assert result.settlement.nets == each(D("-10.84"), D("3.17"), D("-8.83"), D("16.5"))
    assert [(t.payer, t.payee, t.amount) for t in result.settlement.transfers] == [
        ("Ana", "Dani", D("10.84")),
        ("Cene", "Dani", D("5.66")),
        ("Cene", "Bor", D("3.17")),
    ]
    assert result.to_json()["hands"][3]["amounts"] == {
        "Ana": D("-3.34"), "Bor": D("-3.33"), "Cene": D("-3.33"), "Dani": 10}


def test_sheet_of_five_where_one_sits_out():
    five = [*FOUR, "Eva"]
    sheet = {
        "variant": "czech", "rules": INDIVIDUAL, "players": five,
        "hands": [
            {"players": FOUR, "contract": "trojka", "level": 1, "declarer": "Ana",
             "points": 40},
            {"players": ["Bor", "Cene", "Dani", "Eva"], "contract": "first-obligation",
             "declarer": "Eva", "partner": "Bor", "points": 33,
             "declarations": [{"player": "Cene", "name": "trul"}]},
        ],
    }
    result = score_sheet(sheet)
    assert result.rows[0].result.amounts == each(15, -5, -5, -5)
    # game −2: Eva, Bor −2, Cene, Dani +2; Cene's trul, individual: Cene +15, others −5
    assert result.rows[1].result.amounts == {"Bor": -7, "Cene": 17, "Dani": -3, "Eva": -7}
    assert result.totals == {"Ana": 15, "Bor": -12, "Cene": 12, "Dani": -8, "Eva": -7}
    assert result.settlement.nets == {"Ana": 15, "Bor": -12, "Cene": 12, "Dani": -8, "Eva": -7}
    assert [(t.payer, t.payee, t.amount) for t in result.settlement.transfers] == [
        ("Bor", "Ana", 12), ("Dani", "Cene", 8), ("Eva", "Cene", 4), ("Eva", "Ana", 3),
    ]


def test_sheet_problems_carry_the_hand_index():
    sheet = {"variant": "czech", "players": FOUR, "hands": [
        {"contract": "solo", "declarer": "Ana", "points": 40},
        {"contract": "trojka", "declarer": "Ana", "points": 40, "rules": {}},
    ]}
    with pytest.raises(RulesError) as caught:
        score_sheet(sheet)
    assert {(p.path, p.code) for p in caught.value.problems} == {
        ("hands[1].level", "missing"), ("hands[1].rules", "own-rules-in-sheet"),
    }
