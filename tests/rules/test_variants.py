"""What a Variant answers about its family, the registry, the hand's fields and the sheet note.

Every expected word and number is written out here from RULES.md and HANDS.md.
"""

from decimal import Decimal

import pytest

import rules
from rules import RulesError, get_variant, score_hand, score_sheet
from rules.fields import FIELDS, field_range
from rules.model import Line
from rules.notes import note, note_text, number_text
from rules.slovenian import DECK
from rules.variant import Variant, contract

FOUR = ["Ana", "Bor", "Cene", "Dani"]


# -- the registry -------------------------------------------------------------------------------

def test_variants_are_listed_in_the_order_of_hands_md():
    assert [v.id for v in rules.variants()] == [
        "slovenian-4", "slovenian-3", "slovenian-2", "czech", "zwanzigerrufen",
        "french-3", "french-4", "french-5",
    ]
    assert rules.variants() == rules.VARIANTS


class Toy(Variant):
    """Two players; the one with more points gets the difference."""

    id = "toy"
    family = "toy"
    family_label = "Toy tarok"
    player_counts = (2,)
    card_points = 70
    deck = DECK
    presets = {"seed": {}}
    default_preset = "seed"

    def contracts(self, rules):
        return {"game": contract("game", "points_by_player")}

    def score(self, hand, rules, carry):
        first, second = hand.players
        points = hand.points_by_player
        value = points[first] - points[second]
        return [Line("game", "toy", {first: value, second: -value})], carry


def test_a_toy_variant_can_be_registered_and_removed_again():
    rules.register(Toy())
    try:
        assert rules.variants()[-1].id == "toy"
        result = score_hand({"variant": "toy", "players": ["Ana", "Bor"], "contract": "game",
                             "points_by_player": {"Ana": 40, "Bor": 30}})
        assert result.amounts == {"Ana": 10, "Bor": -10}
    finally:
        rules.unregister("toy")
    assert "toy" not in [v.id for v in rules.variants()]
    with pytest.raises(RulesError):
        get_variant("toy")
    with pytest.raises(KeyError):
        rules.unregister("toy")


# -- family facts -------------------------------------------------------------------------------

@pytest.mark.parametrize("variant_id, label, sizes", [
    ("slovenian-4", "Slovenian tarok", (4, 5)),
    ("slovenian-3", "Slovenian tarok", (3, 4)),
    ("slovenian-2", "Slovenian tarok", (2, 3)),
    ("czech", "Czech tarok", (4, 5)),
    ("zwanzigerrufen", "Zwanzigerrufen", (4, 5)),
    ("french-3", "French tarot", (3, 4)),
    ("french-5", "French tarot", (5, 6)),
])
def test_family_label_and_table_sizes(variant_id, label, sizes):
    variant = get_variant(variant_id)
    assert str(variant.family_label) == label
    assert variant.table_sizes() == sizes


def test_redeals_and_adjustments_are_no_deals():
    for variant in rules.variants():
        assert not variant.is_deal("redeal")
        assert not variant.is_deal("adjustment")
        deals = [c for c in variant.rules().contracts if variant.is_deal(c)]
        assert deals and "redeal" not in deals


def test_only_slovenian_with_its_switch_on_keeps_radelci():
    slovenian = get_variant("slovenian-4")
    assert slovenian.keeps_radelci(slovenian.rules({"preset": "tarzs"}))
    assert not slovenian.keeps_radelci(slovenian.rules({"preset": "seed"}))
    assert slovenian.keeps_radelci({"preset": "tarzs", "radelci": True})  # stored JSON
    assert not get_variant("slovenian-2").keeps_radelci({"preset": "tarzs"})
    assert not get_variant("czech").keeps_radelci({"preset": "seed"})


def said(words):
    """A variant's table of words, said in English."""
    return {key: str(value) for key, value in words.items()}


def test_words_of_roles_and_sides():
    """Each family's form names roles and sides in its own words (issue 16)."""
    french = get_variant("french-5")
    assert said(french.role_words) == {
        "declarer": "taker", "alone": "taker", "partner": "called partner",
        "defenders": "defence"}
    assert said(french.side_words) == {"declarer": "attack", "defenders": "defence"}
    assert said(get_variant("slovenian-4").role_words) == {
        "declarer": "declarer", "alone": "declarer", "partner": "partner",
        "defenders": "defenders"}


def test_words_of_sides_and_contras():
    assert said(get_variant("czech").side_words) == {"declarer": "declarer's side",
                                               "defenders": "defenders"}
    assert said(get_variant("slovenian-4").contra_words) == {
        1: "contra", 2: "re", 3: "sub", 4: "mort"}
    assert said(get_variant("zwanzigerrufen").contra_words) == {
        1: "contra", 2: "recontra", 3: "subcontra"}


# -- radelci used -------------------------------------------------------------------------------

