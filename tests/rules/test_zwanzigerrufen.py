"""Zwanzigerrufen (RULES.md §3): worked examples, a golden table worked out by hand from
RULES.md, the validation of bad hands, and a sheet with its settlement."""

from __future__ import annotations

from decimal import Decimal

import pytest

import rules
from rules import RulesError, score_hand, score_sheet

P = ["Ana", "Bor", "Cene", "Dani"]


def hand(contract: str, points: int, partner: str | None = None, *, contra: int = 0,
         bonuses=(), rules_: dict | None = None, declarer: str = "Ana", **extra) -> dict:
    data = {"format": 1, "variant": "zwanzigerrufen", "players": P, "contract": contract,
            "declarer": declarer, "points": points}
    if partner is not None:
        data["partner"] = partner
    if contra:
        data["contra"] = {"game": contra}
    if bonuses:
        data["bonuses"] = list(bonuses)
    if rules_ is not None:
        data["rules"] = rules_
    data.update(extra)
    return data


def amounts(result) -> list:
    return [result.amounts[p] for p in P]


def problems(data) -> dict[str, str]:
    with pytest.raises(RulesError) as error:
        score_hand(data)
    return {p.path: p.code for p in error.value.problems}


def b(name: str, **fields) -> dict:
    return {"name": name, **fields}


# -- worked examples (RULES.md §9) ---------------------------------------------------------


def test_worked_example_mond_caught():
    result = score_hand(hand("rufer", 52, "Bor", bonuses=[b("mond-caught", player="Dani")]))
    assert result.amounts == {"Ana": 2, "Bor": 2, "Cene": 0, "Dani": -4}


def test_worked_example_silent_valat_sum():
    result = score_hand(hand("rufer", 88, "Cene", bonuses=[b("valat")]))
    assert result.amounts == {"Ana": 8, "Bor": -8, "Cene": 8, "Dani": -8}
    assert [line.item for line in result.lines] == ["game", "absolut", "valat"]
    assert [line.amounts["Ana"] for line in result.lines] == [1, 1, 6]


# -- golden table --------------------------------------------------------------------------

PLUS = {"valat_scoring": "plus-game"}
REPLACES = {"valat_scoring": "replaces-game"}
SIDE = {"premium_payer": "side"}
DEF = "defenders"

