"""A tournament day at a real club: the organiser edits until the start, adds walk-ins at the
door, closes registration when he says; French 5 and placement-point presets; every
destructive one-tap action asks first."""

from __future__ import annotations

import datetime
from decimal import Decimal as D

import pytest
from django.urls import reverse
from django.utils import timezone

from scorebook.models import Player
from scorebook.services import ServiceError
from scorebook.tournaments import services
from scorebook.tournaments.models import Registration, Status, Tournament
from tests.tournaments.helpers import CREATED, START, announce, at, klop, seated


def url(name, tournament, **kwargs):
    return reverse(
        f"scorebook:tournaments:{name}",
        kwargs={"club": tournament.club.slug, "tournament": tournament.pk, **kwargs},
    )


def field_error(html: str, field: str) -> str:
    """The error list the form shows under `field` ('' when there is none)."""
    parts = html.split(f'id="id_{field}_error">')
    return parts[1].split("</ul>")[0] if len(parts) > 1 else ""


def plan_form(tournament: Tournament | None = None, **values) -> dict:
    """The organiser's form as posted: a Slovenian four-player Swiss three days ahead."""
    day = timezone.localdate() + datetime.timedelta(days=3)
    data = {
        "name": "Advent cup",
        "variant": "slovenian-4",
        "start_date": day.isoformat(),
        "start_time": "19:00",
        "registration_closes": "",
        "hands_per_table": "1",
        "rounds": "2",
        "capacity": "8",
        "points_preset": "n-place",
        "placement_points": "",
        "confirmation": "off",  # the tables finish on their last hand, as before issue 27
    }
    data.update(values)
    return data


@pytest.fixture
def later(club, organiser):
    return announce(club, organiser)


def create(client, club, **values):
    return client.post(
        reverse("scorebook:tournaments:create", kwargs={"club": club.slug}), plan_form(**values)
    )


# --- Editing until the start ----------------------------------------------------------------


def test_the_organiser_edits_the_tournament_before_the_start(later, organiser, client_as):
    client = client_as(organiser)
    page = client.get(url("edit", later)).content.decode()
    assert 'value="Advent cup"' in page and "Save the changes" in page
    closes = (timezone.localdate() + datetime.timedelta(days=2)).isoformat() + "T20:00"
    response = client.post(
        url("edit", later),
        plan_form(
            name="Advent open",
            variant="french-5",
            capacity="10",
            rounds="3",
            hands_per_table="6",
            registration_closes=closes,
            points_preset="own",
            placement_points="4, 3, 2, 1, 0",
        ),
    )
    assert response.status_code == 302, field_error(response.content.decode(), "variant")
    later.refresh_from_db()
    assert (later.name, later.variant, later.table_size) == ("Advent open", "french-5", 5)
    assert (later.capacity, later.rounds, later.hands_per_table) == (10, 3, 6)
    assert later.placement_points == [4, 3, 2, 1, 0]
    local_close = later.registration_closes_at.astimezone(later.tz)
    assert (local_close.isoformat()[:16]) == closes
    assert later.local_start().hour == 19


def test_fewer_places_send_the_last_registered_back_to_the_waiting_list(later, people):
    eva = [services.register(later, u) for u in people[:5]][-1]
    assert not eva.has_place
    plan = services.Plan(later.name, later.variant, later.starts_at, 1, 2, capacity=5)
    services.edit_tournament(later, plan)
    eva.refresh_from_db()
    assert eva.has_place
    services.edit_tournament(later, services.Plan(**{**vars(plan), "capacity": 4}))
    in_order = Registration.objects.order_by("registered_at", "id")
    assert [r.has_place for r in in_order] == [True, True, True, True, False]


def test_after_the_start_the_edit_page_says_it_cannot_be_changed(
    later, organiser, people, client_as
):
    Tournament.objects.filter(pk=later.pk).update(starts_at=timezone.now())
    client = client_as(organiser)
    page = client.get(url("edit", later)).content.decode()
    assert "This tournament has started: it can no longer be changed." in page
    assert "Save the changes" not in page
    response = client.post(url("edit", later), plan_form(name="Changed"))
    assert response.status_code == 409
    later.refresh_from_db()
    assert later.name == "Advent cup"
    with pytest.raises(ServiceError, match="can no longer be changed"):
        services.edit_tournament(
            later,
            services.Plan("Changed", "slovenian-4", later.starts_at, 1, 2, 4),
        )


