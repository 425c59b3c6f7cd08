"""Log in, log out, change and reset a password, and the django-axes lock-out."""

import re

from axes.models import AccessAttempt
from django.conf import settings
from django.core import mail
from django.test import override_settings
from django.urls import reverse

PASSWORD = "correct horse battery"  # as tests/conftest.py's make_user


def test_login_and_logout(members, client):
    response = client.post(reverse("login"), {"username": "vida", "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == reverse("scorebook:my_clubs")
    assert client.get(reverse("scorebook:my_clubs")).status_code == 200
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert client.get(reverse("scorebook:my_clubs")).status_code == 302


def test_a_wrong_password_is_refused_with_a_message(members, client):
    response = client.post(reverse("login"), {"username": "vida", "password": "nope"})
    assert response.status_code == 200
    assert "correct username and password" in response.content.decode()


def test_change_password(members, client_as):
    client = client_as(members["viewer"])
    response = client.post(
        reverse("password_change"),
        {
            "old_password": PASSWORD,
            "new_password1": "a new tarock password",
            "new_password2": "a new tarock password",
        },
    )
    assert response.status_code == 302
    members["viewer"].refresh_from_db()
    assert members["viewer"].check_password("a new tarock password")


def test_reset_password_by_email(members, client):
    response = client.post(reverse("password_reset"), {"email": "vida@example.org"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    link = re.search(r"https?://[^/]+(/\S+)", mail.outbox[0].body).group(1)
    response = client.get(link, follow=True)
    assert response.context["validlink"]
    response = client.post(
        response.redirect_chain[-1][0],
        {"new_password1": "reset tarock password", "new_password2": "reset tarock password"},
    )
    assert response.status_code == 302
    members["viewer"].refresh_from_db()
    assert members["viewer"].check_password("reset tarock password")


def test_axes_is_keyed_on_username_and_address_and_cools_off():
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]
    assert settings.AXES_COOLOFF_TIME.total_seconds() == 15 * 60
    assert settings.AUTHENTICATION_BACKENDS[0] == "axes.backends.AxesStandaloneBackend"
    assert settings.MIDDLEWARE[-1] == "axes.middleware.AxesMiddleware"


@override_settings(AXES_ENABLED=True)
def test_too_many_failures_lock_one_user_from_one_address(members, client):
    def login(username, password, address):
        return client.post(
            reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address
        )

    for _ in range(settings.AXES_FAILURE_LIMIT):
        login("vida", "wrong", "10.0.0.1")
    # Locked: even the right password from that address is refused.
    assert login("vida", PASSWORD, "10.0.0.1").status_code == 429
    assert AccessAttempt.objects.filter(username="vida", ip_address="10.0.0.1").exists()
    # The same club Wi-Fi: another member still gets in; and vida from another address.
    assert login("saso", PASSWORD, "10.0.0.1").status_code == 302
    client.post(reverse("logout"))
    assert login("vida", PASSWORD, "10.0.0.2").status_code == 302