GOLDEN = [
    # game, every contract, every contra level
    ("rufer-won-45", hand("rufer", 45, "Bor"), [1, 1, -1, -1]),
    ("rufer-44-loses", hand("rufer", 44, "Bor"), [-1, -1, 1, 1]),
    ("rufer-contra", hand("rufer", 50, "Cene", contra=1), [2, -2, 2, -2]),
    ("rufer-recontra-lost", hand("rufer", 40, "Cene", contra=2), [-4, 4, -4, 4]),
    ("rufer-subcontra-absolut-silent", hand("rufer", 60, "Dani", contra=3), [9, -9, -9, 9]),
    ("rufer-alone", hand("rufer", 50), [3, -1, -1, -1]),
    ("rufer-alone-contra-lost-defenders-absolut", hand("rufer", 30, contra=1), [-9, 3, 3, 3]),
    ("rufer-partner-null-is-alone", {**hand("rufer", 50), "partner": None}, [3, -1, -1, -1]),
    ("solo-won", hand("solo", 50), [12, -4, -4, -4]),
    ("solo-lost", hand("solo", 44), [-12, 4, 4, 4]),
    ("solo-declared-by-cene", hand("solo", 45, declarer="Cene"), [-4, -4, 12, -4]),
    ("suit-solo-contra", hand("suit-solo", 47, contra=1), [24, -8, -8, -8]),
    ("suit-solo-subcontra-lost", hand("suit-solo", 40, contra=3), [-96, 32, 32, 32]),
    # absolut
    ("absolut-silent-declarer-56", hand("rufer", 56, "Bor"), [2, 2, -2, -2]),
    ("absolut-silent-defenders-32", hand("rufer", 32, "Bor"), [-2, -2, 2, 2]),
    ("absolut-none-at-33", hand("rufer", 33, "Bor"), [-1, -1, 1, 1]),
    ("absolut-none-at-55", hand("rufer", 55, "Bor"), [1, 1, -1, -1]),
    ("absolut-announced-made-left-out", hand(
        "rufer", 60, "Bor", bonuses=[b("absolut", announced=True)]), [3, 3, -3, -3]),
    ("absolut-announced-made-given", hand(
        "rufer", 56, "Bor", bonuses=[b("absolut", announced=True, made=True)]), [3, 3, -3, -3]),
    ("absolut-announced-failed-given", hand(
        "rufer", 50, "Bor", bonuses=[b("absolut", announced=True, made=False)]),
     [-1, -1, 1, 1]),
    ("absolut-announced-failed-contra", hand(
        "rufer", 55, "Cene", bonuses=[b("absolut", announced=True, contra=1)]),
     [-3, 3, -3, 3]),
    ("absolut-defenders-made-recontra-solo", hand(
        "solo", 30, contra=2,
        bonuses=[b("absolut", side=DEF, announced=True, made=True, contra=1)]),
     [-72, 24, 24, 24]),
    ("absolut-defenders-failed", hand(
        "rufer", 40, "Bor", bonuses=[b("absolut", side=DEF, announced=True)]), [1, 1, -1, -1]),
    ("absolut-solo-silent", hand("solo", 70), [18, -6, -6, -6]),
    ("absolut-declarer-fails-defenders-silent", hand(
        "rufer", 30, "Bor", bonuses=[b("absolut", announced=True)]), [-4, -4, 4, 4]),
    ("absolut-suit-solo-announced-subcontra", hand(
        "suit-solo", 60, bonuses=[b("absolut", announced=True, contra=3)]),
     [108, -36, -36, -36]),
    # pagat ultimo
    ("pagat-silent-made", hand("rufer", 50, "Bor", bonuses=[b("pagat-ultimo")]),
     [2, 2, -2, -2]),
    ("pagat-silent-lost", hand("rufer", 50, "Bor", bonuses=[b("pagat-ultimo", made=False)]),
     [0, 0, 0, 0]),
    ("pagat-defenders-announced-contra", hand(
        "rufer", 50, "Bor",
        bonuses=[b("pagat-ultimo", side=DEF, announced=True, contra=1)]), [-3, -3, 3, 3]),
    ("pagat-announced-failed-recontra-solo", hand(
        "solo", 50, bonuses=[b("pagat-ultimo", announced=True, made=False, contra=2)]),
     [-36, 12, 12, 12]),
    ("pagat-announced-subcontra-solo", hand(
        "solo", 46, bonuses=[b("pagat-ultimo", announced=True, contra=3)]),
     [108, -36, -36, -36]),
    ("pagat-silent-lost-defenders-solo", hand(
        "solo", 50, bonuses=[b("pagat-ultimo", side=DEF, made=False)]), [18, -6, -6, -6]),
    # valat, sum
    ("valat-announced-made-sum", hand("rufer", 88, "Bor", bonuses=[b("valat", announced=True)]),
     [14, 14, -14, -14]),
    ("valat-silent-defenders-sum", hand("rufer", 0, "Bor", bonuses=[b("valat", side=DEF)]),
     [-8, -8, 8, 8]),
    ("valat-announced-failed-sum", hand(
        "rufer", 70, "Cene", bonuses=[b("valat", announced=True, made=False)]),
     [-10, 10, -10, 10]),
    ("valat-solo-announced-contra-sum", hand(
        "solo", 88, bonuses=[b("valat", announced=True, contra=1)]), [162, -54, -54, -54]),
    ("valat-sum-keeps-premiums", hand(
        "rufer", 88, "Bor", bonuses=[b("valat"), b("trull", player="Ana")]), [11, 7, -9, -9]),
    # valat, plus-game
    ("plus-game-valat-made-lapses", hand(
        "rufer", 88, "Bor", rules_=PLUS,
        bonuses=[b("valat"), b("trull", player="Ana"), b("pagat-ultimo")]), [7, 7, -7, -7]),
    ("plus-game-defenders-valat-contra", hand(
        "solo", 0, rules_=PLUS, bonuses=[b("valat", side=DEF, announced=True, contra=1)]),
     [-156, 52, 52, 52]),
    ("plus-game-valat-failed-normal", hand(
        "rufer", 60, "Bor", rules_=PLUS,
        bonuses=[b("valat", announced=True, made=False), b("trull", player="Bor")]),
     [-11, -7, 9, 9]),
    ("plus-game-game-contra", hand(
        "rufer", 88, "Bor", contra=1, rules_=PLUS,
        bonuses=[b("valat", announced=True, contra=1), b("mond-caught", player="Cene")]),
     [26, 26, -26, -26]),
    # valat, replaces-game
    ("replaces-game-valat-made", hand(
        "rufer", 88, "Cene", rules_=REPLACES,
        bonuses=[b("valat"), b("king-trull", player="Dani")]), [6, -6, 6, -6]),
    ("replaces-game-suit-solo-recontra", hand(
        "suit-solo", 88, contra=1, rules_=REPLACES,
        bonuses=[b("valat", announced=True, contra=2)]), [288, -96, -96, -96]),
    ("replaces-game-valat-failed-contra", hand(
        "rufer", 50, "Bor", rules_=REPLACES,
        bonuses=[b("valat", announced=True, made=False, contra=1)]), [-23, -23, 23, 23]),
    ("replaces-game-defenders-valat", hand(
        "rufer", 0, "Bor", rules_=REPLACES, bonuses=[b("valat", side=DEF)]), [-6, -6, 6, 6]),
    # premiums, individual
    ("trull-defender-rufer", hand("rufer", 50, "Bor", bonuses=[b("trull", player="Cene")]),
     [0, 0, 2, -2]),
    ("trull-declarer-solo", hand("solo", 50, bonuses=[b("trull", player="Ana")]),
     [18, -6, -6, -6]),
    ("king-trull-suit-solo", hand("suit-solo", 50, bonuses=[b("king-trull", player="Bor")]),
     [10, 2, -6, -6]),
    ("mond-caught-solo-declarer-pays", hand(
        "solo", 50, bonuses=[b("mond-caught", player="Ana")]), [6, -2, -2, -2]),
    ("mond-caught-partner-pays", hand(
        "rufer", 50, "Bor", bonuses=[b("mond-caught", player="Bor")]), [2, -2, 0, 0]),
    # premiums, side
    ("side-trull-defenders", hand(
        "rufer", 50, "Bor", rules_=SIDE, bonuses=[b("trull", player="Cene")]), [0, 0, 0, 0]),
    ("side-mond-caught-defenders-pay", hand(
        "rufer", 52, "Bor", rules_=SIDE, bonuses=[b("mond-caught", player="Dani")]),
     [2, 2, -2, -2]),
    ("side-king-trull-solo", hand(
        "solo", 40, rules_=SIDE, bonuses=[b("king-trull", player="Ana")]), [-6, 2, 2, 2]),
    ("side-rufer-alone-trull", hand(
        "rufer", 50, rules_=SIDE, bonuses=[b("trull", player="Bor")]), [0, 0, 0, 0]),
    ("side-mond-caught-alone-declarer", hand(
        "rufer", 50, rules_=SIDE, bonuses=[b("mond-caught", player="Ana")]), [0, 0, 0, 0]),
    # everything at once
    ("all-items-sum", hand(
        "rufer", 60, "Bor", contra=1,
        bonuses=[b("pagat-ultimo", announced=True, contra=2), b("trull", player="Ana"),
                 b("king-trull", player="Dani"), b("mond-caught", player="Cene")]),
     [14, 10, -16, -8]),
]


