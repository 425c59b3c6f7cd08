"""Tournament pages: what a member, an admin and an outsider see and may do."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from scorebook.tournaments import services
from scorebook.tournaments.models import Registration, Status, Tournament
from tests.tournaments.helpers import LJ, klop, seated


def url(name, tournament, **kwargs):
    return reverse(
        f"scorebook:tournaments:{name}",
        kwargs={"club": tournament.club.slug, "tournament": tournament.pk, **kwargs},
    )


@pytest.fixture
def soon(club):
    """Starts in ten minutes: presence confirmation is open."""

    def make(**extra):
        values = {
            "club": club,
            "name": "Tonight",
            "variant": "slovenian-4",
            "table_size": 4,
            "starts_at": timezone.now() + datetime.timedelta(minutes=10),
            "capacity": 4,
            "hands_per_table": 1,
            "rounds": 1,
            "seed": 3,
            "confirmation": "off",  # the table finishes on its last hand, as before issue 27
        }
        values.update(extra)
        return Tournament.objects.create(**values)

    return make


@pytest.fixture
def later(club):
    return Tournament.objects.create(
        club=club,
        name="Advent cup",
        variant="slovenian-4",
        table_size=4,
        starts_at=timezone.now() + datetime.timedelta(days=3),
        capacity=4,
    )


def create_form(**values) -> dict:
    """The admin's form, filled in: a Slovenian four-player Swiss a week ahead."""
    data = {
        "name": "Advent cup",
        "variant": "slovenian-4",
        "start_date": (timezone.localdate() + datetime.timedelta(days=7)).isoformat(),
        "start_time": "19:30",
        "hands_per_table": "6",
        "rounds": "3",
        "capacity": "12",
        "points_preset": "n-place",
    }
    if "placement_points" in values:
        data["points_preset"] = "own"
    data.update(values)
    return data


def field_error(html: str, field: str) -> str:
    """The error list the form shows under `field`."""
    return html.split(f'id="id_{field}_error">')[1].split("</ul>")[0]


def test_admin_creates_a_tournament_in_the_clubs_time_zone(club, organiser, client_as):
    client = client_as(organiser)
    create = reverse("scorebook:tournaments:create", kwargs={"club": club.slug})
    assert b"Slovenian tarok, 2 players \xe2\x80\x94 knockout" in client.get(create).content
    data = create_form(variant="slovenian-3", placement_points="4, 2, 0")
    response = client.post(create, data)
    tournament = Tournament.objects.get(club=club)
    assert response.status_code == 302
    assert response["Location"] == url("detail", tournament)
    assert tournament.table_size == 3 and tournament.placement_points == [4, 2, 0]
    local = tournament.starts_at.astimezone(LJ)
    assert (local.date().isoformat(), local.hour, local.minute) == (data["start_date"], 19, 30)
    assert not tournament.open_to_all


def test_create_form_errors_stand_next_to_their_fields(club, organiser, client_as):
    client = client_as(organiser)
    create = reverse("scorebook:tournaments:create", kwargs={"club": club.slug})
    response = client.post(create, create_form(placement_points="3, 2, 1"))
    assert response.status_code == 200
    assert "Give points for each of the 4 places at a table." in field_error(
        response.content.decode(), "placement_points"
    )
    past = create_form(start_date=(timezone.localdate() - datetime.timedelta(days=1)).isoformat())
    response = client.post(create, past)
    assert "pick a later time" in field_error(response.content.decode(), "start_date")
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    "points", ["1e400", "9" * 30, "3, 2, 1, 1e1000000", "NaN, 2, 1, 0", "1001, 2, 1, 0", "a\x00"]
)
def test_strange_placement_points_are_refused_at_their_field(club, organiser, client_as, points):
    client = client_as(organiser)
    create = reverse("scorebook:tournaments:create", kwargs={"club": club.slug})
    response = client.post(create, create_form(placement_points=points))
    assert response.status_code == 200
    assert field_error(response.content.decode(), "placement_points")
    assert not Tournament.objects.exists()


def test_sign_up_page_shows_my_place_then_waiting(later, people, client_as):
    for user in people[:4]:
        client_as(user).post(url("register", later))
    ana = client_as(people[0]).get(url("detail", later)).content.decode()
    assert "You have a place." in ana and "Presence not confirmed yet." in ana
    eva = client_as(people[4])
    response = eva.post(url("register", later), follow=True)
    page = response.content.decode()
    assert "All places are taken: you are on the waiting list." in page
    assert "You are number 1 on the waiting list." in page
    assert "Cancel my registration" in page
    # Confirmation is not open three days ahead.
    assert "Confirm presence" not in page
    # Ana cancels: Eva has her place.
    client_as(people[0]).post(url("cancel", later))
    assert "You have a place." in eva.get(url("detail", later)).content.decode()


def test_confirm_button_in_the_last_15_minutes(soon, people, client_as):
    tournament = soon()
    client = client_as(people[0])
    client.post(url("register", tournament))  # registration runs until the start
    assert Registration.objects.get().has_place
    page = client.get(url("detail", tournament)).content.decode()
    assert "Confirm presence" in page
    page = client.post(url("confirm", tournament), follow=True).content.decode()
    assert "Your presence is confirmed." in page and "Presence confirmed." in page


