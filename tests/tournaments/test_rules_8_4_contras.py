"""RULES.md §8.4, `contras_count` off: the ranking's numbers come from the table's sheet
re-scored by the engine with every contra at 0; radelci, mondfang and adjustments stay.

One sheet per family with a contra, scored with and without its contras, numbers as RULES.md
§1–§4 give them; French and slovenian-2 take no contras and come back unchanged.
"""

from __future__ import annotations

import copy

import rules
from scorebook.tournaments.contras import totals_without_contras, without_contras
from scorebook.tournaments.ranking import table_places

FOUR = ["Ana", "Bor", "Cene", "Dani"]


def sheet(variant: str, hands: list[dict], players=FOUR, **extra) -> dict:
    return {"format": 1, "variant": variant, "players": players, "hands": hands, **extra}


def with_contras(data: dict) -> dict:
    return dict(rules.score_sheet(data).totals)


def test_slovenian_tarzs_keeps_radelci_mondfang_adjustments_and_the_closing_penalty():
    """Bor's beggar gives everybody a radelc. Then Ana plays two with Cene, 38 points
    (difference 3 → 5), game contra, pagat ultimo announced made with its contra; Bor's mond
    is caught; Dani pays a −10 revoke. Ana holds a radelc: the hand is doubled.

    With contras: Ana, Cene 2 × (2 × 25 + 2 × 50) = 300. Without: 2 × (25 + 50) = 150.
    Bor 70 − 21 (mondfang, never doubled); Dani −10. Ana won and crossed out her radelc;
    Bor, Cene and Dani close with one each: −40."""
    data = sheet(
        "slovenian-4",
        [
            {"contract": "beggar", "declarer": "Bor", "made": True},
            {
                "contract": "two",
                "declarer": "Ana",
                "partner": "Cene",
                "points": 38,
                "contra": {"game": 1},
                "bonuses": [
                    {"name": "pagat-ultimo", "announced": True, "contra": 1},
                    {"name": "mondfang", "player": "Bor"},
                ],
                "adjustments": [{"player": "Dani", "amount": -10, "reason": "revoke"}],
            },
        ],
        rules={"preset": "tarzs", "radelc_penalty": -40},
    )
    assert with_contras(data) == {"Ana": 300, "Bor": 9, "Cene": 260, "Dani": -50}
    assert totals_without_contras(data) == {"Ana": 150, "Bor": 9, "Cene": 110, "Dani": -50}


def test_slovenian_seed_game_contra_over_the_whole_hand():
    """§1.3: two in three players, 39 points, trula announced made: +44; with a contra on
    the whole game +88."""
    data = sheet(
        "slovenian-3",
        [
            {
                "contract": "two",
                "declarer": "Ana",
                "points": 39,
                "contra": {"game": 1},
                "bonuses": [{"name": "trula", "announced": True}],
            }
        ],
        players=FOUR[:3],
    )
    assert with_contras(data) == {"Ana": 88, "Bor": 0, "Cene": 0}
    assert totals_without_contras(data) == {"Ana": 44, "Bor": 0, "Cene": 0}


def test_czech_contras_on_the_game_and_the_pagat_but_never_a_declaration():
    """Trojka level 3, 41 points: 6 × 3 = 18, contra ×2; pagat ultimo announced made 20,
    contra ×2; Ana's trul 5, never contra'd. Alone against three: 3v / −v.
    With: Ana 3 × (36 + 40 + 5) = 243. Without: 3 × (18 + 20 + 5) = 129."""
    data = sheet(
        "czech",
        [
            {
                "contract": "trojka",
                "level": 3,
                "declarer": "Ana",
                "points": 41,
                "contra": {"game": 1},
                "bonuses": [{"name": "pagat-ultimo", "announced": True, "contra": 1}],
                "declarations": [{"player": "Ana", "name": "trul"}],
            }
        ],
    )
    assert with_contras(data) == {"Ana": 243, "Bor": -81, "Cene": -81, "Dani": -81}
    assert totals_without_contras(data) == {"Ana": 129, "Bor": -43, "Cene": -43, "Dani": -43}