# --- Walk-ins -------------------------------------------------------------------------------


def test_walk_ins_at_the_door_a_roster_player_and_a_new_name(later, organiser, club, client_as):
    zala = Player.objects.create(club=club, name="Zala")
    client = client_as(organiser)
    page = client.get(url("walk_in", later)).content.decode()
    assert ">Zala</option>" in page
    response = client.post(url("walk_in", later), {"player": zala.pk}, follow=True)
    assert "Zala has a place." in response.content.decode()
    response = client.post(url("walk_in", later), {"name": "  Tine  "}, follow=True)
    assert "Tine has a place." in response.content.decode()
    tine = Player.objects.get(club=club, name="Tine")
    walk_ins = Registration.objects.filter(tournament=later, user=None)
    assert {r.player for r in walk_ins} == {zala, tine}
    assert all(r.has_place and r.confirmed_at for r in walk_ins)
    # Zala is on the list now, not in the choice; the same name twice is refused at the field.
    page = client.get(url("walk_in", later)).content.decode()
    assert ">Zala</option>" not in page
    response = client.post(url("walk_in", later), {"name": "tine"})
    assert "already on the roster" in field_error(response.content.decode(), "name")
    response = client.post(url("walk_in", later), {})
    assert "Pick a roster player or enter a new name." in field_error(
        response.content.decode(), "player"
    )
    # The detail page lists them with the places.
    detail = client.get(url("detail", later)).content.decode()
    assert "Zala" in detail and "Tine" in detail


def test_a_walk_in_plays_at_the_start(make_tournament, people, club):
    tournament = make_tournament(capacity=4)
    for user in people[:3]:
        registration = services.register(tournament, user, now=CREATED)
        services.confirm_presence(registration, now=at(18, 50))
    services.add_walk_in(tournament, name="Zala", now=at(18, 55))
    tournament = services.start_tournament(tournament, now=START)
    assert tournament.status == Status.RUNNING
    table = tournament.round_set.get().tables.get()
    assert sorted(seated(table)) == ["Ana", "Bor", "Cene", "Zala"]


def test_walk_ins_after_the_places_run_out_wait(make_tournament, people, club):
    tournament = make_tournament(capacity=4)
    for user in people[:4]:
        services.register(tournament, user, now=CREATED)
    registration = services.add_walk_in(tournament, name="Zala", now=at(18, 0))
    assert not registration.has_place and registration.confirmed_at


def test_no_walk_in_after_the_start(later, organiser, club, client_as):
    Tournament.objects.filter(pk=later.pk).update(starts_at=timezone.now())
    client = client_as(organiser)
    assert "nobody more can join" in client.get(url("walk_in", later)).content.decode()
    response = client.post(url("walk_in", later), {"name": "Zala"})
    assert response.status_code == 409
    assert not Player.objects.filter(name="Zala").exists()
    with pytest.raises(ServiceError, match="nobody more can join"):
        services.add_walk_in(later, name="Zala")


def test_a_walk_in_removed_frees_his_place_for_the_first_waiting(
    later, people, organiser, client_as
):
    """Added by mistake, or gone home: the organiser removes him (asked first) until the
    start, and the first one waiting gets his place."""
    tournament = later  # four places
    for user in people[:3]:
        services.register(tournament, user)
    zala = services.add_walk_in(tournament, name="Zala")
    waiting = services.register(tournament, people[3])
    assert zala.has_place and not waiting.has_place
    client = client_as(organiser)
    remove = url("walk_in_remove", tournament, registration=zala.pk)
    assert f'href="{remove}"' in client.get(url("walk_in", tournament)).content.decode()
    assert "Remove Zala from the tournament?" in client.get(remove).content.decode()
    page = client.post(remove, follow=True).content.decode()
    assert "Zala is no longer registered." in page
    zala.refresh_from_db()
    waiting.refresh_from_db()
    assert not zala.is_active and waiting.has_place
    # Only one added at the door: a member cancels his own registration himself.
    member = tournament.registrations.get(user=people[0])
    assert client.post(url("walk_in_remove", tournament, registration=member.pk)).status_code == 404
    assert member.is_active


