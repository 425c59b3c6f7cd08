"""A session's season is the one whose days cover its date, whenever the season was added."""

import datetime
import uuid

import pytest
from django.urls import reverse

from scorebook import hands, services
from scorebook.league.models import PlayerSession
from scorebook.models import Season

pytestmark = pytest.mark.django_db

D = datetime.date


def play(club, players, members, date):
    """A slovenian-4 session on `date` with one recorded hand."""
    session = services.start_session(
        club=club,
        variant_id="slovenian-4",
        preset="seed",
        players=players[:4],
        user=members["scorekeeper"],
        date=date,
    )
    hand = {"contract": "three", "declarer": "Ana", "points": 40}
    hands.record_hand(session, hand, uuid.uuid4(), members["scorekeeper"])
    return session


def add_season(client, club, **fields):
    return client.post(reverse("scorebook:season_add", kwargs={"club": club.slug}), fields)


def edit_season(client, club, season, **fields):
    url = reverse("scorebook:season_edit", kwargs={"club": club.slug, "season": season.pk})
    return client.post(url, fields)


def standings(client, club, season):
    url = reverse("scorebook:league:standings", kwargs={"club": club.slug})
    return client.get(url, {"family": "slovenian", "season": season.pk}).content.decode()


def test_a_season_added_after_sessions_were_played_files_them(club, players, members, client_as):
    admin = client_as(members["admin"])
    november = play(club, players, members, D(2026, 11, 3))
    october = play(club, players, members, D(2026, 10, 30))
    assert (
        "Ana"
        in client_as(members["viewer"])
        .get(reverse("scorebook:league:standings", kwargs={"club": club.slug}))
        .content.decode()
    )  # the league's lines are written now, in no season

    response = add_season(admin, club, name="Winter", starts_on="2026-11-01")
    assert response.status_code == 302
    winter = Season.objects.get(name="Winter")
    november.refresh_from_db(), october.refresh_from_db()
    assert (november.season, october.season) == (winter, None)
    assert set(PlayerSession.objects.filter(session=november).values_list("season", flat=True)) == {
        winter.pk
    }
    html = standings(client_as(members["viewer"]), club, winter)
    assert "No hands have been played here yet." not in html
    assert "Ana" in html
    assert (
        "1 session"
        in admin.get(reverse("scorebook:seasons", kwargs={"club": club.slug})).content.decode()
    )


def test_changing_a_seasons_dates_refiles_its_sessions(club, players, members, client_as):
    admin = client_as(members["admin"])
    early = play(club, players, members, D(2026, 9, 20))
    late = play(club, players, members, D(2026, 10, 20))
    autumn = Season.objects.create(club=club, name="Autumn", starts_on=D(2026, 10, 1))
    services.save_season(autumn)
    early.refresh_from_db(), late.refresh_from_db()
    assert (early.season, late.season) == (None, autumn)

    response = edit_season(
        admin, club, autumn, name="Autumn", starts_on="2026-09-01", ends_on="2026-09-30"
    )
    assert response.status_code == 302
    early.refresh_from_db(), late.refresh_from_db()
    assert (early.season, late.season) == (autumn, None)
    assert not PlayerSession.objects.filter(session=late, season__isnull=False).exists()


def test_a_new_session_is_filed_by_its_date(club, players, members):
    winter = Season.objects.create(club=club, name="Winter", starts_on=D(2026, 11, 1))
    assert play(club, players, members, D(2026, 11, 29)).season == winter
    assert play(club, players, members, D(2026, 10, 31)).season is None


@pytest.mark.parametrize(
    ("starts_on", "ends_on", "field"),
    [
        # starts inside Autumn (1 Sept – 31 Oct)
        ("2026-10-15", "2026-12-31", "starts_on"),
        # ends inside Autumn
        ("2026-08-01", "2026-09-10", "ends_on"),
        # the same first day
        ("2026-09-01", "", "starts_on"),
        # runs across the whole of Autumn
        ("2026-08-01", "2026-12-31", "ends_on"),
    ],
)
def test_an_overlapping_season_is_refused_at_its_field(
    club, members, client_as, starts_on, ends_on, field
):
    Season.objects.create(
        club=club, name="Autumn", starts_on=D(2026, 9, 1), ends_on=D(2026, 10, 31)
    )
    response = add_season(
        client_as(members["admin"]), club, name="Clash", starts_on=starts_on, ends_on=ends_on
    )
    assert response.status_code == 200
    html = response.content.decode()
    error = html.split(f'id="id_{field}_error"')[1].split("</ul>")[0]
    assert "Seasons do not overlap: Autumn covers" in error
    assert not Season.objects.filter(name="Clash").exists()


def test_changing_a_season_into_another_is_refused_at_its_field(club, members, client_as):
    Season.objects.create(
        club=club, name="Autumn", starts_on=D(2026, 9, 1), ends_on=D(2026, 10, 31)
    )
    winter = Season.objects.create(club=club, name="Winter", starts_on=D(2026, 11, 1))
    response = edit_season(
        client_as(members["admin"]), club, winter, name="Winter", starts_on="2026-10-20"
    )
    assert response.status_code == 200
    assert 'id="id_starts_on_error"' in response.content.decode()
    winter.refresh_from_db()
    assert winter.starts_on == D(2026, 11, 1)