@pytest.mark.parametrize("data, expected", [row[1:] for row in GOLDEN],
                         ids=[row[0] for row in GOLDEN])
def test_golden(data, expected):
    result = score_hand(data)
    assert amounts(result) == expected
    assert sum(result.amounts.values()) == 0
    # the lines add up exactly to the amounts, and each line is zero-sum on its own
    for player in P:
        assert sum(line.amounts.get(player, 0) for line in result.lines) == result.amounts[player]
    for line in result.lines:
        assert sum(line.amounts.values()) == 0


def test_golden_table_size():
    assert len(GOLDEN) >= 30


# -- line words ----------------------------------------------------------------------------


def test_line_words_use_recontra_and_subcontra():
    result = score_hand(hand(
        "solo", 50, contra=2,
        bonuses=[b("pagat-ultimo", announced=True, contra=3), b("trull", player="Bor")]))
    texts = [line.text for line in result.lines]
    assert texts == [
        "solo 4, recontra ×4",
        "pagat ultimo announced 4, subcontra ×8",
        "trull 2, Bor",
    ]
    assert [line.multiplier for line in result.lines] == [4, 8, 1]


def test_line_words_lost_game_and_defenders_absolut():
    result = score_hand(hand("rufer", 30, "Bor", contra=1))
    assert [line.text for line in result.lines] == [
        "rufer 1, lost, contra ×2", "absolut silent 1 by the defenders",
    ]