def test_no_walk_in_is_removed_after_the_start(later, organiser, client_as):
    zala = services.add_walk_in(later, name="Zala")
    Tournament.objects.filter(pk=later.pk).update(starts_at=timezone.now())
    client = client_as(organiser)
    page = client.post(url("walk_in_remove", later, registration=zala.pk), follow=True)
    assert "too late to cancel" in page.content.decode()
    zala.refresh_from_db()
    assert zala.is_active


def test_a_member_and_his_roster_player_are_one_registration(later, people, club):
    ana = Player.objects.create(club=club, name="Ana", user=people[0])
    services.add_walk_in(later, ana)
    with pytest.raises(ServiceError, match="already registered"):
        services.register(later, people[0])
    services.register(later, people[1])
    bor = Player.objects.create(club=club, name="Bor", user=people[1])
    with pytest.raises(ServiceError, match="already registered") as refused:
        services.add_walk_in(later, bor)
    assert refused.value.field == "player"


# --- Registration closes when the organiser says ------------------------------------------


def test_registration_closes_when_set(club, organiser, people, client_as):
    soon = (timezone.now() + datetime.timedelta(minutes=5)).astimezone(club_tz(club))
    response = create(
        client_as(organiser),
        club,
        start_date=(timezone.localdate() + datetime.timedelta(days=1)).isoformat(),
        registration_closes=soon.strftime("%Y-%m-%dT%H:%M"),
    )
    assert response.status_code == 302
    tournament = Tournament.objects.get()
    page = client_as(people[0]).get(url("detail", tournament)).content.decode()
    assert "Registration until" in page and f"{soon:%H:%M}." in page
    Tournament.objects.filter(pk=tournament.pk).update(registration_closes_at=timezone.now())
    client_as(people[0]).post(url("register", tournament))
    assert not Registration.objects.exists()
    # A close after the start is refused at its field.
    response = create(
        client_as(organiser),
        club,
        name="Late",
        registration_closes=(timezone.localdate() + datetime.timedelta(days=4)).isoformat()
        + "T10:00",
    )
    assert "at the start at the latest" in field_error(
        response.content.decode(), "registration_closes"
    )


def club_tz(club):
    import zoneinfo

    return zoneinfo.ZoneInfo(club.time_zone)


# --- Every game a table can play ------------------------------------------------------------


def test_french_5_is_offered_and_seats_five(club, organiser, client_as, make_tournament, people):
    page = client_as(organiser).get(reverse("scorebook:tournaments:create", args=[club.slug]))
    assert 'value="french-5"' in page.content.decode()
    tournament = make_tournament(variant="french-5", capacity=9)
    assert tournament.table_size == 5
    for user in people[:9]:
        registration = services.register(tournament, user, now=CREATED)
        services.confirm_presence(registration, now=at(18, 50))
    services.start_tournament(tournament, now=START)
    tables = list(tournament.round_set.get().tables.all())
    # Nine: a table of five and a last table of four, each playing its own French game.
    assert [len(seated(t)) for t in tables] == [5, 4]
    assert [t.session.variant for t in tables] == ["french-5", "french-4"]


# --- Placement points -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "preset", "stored", "full", "other"),
    [
        # §8.3 may draw a four beside threes (never a two): it gets 0 for its fourth place.
        (
            "slovenian-3",
            "three-player-championship",
            [2, 1, 0.5],
            "2 / 1 / ½",
            (4, ["2", "1", "½", "0"]),
        ),
        ("czech", "four-player-league", [4, 3, 2, 1], "4 / 3 / 2 / 1", None),
        ("slovenian-4", "n-place", [], "3 / 2 / 1 / 0", (3, ["2", "1", "0"])),
    ],
)
def test_each_preset_gives_its_written_out_points(
    club, organiser, client_as, variant, preset, stored, full, other
):
    client = client_as(organiser)
    assert create(client, club, variant=variant, points_preset=preset).status_code == 302
    tournament = Tournament.objects.get()
    assert tournament.placement_points == stored
    scheme = dict(services.points_scheme(tournament))
    assert " / ".join(scheme[tournament.table_size]) == full
    if other:
        assert scheme[other[0]] == other[1]
    page = client.get(url("ranking", tournament)).content.decode()
    assert full in page


