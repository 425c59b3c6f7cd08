"""The tournament day at 360 px: the director's screen, and a player's "where do I go" that
follows the draw by itself (htmx) and reads the same after a reload."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from scorebook.tournaments import services
from scorebook.tournaments.models import Round
from tests.e2e.test_tournament import klop, log_in, log_out
from tests.tournaments import fixtures
from tests.tournaments.helpers import announce

people = fixtures.people
organiser = fixtures.organiser

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_director_and_a_player_at_360_px(phone, club, people, organiser):
    tournament = announce(club, organiser, round_minutes=30)
    opens = tournament.starts_at - datetime.timedelta(minutes=10)
    for user in people[:4]:
        services.confirm_presence(services.register(tournament, user), now=opens)
    tournament = services.start_tournament(tournament, now=opens)
    table = Round.objects.get(tournament=tournament, number=1).tables.get()
    type(table).objects.filter(pk=table.pk).update(
        ends_at=timezone.now() + datetime.timedelta(minutes=20)
    )
    where = {"club": club.slug, "tournament": tournament.pk}
    page = phone
    page.set_viewport_size({"width": 360, "height": 740})
    log_in(page, "olivia")
    page.goto(reverse("scorebook:tournaments:director", kwargs=where))
    expect(page.get_by_role("heading", name="Tournament director")).to_be_visible()
    expect(page.get_by_text("20 minutes left")).to_be_visible()
    expect(page.get_by_role("button", name="End the table")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    log_out(page)
    log_in(page, "ana")
    page.goto(reverse("scorebook:tournaments:detail", kwargs=where))
    others = [p.name for p in table.session.seated_players() if p.name != "Ana"]
    expect(
        page.get_by_role("heading", name=f"Round 1 — table 1 — with {', '.join(others)}")
    ).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    # The director ends the table: round 2 is drawn, and Ana's page follows without a reload
    # (it polls every 15 s; the test asks for the refresh at once).
    a, b, c, d = (p.name for p in table.session.seated_players())
    klop(table.session, **{a: 5, b: 10, c: 20, d: 35})
    services.end_table(tournament, table.pk, organiser)
    page.evaluate("document.getElementById('where').dispatchEvent(new Event('refresh'))")
    expect(page.get_by_role("heading", name="Round 2 — table 1 — with")).to_be_visible(
        timeout=20_000
    )
    page.reload()
    expect(page.get_by_role("heading", name="Round 2 — table 1 — with")).to_be_visible()
    assert page.console_errors == []