def test_slovenian_contra_words_unchanged():
    result = score_hand({"variant": "slovenian-3", "players": ["Ana", "Bor", "Cene"],
                         "contract": "two", "declarer": "Ana", "points": 39, "contra": {"game": 2}})
    assert result.lines[0].text.endswith(", re ×4")


def test_adjustment_is_added_and_breaks_the_zero_sum():
    result = score_hand(hand("rufer", 50, "Bor",
                             adjustments=[{"player": "Cene", "amount": -2, "reason": "revoke"}]))
    assert amounts(result) == [1, 1, -3, -1]


def test_registered_with_switches():
    variant = rules.get_variant("zwanzigerrufen")
    assert variant.family == "zwanzigerrufen"
    assert variant.card_points == 88
    assert variant.player_counts == (4,)
    assert rules.resolve_rules("zwanzigerrufen") == {
        "preset": "seed", "valat_scoring": "sum", "premium_payer": "individual",
    }
    assert set(variant.rules().contracts) == {"rufer", "solo", "suit-solo", "redeal", "adjustment"}


def test_redeal_scores_nothing():
    result = score_hand({"variant": "zwanzigerrufen", "players": P, "contract": "redeal"})
    assert amounts(result) == [0, 0, 0, 0]


# -- validation ----------------------------------------------------------------------------