def test_three_player_championship_shares_a_tie_for_second(make_tournament, people):
    tournament = make_tournament(variant="slovenian-3", placement_points=[2, 1, 0.5])
    assert services.share_places(
        [("Ana", D(-5)), ("Bor", D(-10)), ("Cene", D(-10))], services.points_for(tournament, 3)
    ) == [("Ana", 1, D("2.00")), ("Bor", 2, D("0.75")), ("Cene", 2, D("0.75"))]


def test_a_tie_for_second_at_a_real_table_scores_three_quarters(started):
    tournament = started(3, variant="slovenian-3", placement_points=[2, 1, 0.5], rounds=1)
    table = tournament.round_set.get().tables.get()
    a, b, c = seated(table)
    klop(table, **{a: 5, b: 10, c: 10})
    assert services.finish_table(table)
    points = {p.registration.player.name: p.points for p in table.placements.all()}
    assert points == {a: D("2.00"), b: D("0.75"), c: D("0.75")}


def test_a_league_table_of_three_gets_the_first_places_points(make_tournament):
    tournament = make_tournament(variant="czech", placement_points=[4, 3, 2, 1])
    assert services.points_for(tournament, 4) == [D(4), D(3), D(2), D(1)]
    assert services.points_for(tournament, 3) == [D(4), D(3), D(2)]


@pytest.mark.parametrize(
    ("text", "points"),
    [("2½, 1, ½", [2.5, 1, 0.5]), ("2.5 / 1 / 0.5", [2.5, 1, 0.5]), ("3;2;1", [3, 2, 1])],
)
def test_own_points_may_be_halves(club, organiser, client_as, text, points):
    response = create(
        client_as(organiser),
        club,
        variant="slovenian-3",
        points_preset="own",
        placement_points=text,
    )
    assert response.status_code == 302
    assert Tournament.objects.get().placement_points == points


@pytest.mark.parametrize(
    ("values", "field", "message"),
    [
        ({"points_preset": "own", "placement_points": "2.25, 1, 0"}, "placement_points", "half"),
        ({"points_preset": "own", "placement_points": "1001, 1, 0"}, "placement_points", "1000"),
        ({"points_preset": "own", "placement_points": "9" * 30}, "placement_points", "half"),
        ({"points_preset": "own", "placement_points": "a\x00"}, "placement_points", "character"),
        ({"points_preset": "own", "placement_points": ""}, "placement_points", "Enter the points"),
        ({"placement_points": "2, 1, 0"}, "placement_points", "our own points"),
        ({"points_preset": "four-player-league"}, "points_preset", "tables of 4"),
        ({"points_preset": "no-such"}, "points_preset", "valid choice"),
        ({"capacity": "9" * 30}, "capacity", "less than or equal"),
        ({"rounds": "1e1000000"}, "rounds", "whole number"),
        ({"name": "Cup\x00"}, "name", "character"),
        ({"registration_closes": "2026-13-45T99:99"}, "registration_closes", "valid"),
        ({"variant": "slovenian-4\x00"}, "variant", "valid choice"),
    ],
)
def test_strange_input_is_answered_at_its_field(club, organiser, client_as, values, field, message):
    response = create(client_as(organiser), club, **{"variant": "slovenian-3", **values})
    assert response.status_code == 200
    assert message in field_error(response.content.decode(), field)
    assert not Tournament.objects.exists()


def test_strange_walk_in_names_are_answered_at_the_field(later, organiser, client_as):
    client = client_as(organiser)
    for name, message in (("Zala\x00", "character"), ("Z" * 500, "characters")):
        response = client.post(url("walk_in", later), {"name": name})
        assert response.status_code == 200
        assert message in field_error(response.content.decode(), "name")
    response = client.post(url("walk_in", later), {"player": "9" * 30})
    assert field_error(response.content.decode(), "player")
    assert not Registration.objects.exists()


# --- Asking first ---------------------------------------------------------------------------