def test_an_open_season_ends_the_day_before_a_later_one_starts(club, players, members, client_as):
    admin = client_as(members["admin"])
    add_season(admin, club, name="Autumn", starts_on="2026-09-01")
    december = play(club, players, members, D(2026, 12, 5))
    autumn = Season.objects.get(name="Autumn")
    december.refresh_from_db()
    assert december.season == autumn and autumn.ends_on is None

    response = add_season(admin, club, name="Winter", starts_on="2026-11-01")
    assert response.status_code == 302
    autumn.refresh_from_db()
    assert autumn.ends_on == D(2026, 10, 31)
    december.refresh_from_db()
    assert december.season.name == "Winter"
    messages = [str(m) for m in response.wsgi_request._messages]
    assert any("Autumn now ends on" in m for m in messages), messages


def test_an_open_season_added_before_a_later_one_ends_the_day_before_it(club, members):
    Season.objects.create(club=club, name="Winter", starts_on=D(2026, 11, 1))
    summer = Season(club=club, name="Summer", starts_on=D(2026, 6, 1))
    assert services.save_season(summer) == [summer]
    summer.refresh_from_db()
    assert summer.ends_on == D(2026, 10, 31)


def test_the_start_page_shows_the_season_of_the_chosen_date(club, players, members, client_as):
    Season.objects.create(club=club, name="Winter", starts_on=D(2026, 11, 1))
    client = client_as(members["scorekeeper"])
    url = reverse("scorebook:session_start", kwargs={"club": club.slug})
    html = client.get(url).content.decode()
    assert 'name="season"' not in html  # nobody picks it
    # A form sent back (no players seated) shows the season of the date it was sent with.
    html = client.post(url, {"variant": "slovenian-4", "date": "2026-11-20"}).content.decode()
    assert "Season of" in html and "Winter" in html
    html = client.post(url, {"variant": "slovenian-4", "date": "2026-10-20"}).content.decode()
    assert "No season covers" in html
    html = client.post(url, {"variant": "slovenian-4", "date": "not a day"}).content.decode()
    assert 'id="season_of_date"' not in html


def test_a_session_started_on_the_page_goes_into_the_season_of_its_date(
    club, players, members, client_as
):
    winter = Season.objects.create(club=club, name="Winter", starts_on=D(2026, 11, 1))
    autumn = Season.objects.create(
        club=club, name="Autumn", starts_on=D(2026, 9, 1), ends_on=D(2026, 10, 31)
    )
    seats = {f"seat_{i}": str(p.pk) for i, p in enumerate(players[:4], start=1)}
    client = client_as(members["scorekeeper"])
    url = reverse("scorebook:session_start", kwargs={"club": club.slug})
    # A season posted anyway (an old page) is not read: the date decides.
    fields = {"variant": "slovenian-4", "date": "2026-10-02", "season": str(winter.pk), **seats}
    response = client.post(url, fields)
    assert response.status_code == 302
    assert club.sessions.get().season == autumn


def test_another_clubs_season_is_404(club, other_club, members, client_as):
    theirs = Season.objects.create(club=other_club, name="Theirs", starts_on=D(2026, 1, 1))
    admin = client_as(members["admin"])
    url = reverse("scorebook:season_edit", kwargs={"club": club.slug, "season": theirs.pk})
    assert admin.get(url).status_code == 404
    response = admin.post(url, {"name": "Mine", "starts_on": "2026-01-01"})
    assert response.status_code == 404
    theirs.refresh_from_db()
    assert theirs.name == "Theirs"


def test_a_season_of_another_club_does_not_count(club, other_club, players, members):
    Season.objects.create(club=other_club, name="Theirs", starts_on=D(2026, 1, 1))
    may = play(club, players, members, D(2026, 5, 1))
    assert may.season is None
    spring = Season(club=club, name="Spring", starts_on=D(2026, 4, 1))
    assert services.save_season(spring) == []  # Theirs, open, is not ended by our season
    may.refresh_from_db()
    assert may.season == spring
    assert Season.objects.get(name="Theirs").ends_on is None


def test_the_migration_files_existing_sessions_by_date(club, players, members):
    """What 0008 does to a club's data from before: sessions outside the season they fall in,
    and two open seasons."""
    import importlib

    from django.apps import apps

    migration = importlib.import_module("scorebook.migrations.0008_seasons_by_date")
    autumn = Season.objects.create(club=club, name="Autumn", starts_on=D(2026, 9, 1))
    winter = Season.objects.create(club=club, name="Winter", starts_on=D(2026, 11, 1))
    october = play(club, players, members, D(2026, 10, 5))
    november = play(club, players, members, D(2026, 11, 5))
    type(october).objects.filter(pk__in=[october.pk, november.pk]).update(season=None)
    migration.file_by_date(apps, None)
    october.refresh_from_db(), november.refresh_from_db(), autumn.refresh_from_db()
    assert (october.season, november.season) == (autumn, winter)
    assert autumn.ends_on == D(2026, 10, 31)
