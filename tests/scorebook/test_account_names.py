"""Account names are stored as the login form reads them, checked by the username field's
validators, and two names a person cannot tell apart are one account (issue 22, part 3)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core import checks
from django.urls import reverse

from scorebook.models import Membership, Profile

pytestmark = pytest.mark.django_db

FULL_WIDTH_ALMA = "ＡＬＭＡ"  # U+FF21…: reads as "ALMA", the admin "alma" of the fixture
HYPHEN = "\u2010"  # looks like "-", which the username validator allows; it is not
# The add form's password choice, and the empty formset of the profile inline.
PROFILE = {
    "profile-TOTAL_FORMS": "1",
    "profile-INITIAL_FORMS": "0",
    "profile-MIN_NUM_FORMS": "0",
    "profile-MAX_NUM_FORMS": "1",
}
USABLE = {"usable_password": "true", **PROFILE}


def add_member(client, club, username, role="viewer"):
    return client.post(
        reverse("scorebook:member_add", kwargs={"club": club.slug}),
        {"username": username, "role": role},
    )


def usernames() -> set[str]:
    return set(get_user_model().objects.values_list("username", flat=True))


def test_a_name_that_reads_as_an_existing_account_adds_that_account(
    club, other_club, members, client_as
):
    before = usernames()
    response = add_member(client_as(members["outsider"]), other_club, FULL_WIDTH_ALMA)
    assert response.status_code == 302
    assert usernames() == before  # no second "alma" that could never log in
    assert Membership.objects.filter(user=members["admin"], club=other_club).exists()


def test_a_name_the_username_validator_refuses_is_refused_at_the_field(club, members, client_as):
    before = usernames()
    response = add_member(client_as(members["admin"]), club, f"a{HYPHEN}sk")
    assert response.status_code == 200
    errors = response.context["form"].errors["username"]
    assert any("letters, numbers, and @/./+/-/_" in error for error in errors)
    assert 'aria-invalid="true"' in response.content.decode()
    assert usernames() == before


def test_a_new_name_is_stored_as_the_login_form_reads_it(club, members, client_as):
    response = add_member(client_as(members["admin"]), club, "ｎｉｎａ")
    assert response.status_code == 302
    assert "nina" in usernames() and "ｎｉｎａ" not in usernames()


def test_the_validators_message_is_in_the_users_language(club, members, client_as):
    Profile.objects.update_or_create(user=members["admin"], defaults={"language": "de"})
    response = add_member(client_as(members["admin"]), club, f"a{HYPHEN}sk")
    errors = " ".join(response.context["form"].errors["username"])
    assert "Buchstaben" in errors


@pytest.fixture
def superuser_client(make_user, client_as):
    root = make_user("root", is_staff=True, is_superuser=True)
    return client_as(root)


def test_the_admins_add_form_refuses_a_name_that_reads_as_another(superuser_client, make_user):
    make_user("ärni")
    before = usernames()
    response = superuser_client.post(
        reverse("admin:auth_user_add"),
        {"username": "ÄRNI", "password1": "x7!long-pass", "password2": "x7!long-pass", **USABLE},
    )
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["username"]
    assert usernames() == before


def test_the_admins_change_form_refuses_a_rename_that_reads_as_another(superuser_client, make_user):
    make_user("ärni")
    bor = make_user("bor")
    response = superuser_client.post(
        reverse("admin:auth_user_change", args=[bor.pk]),
        {
            "username": "ÄRNI",
            "email": "",
            "date_joined_0": "2026-11-01",
            "date_joined_1": "20:00:00",
            "is_active": "on",
            **PROFILE,
        },
    )
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["username"]
    bor.refresh_from_db()
    assert bor.username == "bor"


def test_the_admins_add_form_stores_the_normalised_name(superuser_client):
    superuser_client.post(
        reverse("admin:auth_user_add"),
        {
            "username": "ｍｉｒａ",
            "password1": "x7!long-pass",
            "password2": "x7!long-pass",
            **USABLE,
        },
    )
    assert "mira" in usernames()


def test_the_database_check_names_each_group_of_accounts_that_read_alike(make_user):
    User = get_user_model()
    make_user("alma")
    User.objects.create(username="ＡＬＭＡ")  # as add_member stored it before
    User.objects.create(username="Alma")
    make_user("bor")
    warnings = [
        message
        for message in checks.run_checks(databases=["default"], tags=[checks.Tags.database])
        if message.id == "scorebook.W001"
    ]
    assert len(warnings) == 1
    assert "'Alma', 'alma', 'ＡＬＭＡ'" in warnings[0].msg
    assert User.objects.filter(username="ＡＬＭＡ").exists()  # said, never renamed


def test_no_warning_without_databases_or_collisions(make_user):
    make_user("alma")
    make_user("bor")
    assert not [m for m in checks.run_checks(databases=["default"]) if m.id == "scorebook.W001"]