BAD = [
    ("partner-in-solo", hand("solo", 50, "Bor"), "partner", "unused-field"),
    ("partner-in-suit-solo", hand("suit-solo", 50, "Bor"), "partner", "unused-field"),
    ("made-field-unused", hand("rufer", 50, "Bor", made=True), "made", "unused-field"),
    ("points-missing", {"variant": "zwanzigerrufen", "players": P, "contract": "rufer",
                        "declarer": "Ana"}, "points", "missing"),
    ("declarer-missing", {"variant": "zwanzigerrufen", "players": P, "contract": "solo",
                          "points": 50}, "declarer", "missing"),
    ("points-over-88", hand("rufer", 89, "Bor"), "points", "out-of-range"),
    ("points-not-whole", hand("rufer", 44.5, "Bor"), "points", "not-an-integer"),
    ("three-players", {**hand("solo", 50), "players": P[:3]}, "players", "player-count"),
    ("partner-is-declarer", hand("rufer", 50, "Ana"), "partner", "partner-is-declarer"),
    ("unknown-contract", hand("beggar", 50), "contract", "unknown-contract"),
    ("pagat-in-suit-solo", hand("suit-solo", 50, bonuses=[b("pagat-ultimo")]),
     "bonuses[0].name", "bonus-not-allowed"),
    ("trull-in-suit-solo", hand("suit-solo", 50, bonuses=[b("trull", player="Ana")]),
     "bonuses[0].name", "bonus-not-allowed"),
    ("mond-in-suit-solo", hand("suit-solo", 50, bonuses=[b("mond-caught", player="Bor")]),
     "bonuses[0].name", "bonus-not-allowed"),
    ("unknown-bonus", hand("rufer", 50, "Bor", bonuses=[b("kings")]),
     "bonuses[0].name", "unknown-bonus"),
    ("game-contra-4", hand("rufer", 50, "Bor", contra=4), "contra.game", "contra-too-high"),
    ("bonus-contra-4", hand("rufer", 88, "Bor", bonuses=[b("valat", announced=True, contra=4)]),
     "bonuses[0].contra", "contra-too-high"),
    ("contra-on-silent", hand("rufer", 50, "Bor", bonuses=[b("pagat-ultimo", contra=1)]),
     "bonuses[0].contra", "contra-unannounced"),
    ("contra-on-premium", hand("rufer", 50, "Bor", bonuses=[b("trull", player="Ana", contra=1)]),
     "bonuses[0].contra", "contra-unannounced"),
    ("trull-announced", hand("rufer", 50, "Bor",
                             bonuses=[b("trull", player="Ana", announced=True)]),
     "bonuses[0].announced", "cannot-announce"),
    ("trull-no-player", hand("rufer", 50, "Bor", bonuses=[b("king-trull")]),
     "bonuses[0].player", "player-required"),
    ("mond-player-unknown", hand("rufer", 50, "Bor", bonuses=[b("mond-caught", player="Eva")]),
     "bonuses[0].player", "unknown-player"),
    ("valat-takes-no-player", hand("rufer", 88, "Bor", bonuses=[b("valat", player="Ana")]),
     "bonuses[0].player", "player-not-used"),
    ("silent-valat-not-made", hand("rufer", 50, "Bor", bonuses=[b("valat", made=False)]),
     "bonuses[0].made", "silent-not-made"),
    ("trull-twice", hand("rufer", 50, "Bor", bonuses=[b("trull", player="Ana"),
                                                      b("trull", player="Bor")]),
     "bonuses[1].name", "duplicate-bonus"),
    ("absolut-silent-listed", hand("rufer", 60, "Bor", bonuses=[b("absolut")]),
     "bonuses[0].announced", "absolut-silent"),
    ("absolut-made-but-50", hand("rufer", 50, "Bor",
                                 bonuses=[b("absolut", announced=True, made=True)]),
     "bonuses[0].made", "absolut-disagrees"),
    ("absolut-failed-but-60", hand("rufer", 60, "Bor",
                                   bonuses=[b("absolut", announced=True, made=False)]),
     "bonuses[0].made", "absolut-disagrees"),
    ("absolut-defenders-made-but-40", hand(
        "solo", 40, bonuses=[b("absolut", side=DEF, announced=True, made=True)]),
     "bonuses[0].made", "absolut-disagrees"),
    ("absolut-made-not-boolean", hand("rufer", 60, "Bor",
                                      bonuses=[b("absolut", announced=True, made="yes")]),
     "bonuses[0].made", "not-a-boolean"),
    ("valat-declarer-87", hand("rufer", 87, "Bor", bonuses=[b("valat")]), "points",
     "valat-points"),
    ("valat-defenders-1", hand("solo", 1, bonuses=[b("valat", side=DEF, announced=True)]),
     "points", "valat-points"),
    ("unknown-switch", hand("rufer", 50, "Bor", rules_={"contra_scope": "hand"}),
     "rules.contra_scope", "unknown-switch"),
    ("bad-valat-scoring", hand("rufer", 50, "Bor", rules_={"valat_scoring": "double"}),
     "rules.valat_scoring", "bad-switch-value"),
    ("bad-premium-payer", hand("rufer", 50, "Bor", rules_={"premium_payer": "table"}),
     "rules.premium_payer", "bad-switch-value"),
    ("unknown-preset", hand("rufer", 50, "Bor", rules_={"preset": "tarzs"}),
     "rules.preset", "unknown-preset"),
    ("radelci-off", hand("rufer", 50, "Bor", radelci={"Ana": 1}), "radelci", "radelci-off"),
]


@pytest.mark.parametrize("data, path, code", [row[1:] for row in BAD], ids=[row[0] for row in BAD])
def test_rejected(data, path, code):
    assert problems(data).get(path) == code


def test_every_problem_is_listed_at_once():
    found = problems(hand(
        "suit-solo", 50, "Bor", contra=4,
        bonuses=[b("trull", player="Ana"), b("valat", announced=True, contra=1, player="Ana")]))
    assert found == {
        "partner": "unused-field",
        "contra.game": "contra-too-high",
        "bonuses[0].name": "bonus-not-allowed",
        "bonuses[1].player": "player-not-used",
    }


def test_valat_and_absolut_problems_together():
    found = problems(hand("rufer", 80, "Bor", bonuses=[
        b("absolut", announced=True, made=False), b("valat", announced=True)]))
    assert found == {"bonuses[0].made": "absolut-disagrees", "points": "valat-points"}


