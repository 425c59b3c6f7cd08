"""Logins an attacker shapes: oversized or odd usernames, password spraying, forged addresses,
and lockouts that end when their cool-off period is over."""

from __future__ import annotations

import datetime

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db.models import F
from django.test import override_settings
from django.urls import reverse

from scorebook.settings import client_address_settings

PASSWORD = "correct horse battery"  # as tests/conftest.py's make_user

pytestmark = pytest.mark.usefixtures("members")
axes_on = override_settings(AXES_ENABLED=True)


def login(client, username, password, address="10.0.0.1", url="login", **headers):
    return client.post(
        reverse(url), {"username": username, "password": password}, REMOTE_ADDR=address, **headers
    )


def age_attempts(minutes: int) -> None:
    """Travel in time: every recorded failure happened `minutes` earlier."""
    AccessAttempt.objects.update(
        attempt_time=F("attempt_time") - datetime.timedelta(minutes=minutes)
    )


def lock(client, username="vida", address="10.0.0.1", **headers):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        login(client, username, "wrong", address, **headers)
    assert login(client, username, PASSWORD, address, **headers).status_code == 429


# --- What the login form lets through -------------------------------------------------------


@axes_on
@pytest.mark.parametrize("url", ["login", "admin:login"])
def test_an_overlong_username_is_a_form_error_not_a_crash(client, url):
    response = login(client, "u" * 300, "whatever", url=url)
    assert response.status_code == 200
    assert "at most 150 characters" in response.content.decode()
    assert not AccessAttempt.objects.exists()


@axes_on
@pytest.mark.parametrize("username", ["vi\x00da", "vida\x1b[2J", "vi\x7fda"])
def test_control_characters_in_a_username_are_a_form_error(client, username):
    response = login(client, username, "whatever")
    assert response.status_code == 200
    assert response.context["form"].errors["username"]
    assert not AccessAttempt.objects.exists()


@axes_on
def test_an_overlong_password_is_refused_before_it_is_hashed(client):
    response = login(client, "vida", "p" * 5000)
    assert response.status_code == 200
    assert response.context["form"].errors["password"]


@axes_on
def test_a_username_of_the_longest_allowed_length_is_still_checked(client, make_user):
    make_user("x" * 150)
    assert login(client, "x" * 150, PASSWORD).status_code == 302


# --- Lockouts end -----------------------------------------------------------------------------


@axes_on
def test_a_locked_user_gets_in_after_the_cool_off(client):
    lock(client)
    age_attempts(10)
    # Knocking again while locked does not restart the 15 minutes.
    assert login(client, "vida", "wrong").status_code == 429
    age_attempts(6)
    assert login(client, "vida", PASSWORD).status_code == 302


# --- Password spraying from one address -------------------------------------------------------


def spray(client, count, address="10.0.0.1"):
    """One wrong password for each of `count` different usernames: no single user is locked."""
    for n in range(count):
        assert login(client, f"guess{n}", "Password1", address).status_code == 200


@axes_on
def test_failures_over_many_usernames_close_the_address(client, client_as):
    limit = settings.AXES_ADDRESS_FAILURE_LIMIT
    spray(client, limit - 1)
    # A club's phones share one address: a member still gets in below the limit.
    assert login(client_as(None), "vida", PASSWORD).status_code == 302
    spray(client, 1)
    response = login(client_as(None), "saso", PASSWORD)
    assert response.status_code == 429
    assert "from this address" in response.content.decode()
    # Another address is not concerned.
    assert login(client_as(None), "saso", PASSWORD, "10.0.0.2").status_code == 302


@axes_on
def test_a_closed_address_opens_after_the_cool_off(client):
    spray(client, settings.AXES_ADDRESS_FAILURE_LIMIT)
    assert login(client, "vida", PASSWORD).status_code == 429
    age_attempts(16)
    assert login(client, "vida", PASSWORD).status_code == 302


def test_the_address_limit_is_above_the_per_user_limit():
    assert settings.AXES_ADDRESS_FAILURE_LIMIT > settings.AXES_FAILURE_LIMIT


# --- Whose address is it ------------------------------------------------------------------------

PROXY = "10.0.0.254"


@axes_on
def test_without_a_proxy_a_forged_forwarded_for_changes_nothing(client):
    lock(client, address="10.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.5")
    forged = {"HTTP_X_FORWARDED_FOR": "198.51.100.7"}
    assert login(client, "vida", PASSWORD, "10.0.0.1", **forged).status_code == 429


@axes_on
def test_behind_a_proxy_each_client_has_its_own_address(client, client_as):
    with override_settings(**client_address_settings(behind_proxy=True, proxy_count=1)):
        lock(client, address=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.5")
        other = {"HTTP_X_FORWARDED_FOR": "198.51.100.7"}
        assert login(client_as(None), "vida", PASSWORD, PROXY, **other).status_code == 302
        # The locked client writes another address in front of its own: the proxy appends
        # the real one, and that is the one read.
        forged = {"HTTP_X_FORWARDED_FOR": "198.51.100.7, 203.0.113.5"}
        assert login(client, "vida", PASSWORD, PROXY, **forged).status_code == 429


@axes_on
def test_behind_two_proxies_the_client_is_second_from_the_right(client, client_as):
    with override_settings(**client_address_settings(behind_proxy=True, proxy_count=2)):
        lock(client, address=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.5, 10.0.0.2")
        forged = {"HTTP_X_FORWARDED_FOR": "198.51.100.7, 203.0.113.5, 10.0.0.2"}
        assert login(client, "vida", PASSWORD, PROXY, **forged).status_code == 429
        other = {"HTTP_X_FORWARDED_FOR": "198.51.100.7, 10.0.0.2"}
        assert login(client_as(None), "vida", PASSWORD, PROXY, **other).status_code == 302


def test_behind_a_proxy_at_least_one_proxy_is_trusted():
    with pytest.raises(ImproperlyConfigured):
        client_address_settings(behind_proxy=True, proxy_count=0)