def test_admin_starts_the_tournament_and_the_draw_links_to_the_sheets(
    soon, people, organiser, client_as
):
    tournament = soon()
    for user in people[:4]:
        Registration.objects.create(
            tournament=tournament,
            user=user,
            registered_at=timezone.now(),
            has_place=True,
            confirmed_at=timezone.now(),
        )
    detail = client_as(organiser).get(url("detail", tournament)).content.decode()
    assert "Start the tournament" in detail
    assert (
        "Start the tournament"
        not in client_as(people[0]).get(url("detail", tournament)).content.decode()
    )
    response = client_as(organiser).post(url("start", tournament))
    assert response["Location"] == url("draw", tournament)
    tournament.refresh_from_db()
    assert tournament.status == Status.RUNNING
    table = tournament.round_set.get().tables.get()
    draw = client_as(people[0]).get(url("draw", tournament)).content.decode()
    sheet = reverse(
        "scorebook:session", kwargs={"club": tournament.club.slug, "session": table.session_id}
    )
    assert f'href="{sheet}"' in draw
    assert "0 of 1 hands" in draw
    # Nobody has a place, points or units before the table finishes: dashes, not blanks.
    assert draw.count('<td class="num">–</td>') == 4 * 3
    standings = client_as(people[0]).get(url("standings", tournament)).content.decode()
    assert 'hx-trigger="every 10s"' in standings
    a, b, c, d = seated(table)
    # Hand by hand: the running total shows in the "Now" column before the table finishes.
    Tournament.objects.filter(pk=tournament.pk).update(hands_per_table=2)
    klop(table, **{a: 5, b: 10, c: 20, d: 35})
    live = client_as(people[0]).get(url("standings", tournament)).content.decode()
    row = live.split(f"<td>{d}</td>")[1].split("</tr>")[0]
    assert row.split('<td class="num">')[1:] == ["0</td>", "0</td>", "–</td>", "−35</td>"]
    klop(table, **{a: 5, b: 10, c: 20, d: 35})
    partial = client_as(people[0]).get(url("standings", tournament), HTTP_HX_REQUEST="true")
    text = partial.content.decode()
    assert "<html" not in text and "<h1" not in text
    # The page finished the table on its way: the tournament is over and stops polling.
    assert 'hx-trigger="every 10s"' not in text
    assert text.index(a) < text.index(b) < text.index(c) < text.index(d)
    ranking = client_as(people[0]).get(url("ranking", tournament)).content.decode()
    assert "Final ranking" in ranking and text.index(a) < text.index(d)


def test_another_clubs_member_gets_404_on_a_members_only_tournament(later, members, client_as):
    outsider = client_as(members["outsider"])
    for name in ("detail", "draw", "standings", "ranking", "bracket"):
        assert outsider.get(url(name, later)).status_code == 404, name
    for name in ("register", "cancel", "confirm", "start"):
        assert outsider.post(url(name, later)).status_code == 404, name
    assert not Registration.objects.exists()


def test_another_clubs_tournament_in_my_clubs_url_is_404(club, other_club, members, client_as):
    theirs = Tournament.objects.create(
        club=other_club,
        name="Zagreb open",
        variant="slovenian-4",
        table_size=4,
        starts_at=timezone.now() + datetime.timedelta(days=3),
        capacity=8,
        open_to_all=True,
    )
    admin = client_as(members["admin"])
    mine = {"club": club.slug, "tournament": theirs.pk}
    for name in ("detail", "draw", "standings", "ranking", "bracket"):
        assert admin.get(reverse(f"scorebook:tournaments:{name}", kwargs=mine)).status_code == 404
    for name in ("register", "start"):
        assert admin.post(reverse(f"scorebook:tournaments:{name}", kwargs=mine)).status_code == 404


def test_an_open_tournament_takes_anybody_with_an_account(later, make_user, client_as):
    later.open_to_all = True
    later.save()
    stranger = make_user("tomo", first_name="Tomo")
    client = client_as(stranger)
    page = client.get(url("detail", later)).content.decode()
    assert "Register" in page
    client.post(url("register", later))
    assert Registration.objects.get(user=stranger).has_place
    # The club's own pages stay closed to him.
    assert (
        client.get(
            reverse("scorebook:tournaments:list", kwargs={"club": later.club.slug})
        ).status_code
        == 404
    )


def test_bracket_page_for_a_knockout(soon, people, client_as):
    tournament = soon(variant="slovenian-2", table_size=2, capacity=3)
    for user in people[:3]:
        Registration.objects.create(
            tournament=tournament,
            user=user,
            registered_at=timezone.now(),
            has_place=True,
            confirmed_at=timezone.now(),
        )
    services.start_tournament(tournament)
    page = client_as(people[0]).get(url("bracket", tournament)).content.decode()
    assert page.count("(bye)") == 1
    assert "Round 1" in page


def test_starting_with_too_few_confirmed_cancels_and_says_so(
    soon, people, organiser, client_as, django_capture_on_commit_callbacks
):
    from django.core import mail

    tournament = soon()
    for user in people[:4]:
        Registration.objects.create(
            tournament=tournament, user=user, registered_at=timezone.now(), has_place=True
        )
    with django_capture_on_commit_callbacks(execute=True):
        response = client_as(organiser).post(url("start", tournament), follow=True)
    page = response.content.decode()
    assert "Too few players confirmed for one table: the tournament is cancelled" in page
    assert len(mail.outbox) == 4
