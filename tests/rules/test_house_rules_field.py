"""A sheet's optional `house_rules` (HANDS.md, "A sheet"): a name, kept and never scored."""

import pytest

from rules import RulesError, score_sheet
from rules.problems import Problems
from rules.scoring import read_sheet

SHEET = {
    "format": 1,
    "variant": "slovenian-4",
    "rules": {"preset": "seed"},
    "players": ["Ana", "Bor", "Cene", "Dani"],
    "hands": [{"contract": "three", "declarer": "Ana", "partner": "Cene", "points": 40}],
}


def problems_of(data) -> set[tuple[str, str]]:
    with pytest.raises(RulesError) as caught:
        score_sheet(data)
    return {(p.path, p.code) for p in caught.value.problems}


def test_the_name_is_read_and_does_not_change_the_score():
    named = {**SHEET, "house_rules": "Thursday league"}
    sheet = read_sheet(named, Problems())
    assert sheet.house_rules == "Thursday league"
    assert read_sheet(SHEET, Problems()).house_rules == ""
    assert score_sheet(named).totals == score_sheet(SHEET).totals


@pytest.mark.parametrize(
    "name, code",
    [
        (7, "not-a-string"),
        (None, "not-a-string"),
        (["Thursday"], "not-a-string"),
        ("x" * 61, "too-long"),
        ("Thursday\x00", "control-character"),
        ("Thurs\nday", "control-character"),
    ],
)
def test_a_wrong_name_is_a_problem_at_its_key(name, code):
    assert problems_of({**SHEET, "house_rules": name}) == {("house_rules", code)}


def test_sixty_characters_are_enough():
    assert read_sheet({**SHEET, "house_rules": "ž" * 60}, Problems()).house_rules == "ž" * 60


def test_the_name_belongs_to_the_sheet_not_to_a_hand():
    hand = {**SHEET["hands"][0], "house_rules": "Thursday"}
    assert problems_of({**SHEET, "hands": [hand]}) == {("hands[0].house_rules", "unknown-key")}