def test_a_won_hand_of_a_radelc_holder_uses_his_radelc():
    # RULES.md §1.7: klop gives every player a radelc; Ana then wins a three with 40 points
    # (10 + difference 5, doubled by her radelc: +30) and crosses hers out; Bor loses a two
    # with 30 points: his radelc doubles the loss (−(20 + 5) × 2 = −50) and stays.
    sheet = score_sheet({
        "variant": "slovenian-4", "rules": {"preset": "tarzs"}, "players": FOUR,
        "hands": [
            {"contract": "klop", "points_by_player": {"Ana": 20, "Bor": 30, "Cene": 10,
                                                      "Dani": 10}},
            {"contract": "three", "declarer": "Ana", "points": 40},
            {"contract": "two", "declarer": "Bor", "points": 30},
            {"contract": "redeal"},
        ],
    })
    assert [row.result.radelci_used for row in sheet.rows] == [
        frozenset(), frozenset({"Ana"}), frozenset(), frozenset()]
    assert sheet.rows[1].result.amounts["Ana"] == 30
    assert sheet.rows[2].result.amounts["Bor"] == -50
    assert sheet.rows[3].result.radelci == {"Ana": 0, "Bor": 1, "Cene": 1, "Dani": 1}
    assert "radelci_used" not in sheet.rows[1].to_json()


# -- cards --------------------------------------------------------------------------------------

@pytest.mark.parametrize("variant_id, card, label", [
    ("slovenian-4", "tarok-22", "Škis"),
    ("czech", "tarok-21", "XXI"),
    ("french-4", "tarok-22", "Excuse"),
    ("zwanzigerrufen", "tarok-22", "Sküs"),
    ("slovenian-3", "hearts-king", "K♥"),
    ("czech", "spades-queen", "Q♠"),
    ("slovenian-4", "diamonds-cavall", "C♦"),
    ("french-3", "clubs-jack", "J♣"),
    ("french-3", "clubs-7", "7♣"),
    ("zwanzigerrufen", "clubs-low", "low ♣"),
])
def test_card_labels(variant_id, card, label):
    assert get_variant(variant_id).card_label(card) == label


def test_trumps_heading():
    assert get_variant("czech").trumps_label == "Taroks"
    assert get_variant("french-5").trumps_label == "Excuse and trumps"


def test_count_summary_tells_what_the_pile_completes():
    slovenian = get_variant("slovenian-4")
    honours_and_kings = ["pagat", "mond", "škis", "kh", "kd", "ks", "kc"]
    # 7 cards of 5: 35 − 2 × 2 (two groups of three) − 1 (a single 5 left: its value) = 31
    assert slovenian.count_summary(slovenian.count(honours_and_kings)) == [
        "31 points", "trula complete", "kings complete", "7 cards"]
    zwanzigerrufen = get_variant("zwanzigerrufen")
    assert zwanzigerrufen.count_summary(zwanzigerrufen.count(["I", "XXI", "sküs"])) == [
        "15 points", "trull complete", "3 cards"]
    french = get_variant("french-4")
    # excuse 4.5, king 4.5, a 7 0.5
    assert french.count_summary(french.count(["excuse", "kh", "7c"])) == [
        "9.5 points", "oudlers 1", "3 cards"]


# -- the hand's fields --------------------------------------------------------------------------

def test_the_fields_follow_hands_md():
    assert list(FIELDS) == [
        "format", "variant", "rules", "players", "dealer", "contract", "declarer", "partner",
        "points", "made", "level", "oudlers", "contra", "bonuses", "points_by_player",
        "tricks_by_player", "declarations", "announcer", "radelci", "adjustments",
    ]
    assert [n for n, f in FIELDS.items() if f.single and f.scope != "every hand"] == [
        "dealer", "declarer", "partner", "points", "made", "level", "oudlers", "announcer"]


def test_field_ranges_per_variant_and_rules():
    czech, french = get_variant("czech"), get_variant("french-3")
    assert field_range("level", czech) == (1, 3)
    assert field_range("oudlers", french) == (0, 3)
    assert field_range("points", czech) == (0, 70)
    assert field_range("points", french) == (0, 91)
    assert field_range("points", get_variant("zwanzigerrufen")) == (0, 88)
    assert field_range("adjustments", czech) == (-1_000_000, 1_000_000)
    tarzs = get_variant("slovenian-4").rules({"preset": "tarzs"})
    assert field_range("contra", get_variant("slovenian-4"), tarzs) == (0, 4)


def test_the_reader_holds_a_field_to_its_range():
    with pytest.raises(RulesError) as caught:
        score_hand({"variant": "czech", "players": FOUR, "contract": "trojka",
                    "declarer": "Ana", "points": 40, "level": 4})
    assert str(caught.value) == "level: must be between 1 and 3"


# -- the sheet note -----------------------------------------------------------------------------

def test_the_note_of_a_row_reads_like_paper():
    result = score_hand({"variant": "slovenian-3", "players": ["Ana", "Bor", "Cene"],
                         "contract": "two", "declarer": "Ana", "points": 39, "contra": {"game": 1},
                         "bonuses": [{"name": "trula", "announced": True},
                                     {"name": "kings", "side": "defenders", "made": True}]})
    # two 20 + 4 = 24, trula 20, kings by the defenders −10: 34, all ×2
    assert note_text(note(result)) == "+68 two tr. /k. ×2"
    assert rules.note is note
    lost = score_hand({"variant": "slovenian-3", "players": ["Ana", "Bor", "Cene"],
                       "contract": "beggar", "declarer": "Ana", "made": False})
    assert note_text(note(lost)) == "−70 beggar ✗"


def test_numbers_as_a_sheet_writes_them():
    assert number_text(Decimal("-2.50")) == "−2.5"
    assert number_text(Decimal("45.5")) == "45.5"
    assert number_text(-3) == "−3"
