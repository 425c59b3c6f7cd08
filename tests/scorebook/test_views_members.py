from django.contrib.auth import get_user_model
from django.urls import reverse

from scorebook.models import Membership, Role


def url(name, club, **kwargs):
    return reverse(f"scorebook:{name}", kwargs={"club": club.slug, **kwargs})


def test_members_page_lists_members_and_roles(club, members, client_as):
    page = client_as(members["admin"]).get(url("members", club)).content.decode()
    for username in ("alma", "saso", "vida"):
        assert username in page
    assert "olga" not in page


def test_add_a_new_member_by_username(club, members, client_as):
    response = client_as(members["admin"]).post(
        url("member_add", club), {"username": "nina", "email": "nina@example.org", "role": "viewer"}
    )
    assert response.status_code == 302
    user = get_user_model().objects.get(username="nina")
    assert Membership.objects.get(user=user, club=club).role == Role.VIEWER


def test_add_an_existing_member_again_is_an_error_at_the_field(club, members, client_as):
    response = client_as(members["admin"]).post(
        url("member_add", club), {"username": "vida", "role": "viewer"}
    )
    assert response.status_code == 200
    assert response.context["form"].errors["username"]


def test_change_role_and_remove(club, members, client_as):
    client = client_as(members["admin"])
    viewer = Membership.objects.get(user=members["viewer"])
    client.post(url("member_role", club, membership=viewer.pk), {"role": "scorekeeper"})
    viewer.refresh_from_db()
    assert viewer.role == Role.SCOREKEEPER
    client.post(url("member_remove", club, membership=viewer.pk))
    assert not Membership.objects.filter(pk=viewer.pk).exists()


def test_the_last_admin_cannot_step_down(club, members, client_as):
    admin = Membership.objects.get(user=members["admin"])
    response = client_as(members["admin"]).post(
        url("member_role", club, membership=admin.pk), {"role": "viewer"}, follow=True
    )
    assert "at least one admin" in response.content.decode()
    admin.refresh_from_db()
    assert admin.role == Role.ADMIN


def test_the_add_form_says_what_happens_to_a_new_account(club, members, client_as):
    page = client_as(members["admin"]).get(url("members", club)).content.decode()
    assert "A new account gets an invitation" in page
    assert "Forgot password" not in page


def test_remove_asks_first_and_a_get_removes_nobody(club, members, client_as):
    viewer = Membership.objects.get(user=members["viewer"])
    response = client_as(members["admin"]).get(url("member_remove", club, membership=viewer.pk))
    assert response.status_code == 200
    assert "Remove vida from the club?" in response.content.decode()
    assert Membership.objects.filter(pk=viewer.pk).exists()


def test_the_last_admin_cannot_be_removed(club, members, client_as):
    admin = Membership.objects.get(user=members["admin"])
    response = client_as(members["admin"]).post(
        url("member_remove", club, membership=admin.pk), follow=True
    )
    assert "at least one admin" in response.content.decode()
    assert Membership.objects.filter(pk=admin.pk).exists()