def test_cancel_registration_asks_first(later, people, client_as):
    client = client_as(people[0])
    client.post(url("register", later))
    page = client.get(url("cancel", later)).content.decode()
    assert "Cancel your registration?" in page and 'method="post"' in page
    assert f'href="{url("detail", later)}"' in page  # Back
    assert Registration.objects.get().is_active
    client.post(url("cancel", later))
    assert not Registration.objects.get().is_active


def test_starting_asks_first(later, organiser, people, client_as):
    Tournament.objects.filter(pk=later.pk).update(
        starts_at=timezone.now() + datetime.timedelta(minutes=10)
    )
    for user in people[:4]:
        Registration.objects.create(
            tournament=later,
            user=user,
            registered_at=timezone.now(),
            has_place=True,
            confirmed_at=timezone.now(),
        )
    client = client_as(organiser)
    detail = client.get(url("detail", later)).content.decode()
    assert f'href="{url("start", later)}"' in detail
    page = client.get(url("start", later)).content.decode()
    assert "Start the tournament now?" in page
    later.refresh_from_db()
    assert later.status == Status.SCHEDULED
    assert client.post(url("start", later))["Location"] == url("draw", later)
    later.refresh_from_db()
    assert later.status == Status.RUNNING


def test_close_and_reopen_a_session_ask_first(club, session, members, client_as):
    def session_url(name):
        return reverse(f"scorebook:{name}", kwargs={"club": club.slug, "session": session.pk})

    keeper = client_as(members["scorekeeper"])
    assert (
        f'href="{session_url("session_close")}"'
        in keeper.get(session_url("session")).content.decode()
    )
    page = keeper.get(session_url("session_close")).content.decode()
    assert "Close this session?" in page and ">Close</button>" in page and "Back" in page
    session.refresh_from_db()
    assert not session.is_closed
    keeper.post(session_url("session_close"))
    session.refresh_from_db()
    assert session.is_closed
    admin = client_as(members["admin"])
    assert "Reopen this session?" in admin.get(session_url("session_reopen")).content.decode()
    session.refresh_from_db()
    assert session.is_closed
    admin.post(session_url("session_reopen"))
    session.refresh_from_db()
    assert not session.is_closed
    # A viewer may not even see the question.
    assert client_as(members["viewer"]).get(session_url("session_close")).status_code == 403


def test_deleting_a_roster_player_asks_first(club, players, members, client_as):
    eva = players[-1]
    delete = reverse("scorebook:player_delete", kwargs={"club": club.slug, "player": eva.pk})
    admin = client_as(members["admin"])
    roster = admin.get(reverse("scorebook:roster", kwargs={"club": club.slug})).content.decode()
    assert f'href="{delete}"' in roster
    assert "Delete Eva from the roster?" in admin.get(delete).content.decode()
    assert Player.objects.filter(pk=eva.pk).exists()
    admin.post(delete)
    assert not Player.objects.filter(pk=eva.pk).exists()


# --- Another club ---------------------------------------------------------------------------


def test_another_clubs_tournament_is_404_for_edit_and_walk_ins(
    club, other_club, members, make_user, client_as
):
    from scorebook.models import Membership, Role

    theirs = announce(other_club, None, name="Zagreb open", open_to_all=True)
    admin = client_as(members["admin"])
    mine = {"club": club.slug, "tournament": theirs.pk}
    for name in ("edit", "walk_in", "start"):
        address = reverse(f"scorebook:tournaments:{name}", kwargs=mine)
        assert admin.get(address).status_code == 404
        assert admin.post(address, plan_form(name="Taken")).status_code == 404
    # Their viewer who is no admin of mine: an open tournament shows, its organiser pages not.
    guest = make_user("gost")
    Membership.objects.create(user=guest, club=club, role=Role.VIEWER)
    theirs_url = {"club": other_club.slug, "tournament": theirs.pk}
    for name in ("edit", "walk_in"):
        address = reverse(f"scorebook:tournaments:{name}", kwargs=theirs_url)
        assert client_as(guest).get(address).status_code == 404
    theirs.refresh_from_db()
    assert theirs.name == "Zagreb open" and not theirs.registrations.exists()
