"""The largest values a club can store leave every one of its pages working.

A value that passed every check once must never break a page after it: the longest player
name (with markup and a formula in it), the longest username, the largest adjustments both
ways, a closed session with its settlement, a season and a tournament. Every page of the club
answers each of its readers, and the name is shown as text.
"""

from __future__ import annotations

import datetime
import uuid

import pytest
from django.urls import reverse
from django.utils import timezone

from scorebook import hands, services
from scorebook.models import Hand, Membership, Player, Role, Session
from scorebook.tournaments.models import Tournament
from tests.scorebook.test_access import url_names

LONGEST_NAME = ('=<b>"Žan</b>' + "ž" * 60)[:60]
LONGEST_USERNAME = "u" * 150
MAX_ADJUSTMENT = 1_000_000


@pytest.fixture
def extreme_club(club, make_user):
    admin = make_user(LONGEST_USERNAME)
    Membership.objects.create(user=admin, club=club, role=Role.ADMIN)
    names = [LONGEST_NAME, "Bor", "Cene", "Dani"]
    players = [Player.objects.create(club=club, name=name) for name in names]
    club.seasons.create(name="S" * 60, starts_on=datetime.date(2000, 1, 1))
    session = services.start_session(
        club=club, variant_id="slovenian-4", preset="tarzs", players=players, user=admin
    )
    for amount in (MAX_ADJUSTMENT, -MAX_ADJUSTMENT, 999999.99, -999999.99):
        hands.record_hand(
            session,
            {
                "contract": "adjustment",
                "adjustments": [
                    {"player": LONGEST_NAME, "amount": amount, "reason": "r" * 200},
                    {"player": "Bor", "amount": amount},
                ],
            },
            uuid.uuid4(),
            admin,
        )
    hands.record_hand(
        session,
        {"contract": "three", "declarer": LONGEST_NAME, "partner": "Bor", "points": 70},
        uuid.uuid4(),
        admin,
    )
    Tournament.objects.create(
        club=club,
        name="T" * 80,
        variant="slovenian-4",
        table_size=4,
        starts_at=timezone.now() + datetime.timedelta(days=3),
        capacity=8,
    )
    return admin, players[0], session


def club_page_kwargs(name, club, player, session) -> dict | None:
    """The arguments of one of the club's pages that show its data; None for pages that take
    no stored object of this fixture (forms only, accounts)."""
    values = {
        "club": club.slug,
        "player": player.pk,
        "session": session.pk,
        "number": 1,
        "membership": Membership.objects.filter(club=club).first().pk,
        "season": club.seasons.first().pk,
        "tournament": Tournament.objects.get(club=club).pk,
    }
    params = url_names()[name]
    # The public pages (issue 30) answer 404 for a club that publishes nothing, as this one.
    if name.startswith("public:"):
        return None
    if "club" not in params or not params <= set(values):
        return None
    return {param: values[param] for param in params}


def test_every_page_of_the_club_answers_with_the_largest_values_stored(
    extreme_club, club, client_as
):
    admin, player, session = extreme_club
    amounts = set(session.hands.values_list("entries__amount", flat=True))
    assert MAX_ADJUSTMENT in amounts and -MAX_ADJUSTMENT in amounts
    client = client_as(admin)
    checked = []
    for name in sorted(url_names()):
        kwargs = club_page_kwargs(name, club, player, session)
        if kwargs is None:
            continue
        response = client.get(reverse(name, kwargs=kwargs))
        # 405: a POST-only action; 302: an action that sends its admin elsewhere (the last
        # admin cannot leave); every page that shows something answers 200.
        assert response.status_code in (200, 302, 405), (name, response.status_code)
        if response.status_code == 200:
            checked.append(name)
    for page in ("scorebook:sheet", "scorebook:session_settlement", "scorebook:league:player"):
        assert page in checked
    # Closed: the closing lines and the settlement are worked out from the same amounts.
    services.close_session(session, admin)
    for page in checked:
        if page not in ("scorebook:hand_new", "scorebook:hand_preview"):
            kwargs = club_page_kwargs(page, club, player, session)
            assert client.get(reverse(page, kwargs=kwargs)).status_code == 200, page


def test_the_name_is_text_on_the_pages_that_show_it(extreme_club, club, client_as):
    admin, player, session = extreme_club
    client = client_as(admin)
    for name, kwargs in (
        ("scorebook:sheet", {"session": session.pk}),
        ("scorebook:session_settlement", {"session": session.pk}),
        ("scorebook:roster", {}),
        ("scorebook:league:player", {"player": player.pk}),
    ):
        body = client.get(reverse(name, kwargs={"club": club.slug, **kwargs})).content.decode()
        assert "&lt;b&gt;" in body, name
        assert "<b>&quot;Žan" not in body and '<b>"Žan' not in body, name


def test_the_export_keeps_the_largest_amounts_and_no_formula(extreme_club, club, client_as):
    admin, player, session = extreme_club
    client = client_as(admin)
    url = reverse("scorebook:session_export_csv", kwargs={"club": club.slug, "session": session.pk})
    csv = client.get(url).content.decode()
    assert "'=<b>" in csv and "\n=" not in csv and ",=" not in csv
    assert "1000000" in csv and "-1000000" in csv
    assert Hand.objects.filter(session=session).count() == 5
    assert not Session.objects.get(pk=session.pk).is_closed
