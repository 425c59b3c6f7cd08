"""A page's language costs no query of its own (issue 17): the person's choice is kept in his
login session, the club's comes with the membership every club page loads anyway. Which
language wins is tests/scorebook/test_language.py's."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorebook.language import SESSION_KEY
from scorebook.models import Profile

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"  # as tests/conftest.py's make_user


def spoken(response) -> str:
    return re.search(r'<html lang="([^"]*)"', response.content.decode()).group(1)


def read_profiles(queries) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if "scorebook_profile" in q["sql"]]


@pytest.fixture
def slovenian_club(club):
    club.language = "sl"
    club.save()
    return club


def log_in(client, user) -> None:
    answer = client.post(reverse("login"), {"username": user.username, "password": PASSWORD})
    assert answer.status_code == 302


@pytest.mark.parametrize(("own", "expected"), [("fr", "fr"), ("", "sl")])
def test_a_club_page_reads_no_language_of_its_own(own, expected, slovenian_club, members, client):
    if own:
        Profile.objects.create(user=members["viewer"], language=own)
    log_in(client, members["viewer"])
    home = reverse("scorebook:club_home", kwargs={"club": slovenian_club.slug})
    client.get(home)
    with CaptureQueriesContext(connection) as queries:
        page = client.get(home)
    assert spoken(page) == expected
    assert read_profiles(queries) == []
    # The club's language came with the membership: no query names the club but that one.
    assert len([q for q in queries.captured_queries if "scorebook_club" in q["sql"]]) == 1


def test_a_login_from_before_reads_the_profile_once(members, client):
    """A login session older than this keeps no language yet: the profile is read once, then
    kept with the session."""
    Profile.objects.create(user=members["viewer"], language="de")
    log_in(client, members["viewer"])
    kept = client.session
    del kept[SESSION_KEY]
    kept.save()
    my_clubs = reverse("scorebook:my_clubs")
    with CaptureQueriesContext(connection) as first:
        assert spoken(client.get(my_clubs)) == "de"
    with CaptureQueriesContext(connection) as second:
        assert spoken(client.get(my_clubs)) == "de"
    assert len(read_profiles(first)) == 1
    assert read_profiles(second) == []


def test_a_switch_is_spoken_on_the_next_page_without_reading_the_profile(members, client):
    log_in(client, members["viewer"])
    client.post(reverse("set_language"), {"language": "cs", "next": "/"})
    client.cookies.pop(settings.LANGUAGE_COOKIE_NAME, None)  # the session alone says it
    with CaptureQueriesContext(connection) as queries:
        assert spoken(client.get(reverse("scorebook:my_clubs"))) == "cs"
    assert read_profiles(queries) == []
