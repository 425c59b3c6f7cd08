"""Seasons: members read them, admins add and change them, sessions are filed in them."""

import datetime

import pytest
from django.urls import reverse

from scorebook.models import Season

pytestmark = pytest.mark.django_db


def seasons_url(club):
    return reverse("scorebook:seasons", kwargs={"club": club.slug})


def test_an_admin_adds_a_season_and_members_read_it(club, members, client_as):
    response = client_as(members["admin"]).post(
        reverse("scorebook:season_add", kwargs={"club": club.slug}),
        {"name": "Winter 2026/27", "starts_on": "2026-10-01", "ends_on": "2027-03-31"},
    )
    assert response.status_code == 302
    html = client_as(members["viewer"]).get(seasons_url(club)).content.decode()
    assert "Winter 2026/27" in html
    assert "Add a season" not in html  # the form is for admins


def test_a_season_that_ends_before_it_starts_is_refused_at_its_field(club, members, client_as):
    response = client_as(members["admin"]).post(
        reverse("scorebook:season_add", kwargs={"club": club.slug}),
        {"name": "Backwards", "starts_on": "2026-10-01", "ends_on": "2026-09-01"},
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="id_ends_on_error"' in html
    assert "A season ends on or after the day it starts." in html
    assert not Season.objects.filter(name="Backwards").exists()


def test_an_admin_changes_a_season(club, members, client_as):
    season = Season.objects.create(club=club, name="Autumn", starts_on=datetime.date(2026, 9, 1))
    url = reverse("scorebook:season_edit", kwargs={"club": club.slug, "season": season.pk})
    client = client_as(members["admin"])
    assert client.get(url).status_code == 200
    response = client.post(url, {"name": "Autumn league", "starts_on": "2026-09-01"})
    assert response.status_code == 302
    season.refresh_from_db()
    assert season.name == "Autumn league"