def test_problem_messages_read_well():
    with pytest.raises(RulesError) as error:
        score_hand(hand("rufer", 50, "Bor", bonuses=[b("absolut", announced=True, made=True)]))
    assert str(error.value) == (
        "bonuses[0].made: does not agree with the points: the declarer's side took 50 card "
        "points and absolut needs 56"
    )
    with pytest.raises(RulesError) as error:
        score_hand(hand("solo", 3, bonuses=[b("valat", side=DEF)]))
    assert str(error.value) == "points: a valat made by the defenders needs points = 0"


# -- a sheet -------------------------------------------------------------------------------


def test_sheet_running_totals_and_settlement():
    sheet = {
        "format": 1, "variant": "zwanzigerrufen", "players": P,
        "hands": [
            {"contract": "rufer", "declarer": "Ana", "partner": "Bor", "points": 52,
             "bonuses": [{"name": "mond-caught", "player": "Dani"}]},
            {"contract": "solo", "declarer": "Cene", "points": 50},
            {"contract": "redeal"},
            {"contract": "rufer", "declarer": "Dani", "partner": "Ana", "points": 40},
            {"contract": "adjustment",
             "adjustments": [{"player": "Bor", "amount": -2, "reason": "revoke"}]},
        ],
    }
    result = score_sheet(sheet)
    assert [[row.totals[p] for p in P] for row in result.rows] == [
        [2, 2, 0, -4],
        [-2, -2, 12, -8],
        [-2, -2, 12, -8],
        [-3, -1, 13, -9],
        [-3, -3, 13, -9],
    ]
    assert [row.dealer for row in result.rows] == ["Ana", "Bor", "Cene", "Cene", "Dani"]
    assert dict(result.totals) == {"Ana": -3, "Bor": -3, "Cene": 13, "Dani": -9}
    # the adjustment broke the zero sum: nets are total − mean (mean −0.5)
    assert dict(result.settlement.nets) == {
        "Ana": Decimal("-2.5"), "Bor": Decimal("-2.5"), "Cene": Decimal("13.5"),
        "Dani": Decimal("-8.5"),
    }
    assert [(t.payer, t.payee, t.amount) for t in result.settlement.transfers] == [
        ("Dani", "Cene", Decimal("8.5")),
        ("Ana", "Cene", Decimal("2.5")),
        ("Bor", "Cene", Decimal("2.5")),
    ]


def test_sheet_five_seats_one_sits_out():
    sheet = {
        "variant": "zwanzigerrufen", "rules": {"premium_payer": "individual"},
        "players": [*P, "Eva"],
        "hands": [
            {"players": P, "contract": "rufer", "declarer": "Ana", "partner": "Bor",
             "points": 50},
            {"players": ["Bor", "Cene", "Dani", "Eva"], "contract": "solo", "declarer": "Eva",
             "points": 60},
        ],
    }
    result = score_sheet(sheet)
    assert "Eva" not in result.rows[0].result.amounts
    assert dict(result.rows[1].result.amounts) == {"Bor": -6, "Cene": -6, "Dani": -6, "Eva": 18}
    assert dict(result.totals) == {"Ana": 1, "Bor": -5, "Cene": -7, "Dani": -7, "Eva": 18}
    assert dict(result.settlement.nets) == dict(result.totals)
    assert [(t.payer, t.payee, t.amount) for t in result.settlement.transfers] == [
        ("Cene", "Eva", 7), ("Dani", "Eva", 7), ("Bor", "Eva", 4), ("Bor", "Ana", 1),
    ]


def test_sheet_problem_paths():
    sheet = {
        "variant": "zwanzigerrufen", "players": P,
        "hands": [
            {"contract": "rufer", "declarer": "Ana", "partner": "Bor", "points": 60,
             "bonuses": [{"name": "absolut"}]},
            {"contract": "solo", "declarer": "Ana", "points": 50,
             "rules": {"valat_scoring": "sum"}},
            {"contract": "solo", "declarer": "Bor", "points": 87,
             "bonuses": [{"name": "valat"}]},
        ],
    }
    with pytest.raises(RulesError) as error:
        score_sheet(sheet)
    assert {p.path: p.code for p in error.value.problems} == {
        "hands[0].bonuses[0].announced": "absolut-silent",
        "hands[1].rules": "own-rules-in-sheet",
        "hands[2].points": "valat-points",
    }
