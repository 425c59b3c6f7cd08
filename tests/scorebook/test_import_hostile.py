"""The import page against what an attacker pastes: a message, never a 500, nothing stored.

Each text below answered 500 before (RecursionError, OverflowError, TypeError,
InvalidOperation, a NUL refused by PostgreSQL); the random ones must answer a page too.
"""

from __future__ import annotations

import json
import time

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorebook.models import Hand, Player, Session

PLAYERS = ["Ana", "Bor", "Cene", "Dani"]
GOOD_HAND = {"contract": "three", "declarer": "Ana", "partner": "Bor", "points": 40}


def sheet_text(hand: dict | None = None, **sheet) -> str:
    data = {"variant": "slovenian-4", "players": PLAYERS, "hands": [hand or GOOD_HAND]}
    data.update(sheet)
    return json.dumps(data, ensure_ascii=False)


def with_points(literal: str) -> str:
    return sheet_text({**GOOD_HAND, "points": 0}).replace('"points": 0', f'"points": {literal}')


HOSTILE = {
    "deep brackets": "[" * 100_000 + "]" * 100_000,
    "deep objects": '{"a":' * 50_000 + "1" + "}" * 50_000,
    "infinite points": with_points("Infinity"),
    "minus infinite points": with_points("-Infinity"),
    "overflowing points": with_points("1e400"),
    "a CPU bomb of points": with_points("1e1000000"),
    "a preset list": sheet_text(rules={"preset": []}),
    "a preset object": sheet_text(rules={"preset": {}}),
    "a NaN adjustment": sheet_text(
        {"contract": "adjustment", "adjustments": [{"player": "Ana", "amount": 0}]}
    ).replace('"amount": 0', '"amount": NaN'),
    "an integer adjustment over the cap": sheet_text(
        {"contract": "adjustment", "adjustments": [{"player": "Ana", "amount": 2_000_000}]}
    ),
    "a bonus name list": sheet_text({**GOOD_HAND, "bonuses": [{"name": []}]}),
    "hands a number": sheet_text(hands=5),
    "hands true": sheet_text(hands=True),
    "hands null": sheet_text(hands=None),
    "a NUL in a player's name": sheet_text(
        {**GOOD_HAND, "declarer": "A\x00na"}, players=["A\x00na", "Bor", "Cene", "Dani"]
    ),
    "a NUL in a reason": sheet_text(
        {
            "contract": "adjustment",
            "adjustments": [{"player": "Ana", "amount": 5, "reason": "late\x00"}],
        }
    ),
}


@pytest.fixture
def post_sheet(club, members, client_as):
    client = client_as(members["scorekeeper"])
    url = reverse("scorebook:sheet_import", kwargs={"club": club.slug})

    def post(text: str):
        return client.post(url, {"text": text})

    return post


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_sheet_is_answered_with_a_message_and_stores_nothing(name, post_sheet):
    started = time.perf_counter()
    response = post_sheet(HOSTILE[name])
    assert time.perf_counter() - started < 2, "no text may hold the server"
    assert response.status_code == 200
    page = response.content.decode()
    assert "Nothing was imported" in page or "This is not a readable JSON sheet." in page
    assert not Session.objects.exists() and not Player.objects.exists()


def test_a_sheet_with_a_byte_order_mark_imports(post_sheet):
    response = post_sheet("\ufeff" + sheet_text())
    assert response.status_code == 302
    assert Hand.objects.count() == 1


def test_the_message_says_what_is_wrong_with_the_text(post_sheet):
    page = post_sheet(HOSTILE["deep brackets"]).content.decode()
    assert "This is not a readable JSON sheet." in page and "32" in page


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**40), max_value=10**40)
    | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)
FIELDS = ["contract", "declarer", "partner", "points", "bonuses", "contra", "adjustments", "made"]


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    field=st.sampled_from(FIELDS + ["rules", "players", "variant", "hands"]),
    value=json_values,
)
def test_any_value_anywhere_in_a_sheet_is_a_page_not_a_500(post_sheet, field, value):
    if field in FIELDS:
        text = sheet_text({**GOOD_HAND, field: value})
    else:
        text = sheet_text(**{field: value})
    sessions = Session.objects.count()
    response = post_sheet(text)
    assert response.status_code in (200, 302)
    assert Session.objects.count() == sessions + (response.status_code == 302)
