"""A player's page after one evening: its charts have one point each (a flat stub)."""

import datetime

import pytest
from django.urls import reverse

from scorebook.league import services

from .conftest import add_hand, add_session

pytestmark = pytest.mark.django_db


def test_the_player_page_of_a_player_with_one_session_draws_its_charts(
    club, players, members, client_as
):
    ana, bor, cene, dani = players[:4]
    session = add_session(
        club,
        "slovenian-4",
        datetime.date(2026, 11, 1),
        [ana, bor, cene, dani],
        closing={"totals": {}, "settlement": {"nets": {}, "transfers": []}},
    )
    # A Decimal amount with cents: the league's sums come back from the database as Decimals.
    add_hand(session, 1, {"Ana": "30.50", "Bor": 0, "Cene": "-30.50", "Dani": 0}, declarer="Ana")
    services.rebuild_ratings(club)
    url = reverse("scorebook:league:player", kwargs={"club": club.slug, "player": ana.pk})
    response = client_as(members["viewer"]).get(url)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count("<polyline") == 2  # the one-evening stub of both charts
    assert "Running total of Ana" in html