def test_zwanzigerrufen_contras_go_and_the_caught_mond_stays():
    """Rufer with Bor, 52 points: game 1, contra ×2; pagat ultimo announced made 2, contra
    ×2; Dani played the mond and it was caught: Dani −3, the others +1.
    With: Ana, Bor 2 + 4 + 1 = 7. Without: 1 + 2 + 1 = 4."""
    data = sheet(
        "zwanzigerrufen",
        [
            {
                "contract": "rufer",
                "declarer": "Ana",
                "partner": "Bor",
                "points": 52,
                "contra": {"game": 1},
                "bonuses": [
                    {"name": "pagat-ultimo", "announced": True, "contra": 1},
                    {"name": "mond-caught", "player": "Dani"},
                ],
            }
        ],
    )
    assert with_contras(data) == {"Ana": 7, "Bor": 7, "Cene": -5, "Dani": -9}
    assert totals_without_contras(data) == {"Ana": 4, "Bor": 4, "Cene": -2, "Dani": -6}


def test_french_and_slovenian_2_hands_are_unchanged():
    french = [{"contract": "garde-sans", "declarer": "Ana", "points": 51, "oudlers": 1}]
    two = [{"contract": "game", "announcer": "Ana", "points_by_player": {"Ana": 34, "Bor": 36}}]
    assert without_contras(french) == french
    assert without_contras(two) == two
    assert totals_without_contras(sheet("french-4", french)) == {
        "Ana": 300,
        "Bor": -100,
        "Cene": -100,
        "Dani": -100,
    }
    assert totals_without_contras(sheet("slovenian-2", two, players=FOUR[:2])) == {
        "Ana": -3,
        "Bor": 3,
    }


def test_the_stored_hands_keep_their_contras():
    hands = [
        {
            "contract": "rufer",
            "declarer": "Ana",
            "partner": "Bor",
            "points": 52,
            "contra": {"game": 2},
            "bonuses": [{"name": "pagat-ultimo", "announced": True, "contra": 1}],
        }
    ]
    stored = copy.deepcopy(hands)
    assert without_contras(hands) == [
        {
            "contract": "rufer",
            "declarer": "Ana",
            "partner": "Bor",
            "points": 52,
            "contra": {"game": 0},
            "bonuses": [{"name": "pagat-ultimo", "announced": True, "contra": 0}],
        }
    ]
    assert hands == stored


def test_without_contras_a_table_can_place_otherwise():
    """Czech: Ana's trojka level 3 with a contra (+108 / −36), then Bor's solo, 41 points
    (6 × 6 = 36: +108 / −36). With contras Ana and Bor tie at 72 and share 1st; without,
    Ana has 54 − 36 = 18 and Bor −18 + 108 = 90: Bor wins the table alone."""
    data = sheet(
        "czech",
        [
            {
                "contract": "trojka",
                "level": 3,
                "declarer": "Ana",
                "points": 41,
                "contra": {"game": 1},
            },
            {"contract": "solo", "declarer": "Bor", "points": 41},
        ],
    )
    points = [3, 2, 1, 0]
    assert with_contras(data) == {"Ana": 72, "Bor": 72, "Cene": -72, "Dani": -72}
    counted = table_places(with_contras(data), points)
    assert [(counted[p].place, counted[p].points) for p in FOUR] == [
        (1, 2.5),
        (1, 2.5),
        (3, 0.5),
        (3, 0.5),
    ]
    assert totals_without_contras(data) == {"Ana": 18, "Bor": 90, "Cene": -54, "Dani": -54}
    ranked = table_places(totals_without_contras(data), points)
    assert [(ranked[p].place, ranked[p].points) for p in FOUR] == [
        (2, 2),
        (1, 3),
        (3, 0.5),
        (3, 0.5),
    ]
