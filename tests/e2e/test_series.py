"""A cup's standing on a 360 px phone: a column per tournament read as cards, nothing
scrolling sideways, no browser error or CSP violation."""

import pytest
from playwright.sync_api import expect

from scorebook.series import services
from tests.series.conftest import (  # noqa: F401  (fixture)
    SEASON_END,
    SEASON_START,
    admins,
    play_round,
    start,
    three_player_cup,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct horse battery"  # as tests/conftest.py's make_user


def test_the_standing_reads_as_cards_at_360_px(browser, live_server, club, admins):  # noqa: F811
    lea = admins["club"]
    series = services.create_series(
        club=club, user=lea, rated=False, plan=services.SeriesPlan("Winter cup")
    )
    season = services.add_season(
        series, services.SeasonPlan("2026/27", SEASON_START, SEASON_END, best_n=1)
    )
    names = ["Ana Novak", "Bor Kranjc", "Cene Zupančič"]
    for day, order in ((5, names), (12, names[::-1])):
        tournament = three_player_cup(club, lea, f"Cup {day}", day, names, rounds=1)
        services.add_tournament(season, tournament, lea)
        start(tournament, day)
        play_round(tournament, 1, order)  # committed: the table, then the series, follow

    context = browser.new_context(viewport={"width": 360, "height": 780}, base_url=live_server.url)
    page = context.new_page()
    errors = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("lea")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(f"/c/{club.slug}/series/{series.pk}/")
    expect(page.get_by_role("heading", name="Standing")).to_be_visible()
    # Best 1 of 2: Ana's and Cene's 25 count (Cene won the later cup: he is first), Bor's 20
    # and 20 one of them, the other in brackets.
    names_shown = page.locator("table.series-table tbody th")
    expect(names_shown).to_have_text(["Cene Zupančič", "Ana Novak", "Bor Kranjc"])
    expect(page.locator("td.dropped")).to_have_count(3)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    # Each tournament's cell names its column: a card shows "Cup 5" over its points.
    label = page.locator("table.series-table tbody tr").nth(1).locator('td[data-label="Cup 5"]')
    expect(label).to_have_text("25.00")
    assert errors == []
    context.close()
