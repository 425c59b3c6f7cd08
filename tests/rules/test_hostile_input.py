"""Hostile and strange input (issue "Hardening", engine part): whatever the text or the value,
the engine answers with a result or a RulesError naming the field, the command line with
status 0, 1 or 2 and no traceback, and nothing takes longer than a moment.

The numbered tests are the attacker's findings, each with its number.
"""

import contextlib
import copy
import io
import json
import os
import subprocess
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from rules import RulesError, get_variant, resolve_rules, score_hand, score_sheet
from rules.cli import main
from rules.jsontext import JSON_PROBLEMS, MAX_DEPTH, UnreadableJSON, loads, nesting
from rules.problems import Problems
from rules.reader import read_hand
from rules.scoring import MAX_HANDS, read_sheet

FOUR = ["Ana", "Bor", "Cene", "Dani"]
ROOT = Path(__file__).resolve().parents[2]
FUZZ = settings(max_examples=300, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

TWO = {"variant": "slovenian-4", "players": FOUR, "contract": "two", "declarer": "Ana",
       "partner": "Cene", "points": 40}
ADJUSTMENT = {"variant": "slovenian-4", "players": FOUR, "contract": "adjustment",
              "adjustments": [{"player": "Ana", "amount": 5, "reason": "late"}]}
SOLO = {"variant": "czech", "players": FOUR, "contract": "solo", "declarer": "Ana", "points": 40,
        "declarations": [{"player": "Ana", "name": "trul"}]}


def problems(data, **kw):
    with pytest.raises(RulesError) as caught:
        score_hand(data, **kw)
    return {(p.path, p.code) for p in caught.value.problems}


def sheet_problems(data):
    with pytest.raises(RulesError) as caught:
        score_sheet(data)
    return {(p.path, p.code) for p in caught.value.problems}


def unreadable(text, **kw):
    with pytest.raises(UnreadableJSON) as caught:
        loads(text, **kw)
    (problem,) = caught.value.problems
    assert problem.code in JSON_PROBLEMS and problem.path == ""
    assert str(problem).startswith("not readable JSON: ")
    return problem.code


def cli(tmp_path, text, *args):
    """Runs ``main`` on a file holding ``text``: status, stdout, stderr."""
    path = tmp_path / "input.json"
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass"))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["score", *args, str(path)])
    assert "Traceback" not in err.getvalue()
    return status, out.getvalue(), err.getvalue()


# -- 1. deep nesting -----------------------------------------------------------------------------

DEEP = "[" * 100000 + "]" * 100000


def test_1_deep_arrays_are_refused_before_parsing():
    assert nesting(DEEP) == 100000
    assert unreadable(DEEP) == "json-too-deep"
    assert unreadable('{"a":' * 1000 + "1" + "}" * 1000) == "json-too-deep"


def test_1_nesting_counts_brackets_outside_strings_only():
    assert nesting('["[[[[", "\\"[[[", {"a": "}}}"}]') == 2
    assert nesting('"\\\\"[[]]') == 2  # an escaped backslash closes the string
    assert nesting('"unterminated [[[[') == 0
    deepest = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert loads(deepest) == json.loads(deepest)
    assert unreadable("[" + deepest + "]") == "json-too-deep"


def test_1_a_deeply_nested_python_value_is_a_problem_not_a_recursion_error():
    deep = []
    for _ in range(100000):
        deep = [deep]
    assert problems({**TWO, "variant": deep}) == {("variant", "unknown-variant")}
    assert problems({**TWO, "points": deep}) == {("points", "not-a-number")}
    assert problems({**TWO, "rules": {"klop_scoring": deep}}) == {
        ("rules.klop_scoring", "bad-switch-value")}
    with pytest.raises(RulesError) as caught:
        score_hand({**TWO, "contract": deep})
    assert str(caught.value).startswith("contract: unknown contract [[[...]]]; these rules have:")


def test_1_the_cli_refuses_deep_arrays_and_objects_in_one_line(tmp_path):
    for text in (DEEP, '{"a":' * 5000 + "1" + "}" * 5000):
        status, out, err = cli(tmp_path, text)
        assert (status, out) == (1, "")
        assert err.splitlines() == [f"{tmp_path / 'input.json'}: not readable JSON: nested "
                                    f"deeper than {MAX_DEPTH} levels"]


# -- 2. Infinity, -Infinity, 1e400 as points ------------------------------------------------------

@pytest.mark.parametrize("text, code", [
    ('{"points": Infinity}', "json-not-a-number"),
    ('{"points": -Infinity}', "json-not-a-number"),
    ('{"points": NaN}', "json-not-a-number"),
    ('{"points": 1e400}', "json-number-out-of-range"),
    ('{"points": -1e400}', "json-number-out-of-range"),
    ('{"points": 1e-99999999999999999999}', "json-number-out-of-range"),
    ('{"points": 1' + "0" * 30 + "}", "json-number-too-long"),
    ('{"points": 0.' + "5" * 30 + "}", "json-number-too-long"),
])
def test_2_json_text_with_numbers_json_has_not_or_too_large(text, code):
    assert unreadable(text) == code
    assert unreadable(text, decimals=False) == code


@pytest.mark.parametrize("value, code", [
    (float("inf"), "not-a-number"), (float("-inf"), "not-a-number"), (float("nan"), "not-a-number"),
    (1e308, "out-of-range"), (-1e308, "out-of-range"), (10 ** 400, "out-of-range"),
    (Decimal("1e400"), "out-of-range"), (Decimal("-1e1000000"), "out-of-range"),
    (Decimal("Infinity"), "not-a-number"), (Decimal("NaN"), "not-a-number"),
    (Decimal("sNaN"), "not-a-number"), (True, "not-a-number"), ("40", "not-a-number"),
    (Decimal("1e-1000000"), "not-an-integer"), (40.5, "not-an-integer"),
])
def test_2_python_numbers_the_reader_may_be_handed(value, code):
    assert problems({**TWO, "points": value}) == {("points", code)}


def test_2_a_json_hand_with_infinite_points_is_refused_at_the_text(tmp_path):
    status, out, err = cli(tmp_path, json.dumps({**TWO, "points": float("inf")}))
    assert (status, out) == (1, "")
    assert err.endswith("not readable JSON: Infinity is not a number JSON has\n")
    assert len(err.splitlines()) == 1


# -- 3. preset of the wrong type ------------------------------------------------------------------

@pytest.mark.parametrize("preset", [[], {}, ["seed"], 1, None, Decimal("sNaN"), True])
def test_3_a_preset_that_is_not_text(preset):
    assert problems({**TWO, "rules": {"preset": preset}}) == {("rules.preset", "not-a-string")}
    with pytest.raises(RulesError):
        resolve_rules("czech", {"preset": preset})
    p = Problems()
    assert get_variant("french-4").read_rules({"preset": preset}, "rules", p) is None
    assert [(x.path, x.code) for x in p] == [("rules.preset", "not-a-string")]
    assert sheet_problems({"variant": "slovenian-4", "rules": {"preset": preset},
                           "players": FOUR, "hands": [{"contract": "redeal"}]}) == {
        ("rules.preset", "not-a-string")}


WRONG_SWITCH_VALUES = [[], {}, "x" * 100, 10 ** 400, float("nan"), Decimal("sNaN"), None,
                       [[1, 2]], {"a": []}, {"two": []}, {"trula": {}}]


@pytest.mark.parametrize("variant, switch, value", [
    (v.id, name, value) for v in rules.variants() for name, switch in v.switches.items()
    for value in WRONG_SWITCH_VALUES
    if not (switch.read_map is not None and value == {})])  # no overrides in a map: fine
def test_3_every_switch_of_a_wrong_type_is_a_problem_at_it(variant, switch, value):
    with pytest.raises(RulesError) as caught:
        get_variant(variant).rules({switch: value})
    assert {p.path.partition(f"rules.{switch}")[0] for p in caught.value.problems} == {""}
    str(caught.value)


def test_3_switch_numbers_are_bounded():
    assert problems({**TWO, "rules": {"mondfang": 10 ** 100}}) == {("rules.mondfang", "out-of-range")}
    assert problems({**TWO, "rules": {"values": {"two": 10 ** 9}}}) == {
        ("rules.values.two", "at-most")}
    assert problems({**TWO, "rules": {"bonus_values": {"trula": [10, 10 ** 9]}}}) == {
        ("rules.bonus_values.trula", "bad-switch-value")}
    assert problems({**TWO, "rules": {"values": {("two",): 20, "three\x00": 10}}}) == {
        ("rules.values.('two',)", "unknown-contract"), ("rules.values.'three\\x00'", "unknown-contract")}


# -- 4. NaN as an adjustment ----------------------------------------------------------------------

@pytest.mark.parametrize("amount", [float("nan"), Decimal("NaN"), Decimal("sNaN"),
                                    Decimal("-Infinity"), float("inf"), [], {}, "5", True])
def test_4_an_adjustment_that_is_not_a_number(amount):
    data = {**ADJUSTMENT, "adjustments": [{"player": "Ana", "amount": amount}]}
    assert problems(data) == {("adjustments[0].amount", "not-a-number")}


def test_4_the_cli_refuses_nan_in_the_text(tmp_path):
    text = json.dumps(ADJUSTMENT).replace('"amount": 5', '"amount": NaN')
    status, _, err = cli(tmp_path, text)
    assert status == 1 and err.endswith("not readable JSON: NaN is not a number JSON has\n")


# -- 5. unhashable names --------------------------------------------------------------------------

@pytest.mark.parametrize("name", [[], {}, ["trula"], {"trula": 1}, 5, Decimal("sNaN"), False])
def test_5_a_bonus_name_that_is_not_text(name):
    assert problems({**TWO, "bonuses": [{"name": name}]}) == {("bonuses[0].name", "not-a-string")}


@pytest.mark.parametrize("name", [{}, [], ["trul"], 5, Decimal("sNaN")])
def test_5_a_declaration_name_that_is_not_text(name):
    data = {**SOLO, "declarations": [{"player": "Ana", "name": name}]}
    assert problems(data) == {("declarations[0].name", "not-a-string")}
    assert problems({**SOLO, "declarations": [{"player": "Ana"}]}) == {
        ("declarations[0].name", "missing")}


@pytest.mark.parametrize("field, value, expected", [
    ("side", [], ("bonuses[0].side", "unknown-side")),
    ("side", Decimal("sNaN"), ("bonuses[0].side", "unknown-side")),
    ("contra", Decimal("sNaN"), ("bonuses[0].contra", "contra-unannounced")),
    ("contra", [], ("bonuses[0].contra", "contra-unannounced")),
    ("player", {}, ("bonuses[0].player", "player-not-used")),
])
def test_5_other_bonus_fields_of_strange_types(field, value, expected):
    assert problems({**TWO, "bonuses": [{"name": "trula", field: value}]}) == {expected}


def test_5_a_poignee_level_that_is_not_text():
    data = {"variant": "french-4", "players": FOUR, "contract": "garde", "declarer": "Ana",
            "points": 50, "oudlers": 2}
    for level in ([], {}, Decimal("sNaN"), 1):
        bonus = {"name": "poignee", "player": "Ana", "level": level}
        assert problems({**data, "bonuses": [bonus]}) == {("bonuses[0].level", "unknown-level")}


def test_5_keys_of_strange_types_in_player_maps():
    data = {"variant": "czech", "players": FOUR, "contract": "varsovia",
            "points_by_player": {"Ana": 40, "Bor": 10, "Cene": 10, "Dani": 10, 5: 1}}
    assert problems(data) == {("points_by_player.5", "unknown-player")}


# -- 6. the hands of a sheet ----------------------------------------------------------------------

SHEET = {"variant": "slovenian-4", "players": FOUR}


@pytest.mark.parametrize("hands, code", [
    (5, "not-a-list"), (True, "not-a-list"), ("hands", "not-a-list"), ({}, "not-a-list"),
    (None, "missing"), ([], "empty-sheet"), ([{"contract": "redeal"}] * (MAX_HANDS + 1),
                                             "too-many-hands"),
])
def test_6_read_sheet_reports_the_hands_and_returns_no_sheet(hands, code):
    data = {**SHEET, "hands": hands}
    p = Problems()
    assert read_sheet(data, p) is None
    assert [(x.path, x.code) for x in p] == [("hands", code)]
    assert sheet_problems(data) == {("hands", code)}


def test_6_a_missing_hands_field_and_the_limit():
    p = Problems()
    assert read_sheet(SHEET, p) is None
    assert [(x.path, x.code) for x in p] == [("hands", "missing")]
    result = score_sheet({**SHEET, "hands": [{"contract": "redeal"}] * MAX_HANDS})
    assert len(result.rows) == MAX_HANDS == 1000
    with pytest.raises(RulesError) as caught:
        score_sheet({**SHEET, "hands": [{"contract": "redeal"}] * 1001})
    assert str(caught.value) == "hands: a sheet holds at most 1000 hands (one session), not 1001"


def test_6_players_of_a_sheet_must_be_a_list_of_names():
    for players, expected in [
        ("Ana", {("players", "not-a-list")}),
        ([1, "Bor", "Cene", "Dani"], {("players[0]", "not-a-string")}),
        ([["Ana"], "Bor", "Cene", "Dani"], {("players[0]", "not-a-string")}),
        (["Ana"] * 100000, {("players", "player-count")}),  # the count, not 100,000 problems
    ]:
        assert sheet_problems({**SHEET, "players": players, "hands": [{"contract": "redeal"}]}) \
            == expected


# -- 9. one range check for every adjustment ------------------------------------------------------

@pytest.mark.parametrize("amount, expected", [
    (2000000, "out-of-range"), (-2000000, "out-of-range"), (1000001, "out-of-range"),
    (10 ** 400, "out-of-range"), (Decimal("1000000.01"), "out-of-range"),
    (2e6, "out-of-range"), (Decimal("1e1000000"), "out-of-range"),
    (Decimal("0.001"), "not-hundredths"),
])
def test_9_adjustments_share_one_range_check(amount, expected):
    data = {**ADJUSTMENT, "adjustments": [{"player": "Ana", "amount": amount}]}
    assert problems(data) == {("adjustments[0].amount", expected)}


@pytest.mark.parametrize("amount, scored", [
    (1000000, 1000000), (-1000000, -1000000), (Decimal("999999.99"), Decimal("999999.99")),
    (Decimal("-1000000.00"), -1000000), (12.5, Decimal("12.50")),
])
def test_9_adjustments_at_the_limits_are_scored(amount, scored):
    data = {**ADJUSTMENT, "adjustments": [{"player": "Ana", "amount": amount}]}
    assert score_hand(data).amounts["Ana"] == scored


# -- 10. control characters and lengths -----------------------------------------------------------

@pytest.mark.parametrize("name", ["An\x00a", "Ana\t", "A\nna", "\x7fAna", "Ana\x1b[31m",
                                  "Ana\x85", "Ana\ud800"])
def test_10_a_player_name_with_a_control_character(name):
    players = [name, "Bor", "Cene", "Dani"]
    assert problems({**TWO, "players": players, "declarer": "Bor"}) == {
        ("players[0]", "control-character")}
    assert sheet_problems({**SHEET, "players": players, "hands": [{"contract": "redeal"}]}) == {
        ("players[0]", "control-character")}


def test_10_player_names_of_at_most_60_characters():
    long, longest = "A" * 61, "A" * 60
    assert problems({**TWO, "players": [long, "Bor", "Cene", "Dani"], "declarer": "Bor"}) == {
        ("players[0]", "too-long")}
    assert score_hand({**TWO, "players": [longest, "Bor", "Cene", "Dani"], "declarer": longest}) \
        .amounts["Cene"] == 25
    score_hand({**TWO, "players": ["Žan Čebašek", "Bor", "Cene", "Dani"],  # any script
                "declarer": "Žan Čebašek"})


@pytest.mark.parametrize("reason, expected", [
    ("a\x00b", {("adjustments[0].reason", "control-character")}),
    ("late\x1b", {("adjustments[0].reason", "control-character")}),
    ("\ud800", {("adjustments[0].reason", "control-character")}),
    ("x" * 201, {("adjustments[0].reason", "too-long")}),
    ([], {("adjustments[0].reason", "not-a-string")}),
])
def test_10_an_adjustment_reason_is_bounded_text(reason, expected):
    data = {**ADJUSTMENT, "adjustments": [{"player": "Ana", "amount": 5, "reason": reason}]}
    assert problems(data) == expected


def test_10_a_reason_may_hold_tabs_and_line_breaks():
    for reason in ("late\tagain\r\nand again\n", "x" * 200):
        data = {**ADJUSTMENT, "adjustments": [{"player": "Ana", "amount": 5, "reason": reason}]}
        assert score_hand(data).lines[0].text == f"adjustment: {reason}"


def test_10_bonus_and_declaration_names_with_nul_are_refused_and_shown_escaped():
    with pytest.raises(RulesError) as caught:
        score_hand({**TWO, "bonuses": [{"name": "tr\x00ula"}]})
    (problem,) = caught.value.problems
    assert (problem.path, problem.code) == ("bonuses[0].name", "unknown-bonus")
    assert "\x00" not in str(problem) and "'tr\\x00ula'" in str(problem)
    data = {**SOLO, "declarations": [{"player": "Ana", "name": "trul\x00"}]}
    assert problems(data) == {("declarations[0].name", "unknown-bonus")}


def test_10_an_unknown_key_with_a_nul_is_named_escaped():
    with pytest.raises(RulesError) as caught:
        score_hand({**TWO, "not\x00a key": 1, "k" * 5000: 2})
    paths = {p.path for p in caught.value.problems}
    assert "'not\\x00a key'" in paths
    assert all(len(path) < 100 and "\x00" not in path for path in paths)


def test_10_what_a_problem_shows_of_the_input_is_bounded():
    with pytest.raises(RulesError) as caught:
        score_hand({**TWO, "variant": "x" * 1_000_000})
    assert len(str(caught.value)) < 400
    with pytest.raises(RulesError) as caught:
        score_hand({**TWO, "variant": 10 ** 5000})  # repr() would raise past 4,300 digits
    assert "a number of 16610 bits" in str(caught.value)


# -- 18. the command line -------------------------------------------------------------------------

@pytest.mark.parametrize("data, line", [
    ({**TWO, "rules": {"preset": []}}, "rules.preset: must be text"),
    ({**TWO, "bonuses": [{"name": []}]}, "bonuses[0].name: must be text"),
    ({**SOLO, "declarations": [{"player": "Ana", "name": {}}]},
     "declarations[0].name: must be text"),
    ({**ADJUSTMENT, "adjustments": [{"player": "Ana", "amount": 2000000}]},
     "adjustments[0].amount: must be between −1000000 and 1000000"),
    ({**SHEET, "hands": 5}, "hands: must be a list"),
])
def test_18_the_cli_prints_rule_problems_one_a_line_and_exits_2(tmp_path, data, line):
    status, out, err = cli(tmp_path, json.dumps(data))
    assert (status, out, err) == (2, "", line + "\n")


@pytest.mark.parametrize("text, reason", [
    ('{"points": 1e1000000}', "the number 1e1000000 is out of range"),
    ('{"points": Infinity}', "Infinity is not a number JSON has"),
    ('{"amount": NaN}', "NaN is not a number JSON has"),
    ('{"points": ' + "9" * 40 + "}", "a number longer than 30 characters"),
    ('{"variant": ', "Expecting value (line 1, column 13)"),
    ("", "Expecting value (line 1, column 1)"),
    (b"\xff\xfe{}", "not UTF-8 text"),
    ("[" * 40 + "]" * 40, "nested deeper than 32 levels"),
])
def test_18_unreadable_text_is_one_line_and_status_1(tmp_path, text, reason):
    status, out, err = cli(tmp_path, text)
    assert (status, out) == (1, "")
    assert err == f"{tmp_path / 'input.json'}: not readable JSON: {reason}\n"


def test_18_a_file_too_large_or_not_a_file(tmp_path):
    status, _, err = cli(tmp_path, " " * 2_000_001)
    assert status == 1 and err.endswith("not readable JSON: larger than 2000000 bytes\n")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        assert main(["score", str(tmp_path)]) == 1
        assert main(["score", str(tmp_path / "missing.json")]) == 1
    assert len(err.getvalue().splitlines()) == 2 and "Traceback" not in err.getvalue()


def test_18_a_byte_order_mark_is_read_as_the_web_import_reads_it(tmp_path):
    text = "\ufeff" + json.dumps({**TWO, "players": ["Žan", "Bor", "Cene", "Dani"],
                                  "declarer": "Žan"})
    status, out, err = cli(tmp_path, text)
    assert (status, err) == (0, "")
    assert json.loads(out)["amounts"] == {"Žan": 25, "Bor": 0, "Cene": 25, "Dani": 0}
    assert loads(text.encode("utf-8")) == loads(text) == json.loads(text[1:])


def test_18_python_m_rules_prints_no_traceback(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text(DEEP)
    done = subprocess.run([sys.executable, "-m", "rules", "score", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [f"{path}: not readable JSON: nested deeper than 32 levels"]


# -- timing: no number is expanded ----------------------------------------------------------------

@pytest.mark.parametrize("value", [Decimal("1e1000000"), Decimal("-1e1000000"),
                                   Decimal("1e999999999"),
                                   pytest.param(10 ** 100000, id="10**100000")])
def test_a_huge_number_is_refused_in_well_under_a_second(value, tmp_path):
    started = time.perf_counter()
    assert problems({**TWO, "points": value}) == {("points", "out-of-range")}
    data = {**ADJUSTMENT, "adjustments": [{"player": "Ana", "amount": value}]}
    assert problems(data) == {("adjustments[0].amount", "out-of-range")}
    assert problems({**SOLO, "contract": "trojka", "level": value}) == {("level", "out-of-range")}
    data = {"variant": "czech", "players": FOUR, "contract": "varsovia",
            "points_by_player": {"Ana": 40, "Bor": 10, "Cene": 10, "Dani": 10},
            "tricks_by_player": {"Ana": value, "Bor": 4, "Cene": 4, "Dani": 4}}
    assert problems(data) == {("tricks_by_player.Ana", "out-of-range")}
    assert time.perf_counter() - started < 1


def test_the_text_1e1000000_is_refused_in_well_under_a_second(tmp_path):
    started = time.perf_counter()
    status, _, _ = cli(tmp_path, '{"points": 1e1000000}')
    assert unreadable('{"points": 1e1000000}', decimals=False) == "json-number-out-of-range"
    assert status == 1
    assert time.perf_counter() - started < 1


def test_the_depth_scan_is_linear():
    for text in ['"' * 2_000_000, "[" * 1_000_000, '"\\"' * 600_000, '"a",' * 500_000]:
        started = time.perf_counter()
        nesting(text)
        assert time.perf_counter() - started < 2


# -- 19. slovenian-2: the piles add up to 70 or 71 ------------------------------------------------

def game(ana, bor, announcer=None):
    data = {"variant": "slovenian-2", "players": ["Ana", "Bor"], "contract": "game",
            "points_by_player": {"Ana": ana, "Bor": bor}}
    if announcer:
        data["announcer"] = announcer
    return data


def test_19_a_new_hand_whose_piles_add_up_to_80_is_refused():
    with pytest.raises(RulesError) as caught:
        score_hand(game(50, 30))
    (problem,) = caught.value.problems
    assert (problem.path, problem.code) == ("points_by_player", "slovenian-2-points-total")
    assert str(problem) == ("points_by_player: the piles add up to 80; all 54 cards are taken, "
                            "so the two piles add up to 70 or 71")
    for ana, bor in [(40, 29), (36, 36), (0, 0), (70, 70)]:
        assert problems(game(ana, bor)) == {("points_by_player", "slovenian-2-points-total")}


@pytest.mark.parametrize("ana, bor, announcer, expected", [
    # nobody announced: the player with more points gets p − 35, the other the opposite
    (40, 31, None, {"Ana": 5, "Bor": -5}),  # 40 − 35 = 5
    (31, 40, None, {"Ana": -5, "Bor": 5}),
    (35, 35, None, {"Ana": 0, "Bor": 0}),  # equal points → 0/0
    (36, 35, None, {"Ana": 1, "Bor": -1}),  # 36 − 35 = 1 (70 + 1: a pile of 71)
    # "I play": (p − 35) × 2 when he wins, −3 × max(1, 35 − p) when he does not
    (40, 31, "Ana", {"Ana": 10, "Bor": -10}),  # (40 − 35) × 2 = 10
    (35, 35, "Ana", {"Ana": -3, "Bor": 3}),  # −3 × max(1, 0) = −3
    (31, 40, "Ana", {"Ana": -12, "Bor": 12}),  # −3 × (35 − 31) = −12
])
def test_19_hands_whose_piles_add_up_to_70_or_71_are_scored(ana, bor, announcer, expected):
    assert score_hand(game(ana, bor, announcer)).amounts == expected


def test_19_a_stored_hand_keeps_its_score_when_read_again():
    # Recorded before RULES.md §1.6 said so: 50:30, Ana gets 50 − 35 = 15.
    assert score_hand(game(50, 30), entered=False).amounts == {"Ana": 15, "Bor": -15}
    sheet = {"variant": "slovenian-2", "players": ["Ana", "Bor"],
             "hands": [{"contract": "game", "points_by_player": {"Ana": 50, "Bor": 30}},
                       {"contract": "game", "points_by_player": {"Ana": 31, "Bor": 40}}]}
    assert score_sheet(sheet, entered=False).totals == {"Ana": 10, "Bor": -10}  # 15 − 5
    assert sheet_problems(sheet) == {("hands[0].points_by_player", "slovenian-2-points-total")}
    p = Problems()
    read = read_hand(game(50, 30), p, entered=False)
    assert read is not None and not p
    assert read_hand(game(50, 30), p) is None
    assert [(x.path, x.code) for x in p] == [("points_by_player", "slovenian-2-points-total")]


def test_19_a_stored_hand_keeps_what_the_newer_entry_checks_refuse():
    # Recorded before names, reasons and int amounts were limited: the session's rescoring
    # must not fail on it.
    old = {**ADJUSTMENT, "players": ["Ana\x1b", "Bor", "Cene", "Dani"],
           "adjustments": [{"player": "Ana\x1b", "amount": 2000000, "reason": "r" * 300}]}
    assert problems(old) == {("players[0]", "control-character")}
    assert problems({**old, "players": FOUR, "adjustments": [
        {"player": "Ana", "amount": 2000000, "reason": "r" * 300}]}) == {
        ("adjustments[0].amount", "out-of-range"), ("adjustments[0].reason", "too-long")}
    assert score_hand(old, entered=False).amounts["Ana\x1b"] == 2000000
    sheet = {"variant": "slovenian-4", "players": old["players"], "hands": [
        {"contract": "adjustment", "adjustments": old["adjustments"]}]}
    assert score_sheet(sheet, entered=False).totals["Ana\x1b"] == 2000000
    for amount in (10 ** 10 + 1, Decimal("1e1000000"), float("nan")):  # never safe to score
        data = {**ADJUSTMENT, "adjustments": [{"player": "Ana", "amount": amount}]}
        assert problems(data, entered=False) == {
            ("adjustments[0].amount", "not-a-number" if amount != amount else "out-of-range")}


def test_19_a_stored_hand_is_still_checked_for_everything_else():
    assert problems(game(50, "thirty"), entered=False) == {
        ("points_by_player.Bor", "not-a-number")}


def test_19_the_rules_version_changed():
    assert rules.RULES_VERSION == "2026.11.2"


# -- fuzzing: any value in any field --------------------------------------------------------------

STRANGE_NUMBERS = [
    0, -1, 1, 35, 36, 70, 71, 10 ** 6, 10 ** 6 + 1, 2 ** 63, 10 ** 30, -10 ** 30, 10 ** 400,
    0.5, -0.0, 1e308, 1e-308, 5e-324, float("inf"), float("-inf"), float("nan"),
    Decimal("1e1000000"), Decimal("-1e1000000"), Decimal("1e-1000000"), Decimal("0E+999999"),
    Decimal("NaN"), Decimal("-sNaN"), Decimal("sNaN"), Decimal("Infinity"), Decimal("37.5"),
    Decimal("0.005"), Decimal("1." + "0" * 60 + "1"),
]
WORDS = [
    "", " ", "Ana", "Bor", "Cene", "Dani", "Eva", "Ana\x00", "\x00", "\ud800", "\t", "A" * 61,
    "x" * 201, "seed", "tarzs", "fft", "declarer", "defenders", "trula", "kings", "valat",
    "pagat-ultimo", "mondfang", "simple", "double", "triple", "poignee", "game", "two", "klop",
    "trul", "trumps-10", "four-kings", "redeal", "adjustment", "preset", "hand", "item",
    "sum", "individual", "side",
]
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(), st.sampled_from(STRANGE_NUMBERS),
    st.floats(allow_nan=True, allow_infinity=True),
    st.decimals(allow_nan=True, allow_infinity=True),
    st.text(max_size=8), st.sampled_from(WORDS),
)
KEYS = st.one_of(st.text(max_size=6), st.sampled_from(WORDS + ["name", "player", "amount",
                                                               "contra", "level", "made"]))
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(KEYS, inner, max_size=4)),
    max_leaves=12,
)

BASES = [
    {**TWO, "dealer": "Dani", "contra": {"game": 1}, "rules": {"preset": "seed"},
     "bonuses": [{"name": "trula", "side": "declarer", "announced": True, "made": True,
                  "contra": 1}, {"name": "pagat-ultimo", "announced": False, "made": False}],
     "adjustments": [{"player": "Bor", "amount": Decimal("-1.25"), "reason": "x"}]},
    {"variant": "slovenian-4", "rules": {"preset": "tarzs", "mondfang": 21, "values": {"two": 20},
                                         "bonus_values": {"trula": [10, 20]}},
     "players": FOUR, "contract": "klop", "points_by_player": {"Ana": 20, "Bor": 20,
                                                              "Cene": 20, "Dani": 10},
     "tricks_by_player": {"Ana": 3, "Bor": 3, "Cene": 3, "Dani": 3},
     "radelci": {"Ana": 1}},
    {"variant": "slovenian-3", "players": ["Ana", "Bor", "Cene"], "contract": "two",
     "declarer": "Ana", "points": 39, "bonuses": [{"name": "kings", "side": "defenders"}]},
    {"variant": "slovenian-2", "players": ["Ana", "Bor"], "contract": "game",
     "points_by_player": {"Ana": 40, "Bor": 31}, "announcer": "Ana"},
    {**SOLO, "contract": "trojka", "level": 2, "contra": {"game": 1},
     "rules": {"declarations_payer": "individual"},
     "declarations": [{"player": "Ana", "name": "trul"}, {"player": "Bor", "name": "honours"}],
     "bonuses": [{"name": "pagat-ultimo", "announced": True, "contra": 2}]},
    {"variant": "czech", "players": FOUR, "contract": "varsovia",
     "points_by_player": {"Ana": 40, "Bor": 10, "Cene": 10, "Dani": 10},
     "tricks_by_player": {"Ana": 6, "Bor": 2, "Cene": 2, "Dani": 2}},
    {"variant": "zwanzigerrufen", "rules": {"valat_scoring": "sum", "premium_payer": "side"},
     "players": FOUR, "contract": "rufer", "declarer": "Ana", "partner": "Bor", "points": 60,
     "bonuses": [{"name": "absolut", "announced": True, "made": True},
                 {"name": "trull", "player": "Cene"}]},
    {"variant": "french-5", "players": FOUR + ["Eva"], "contract": "garde", "declarer": "Ana",
     "partner": "Bor", "points": Decimal("41.5"), "oudlers": 2,
     "bonuses": [{"name": "poignee", "player": "Cene", "level": "simple"},
                 {"name": "petit-au-bout", "side": "defenders"}]},
    {**ADJUSTMENT, "format": 1,
     "adjustments": [{"player": "Ana", "amount": 1000000, "reason": "a\tb"},
                     {"player": "Bor", "amount": -0.5}]},
]


def test_the_fuzzed_hands_start_from_hands_that_score():
    for base in BASES:
        score_hand(base)


def paths(value, prefix=()):
    """Every place in a hand where a value may be put: each key and item, and one more key of
    each object."""
    yield prefix
    if isinstance(value, dict):
        yield (*prefix, "extra")
        for key, item in value.items():
            yield from paths(item, (*prefix, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from paths(item, (*prefix, i))


def put(data, path, value):
    data = copy.deepcopy(data)
    if not path:
        return value
    target = data
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return data


@st.composite
def strange_hands(draw):
    data = draw(st.sampled_from(BASES))
    for _ in range(draw(st.integers(1, 3))):
        places = [p for p in paths(data) if p != ("variant",) or draw(st.booleans())]
        data = put(data, draw(st.sampled_from(places)), draw(VALUES))
        if not isinstance(data, dict):
            break
    return data


def answers(score, data, **kw):
    """``score`` returns a result or raises RulesError whose text can be printed; nothing else."""
    try:
        result = score(data, **kw)
    except RulesError as error:
        text = str(error)
        assert text and all(p.code in rules.labels.PROBLEMS for p in error.problems)
        assert "\x00" not in text
        text.encode("utf-8")  # no lone surrogate: printable, storable
        return None
    return result


@FUZZ
@given(strange_hands())
def test_any_value_in_any_field_is_a_result_or_a_rules_error(data):
    answers(score_hand, data)
    answers(score_hand, data, entered=False)
    if isinstance(data, dict):
        hand = {k: v for k, v in data.items() if k not in ("format", "variant", "rules")}
        sheet = {"variant": data.get("variant"), "rules": data.get("rules"),
                 "players": data.get("players"), "hands": [hand, hand]}
        answers(score_sheet, sheet)


@FUZZ
@given(st.sampled_from(BASES), st.sampled_from(["variant", "rules", "players", "hands",
                                                "format", "extra"]), VALUES)
def test_any_value_in_a_sheet_field_is_a_result_or_a_rules_error(base, field, value):
    hand = {k: v for k, v in base.items() if k not in ("format", "variant", "rules")}
    sheet = {"variant": base["variant"], "rules": base.get("rules"), "players": base["players"],
             "hands": [hand]}
    answers(score_sheet, {**sheet, field: value})
    p = Problems()
    if read_sheet({**sheet, field: value}, p) is not None:  # then its hands can be gone through
        assert isinstance(sheet["hands"] if field != "hands" else value, list)


def json_texts():
    """Text built from JSON's own pieces and some that are not, so that most of it comes near
    to parsing: brackets, strings with escapes, numbers long and short, NaN, BOMs."""
    pieces = st.sampled_from([
        "[", "]", "{", "}", ",", ":", '"', '\\"', "\\", "\\u0000", "\\ud800", '"a"', '"name"',
        "0", "-", "1", "9" * 31, ".5", "e", "E+", "1e400", "1e1000000", "NaN", "Infinity",
        "-Infinity", "true", "null", " ", "\n", "\ufeff", "\x00", "é",
    ])
    return st.lists(pieces, max_size=60).map("".join)


@FUZZ
@given(st.one_of(st.text(), json_texts(), st.binary(max_size=64)))
def test_loads_returns_a_value_or_says_why_not(text):
    for decimals in (True, False):
        try:
            value = loads(text, decimals=decimals, max_bytes=1000)
        except UnreadableJSON as error:
            assert error.problems[0].code in JSON_PROBLEMS
            str(error)
        else:
            assert not isinstance(value, float) or value == value and abs(value) < 1e30


@FUZZ
@given(VALUES)
def test_loads_reads_back_what_json_writes(value):
    try:
        text = json.dumps(value, default=str)
    except (ValueError, TypeError, RecursionError):
        return
    try:
        read = loads(text)
    except UnreadableJSON as error:  # NaN, a huge number, or one too long
        assert error.problems[0].code in {"json-not-a-number", "json-number-too-long",
                                          "json-number-out-of-range"}
    else:
        assert json.dumps(read, default=str) == json.dumps(json.loads(text), default=str) or \
            read == json.loads(text, parse_float=Decimal)


CLI_FILE = os.path.join(tempfile.gettempdir(), f"test_hostile_input_{os.getpid()}.json")


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.one_of(json_texts(), strange_hands().map(lambda d: json.dumps(d, default=str)),
                 st.binary(max_size=40)), st.booleans())
def test_the_cli_exits_0_1_or_2_and_prints_no_traceback(text, table):
    with open(CLI_FILE, "wb") as f:
        f.write(text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass"))
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(["score", *(["--text"] if table else []), CLI_FILE])
    finally:
        os.unlink(CLI_FILE)
    assert status in (0, 1, 2)
    assert "Traceback" not in err.getvalue()
    assert (status == 0) == (err.getvalue() == "")
    if status == 1:
        assert len(err.getvalue().splitlines()) == 1


def test_problems_come_in_the_order_written_whatever_the_run():
    """Unknown keys and unused fields are reported in the order the hand writes them, and
    missing fields in the order of HANDS.md: the same text gives the same list of problems
    in every run (a set's order changes with Python's string hashing, from run to run)."""
    hand = {
        "variant": "slovenian-4",
        "players": ["Ana", "Bor", "Cene", "Dani"],
        "contract": "beggar",
        "zeta": 1,
        "oudlers": 2,
        "alpha": 2,
        "level": 1,
        "bonuses": [{"name": "trula", "wind": 1, "colour": 2, "announced": False}],
        "mid": 3,
    }
    script = (
        "import json, sys\n"
        "from rules import RulesError, score_hand\n"
        "try:\n    score_hand(json.loads(sys.argv[1]))\n"
        "except RulesError as e:\n    print(json.dumps([p.path for p in e.problems]))\n"
    )
    runs = set()
    for seed in ("1", "2", "3", "4"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        answer = subprocess.run(
            [sys.executable, "-c", script, json.dumps(hand)],
            capture_output=True,
            text=True,
            env=env,
            check=True,
            cwd=Path(__file__).resolve().parents[2],
        )
        runs.add(answer.stdout)
    assert len(runs) == 1, runs
    assert json.loads(runs.pop()) == [
        "zeta",
        "alpha",
        "mid",
        "oudlers",
        "level",
        "declarer",
        "made",
        "bonuses[0].wind",
        "bonuses[0].colour",
        "bonuses[0].name",
    ]
