"""Members get in: the invitation an admin's "add member" sends, its one-time link, "forgot
password" for an invited account, and leaving a club."""

import datetime
import re
import smtplib

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from scorebook import hands, invitations, services
from scorebook.models import Entry, Hand, Invitation, Membership, Role

NEW_PASSWORD = "a tarock pass phrase"
LINK = re.compile(r"https?://[^/\s]+(/invitation/\S+/)")


def club_url(name, club, **kwargs):
    return reverse(f"scorebook:{name}", kwargs={"club": club.slug, **kwargs})


def invite(client, club, username="nina", email="nina@example.org", role="scorekeeper"):
    """The admin's "add member" form."""
    return client.post(
        club_url("member_add", club), {"username": username, "email": email, "role": role}
    )


def mailed_link(message) -> str:
    return LINK.search(message.body).group(1)


def choose_password(client, link, password=NEW_PASSWORD):
    """Open the link and set the password: the answer to the form's POST."""
    opened = client.get(link, follow=True)
    assert opened.context["validlink"], opened.content.decode()
    form_url = opened.redirect_chain[-1][0]
    return client.post(form_url, {"new_password1": password, "new_password2": password})


def main_of(response) -> str:
    """The page's own part (the head carries a fresh nonce each time)."""
    return re.search(r"<main.*</main>", response.content.decode(), re.S).group(0)


def nina():
    return get_user_model().objects.get(username="nina")


@pytest.fixture
def admin(members, client_as):
    return client_as(members["admin"])


# --- Who gets an invitation --------------------------------------------------------------


def test_a_new_account_gets_an_invitation_and_a_mail(club, members, admin):
    response = invite(admin, club)
    assert response.status_code == 302
    invitation = Invitation.objects.get(user=nina())
    assert (invitation.club, invitation.invited_by) == (club, members["admin"])
    assert not nina().has_usable_password()
    [message] = mail.outbox
    assert message.to == ["nina@example.org"]
    assert "Ljubljana Tarock" in message.subject
    assert "alma added you to Ljubljana Tarock" in message.body
    assert "nina" in message.body
    assert mailed_link(message).startswith("/invitation/")
    page = admin.get(club_url("members", club)).content.decode()
    assert "An invitation mail went to nina@example.org." in page
    assert "invited" in page


def test_an_existing_account_gets_no_invitation_no_link_and_no_mail(club, members, admin):
    # olga has an account (an admin of another club): this club adds her as she is.
    response = invite(admin, club, username="OLGA", email="attacker@example.org")
    assert response.status_code == 302
    olga = members["outsider"]
    assert Membership.objects.filter(user=olga, club=club).exists()
    assert not Invitation.objects.filter(user=olga).exists()
    assert mail.outbox == []
    olga.refresh_from_db()
    assert olga.email == "olga@example.org"
    page = admin.get(club_url("members", club)).content.decode()
    assert "/invitation/" not in page
    assert "invited" not in page


def test_an_account_made_by_another_clubs_invitation_gets_no_link_here(
    club, other_club, members, client_as
):
    invite(client_as(members["outsider"]), other_club)
    assert len(mail.outbox) == 1
    admin = client_as(members["admin"])
    invite(admin, club, username="nina")
    assert len(mail.outbox) == 1
    assert "/invitation/" not in admin.get(club_url("members", club)).content.decode()
    assert Invitation.objects.get(user=nina()).club == other_club


def test_without_an_address_no_mail_and_the_link_is_on_the_page(club, members, admin):
    response = invite(admin, club, email="")
    page = admin.get(response["Location"]).content.decode()
    assert mail.outbox == []
    assert "nina has no email address: give them the invitation link below." in page
    link = re.search(r'value="https?://testserver(/invitation/[^"]+)"', page).group(1)
    assert choose_password(admin, link).status_code == 302
    assert nina().check_password(NEW_PASSWORD)


def test_a_mail_server_that_refuses_leaves_the_link_and_no_500(club, members, admin, monkeypatch):
    def refuse(*args, **kwargs):
        raise smtplib.SMTPException("relay denied")

    monkeypatch.setattr(invitations, "send_mail", refuse)
    response = invite(admin, club)
    page = admin.get(response["Location"]).content.decode()
    assert "could not be sent: give them the invitation link below." in page
    assert "/invitation/" in page
    assert Membership.objects.filter(user=nina(), club=club).exists()


def test_send_the_invitation_again(club, members, admin):
    invite(admin, club)
    membership = Membership.objects.get(user=nina())
    response = admin.post(club_url("member_invite", club, membership=membership.pk), follow=True)
    assert len(mail.outbox) == 2
    assert "An invitation mail went to nina@example.org." in response.content.decode()
    # Either mail's link works (the token does not depend on when it was sent).
    assert choose_password(admin, mailed_link(mail.outbox[0])).status_code == 302


def test_no_second_mail_once_the_password_is_set(club, members, admin, client):
    invite(admin, club)
    choose_password(client, mailed_link(mail.outbox[0]))
    membership = Membership.objects.get(user=nina())
    response = admin.post(club_url("member_invite", club, membership=membership.pk), follow=True)
    assert len(mail.outbox) == 1
    assert "nina has no open invitation." in response.content.decode()
    page = admin.get(club_url("members", club)).content.decode()
    assert "/invitation/" not in page


# --- The link ---------------------------------------------------------------------------


def test_the_link_sets_a_password_once_and_logs_in_at_the_club(club, members, admin, client):
    invite(admin, club)
    link = mailed_link(mail.outbox[0])
    response = choose_password(client, link)
    assert response.status_code == 302
    assert response["Location"] == club_url("club_home", club)
    home = client.get(response["Location"])
    assert home.status_code == 200
    assert home.context["user"] == nina()
    assert "Welcome to Ljubljana Tarock." in home.content.decode()
    assert nina().check_password(NEW_PASSWORD)
    assert Invitation.objects.get(user=nina()).accepted_at is not None

    # Used: the same link, in another browser, is refused with a message.
    again = admin.get(link, follow=True)
    assert not again.context["validlink"]
    assert "The invitation link has expired or was already used." in again.content.decode()


def test_an_expired_link_is_refused_with_a_message(club, members, admin, client, monkeypatch):
    invite(admin, club)
    later = datetime.datetime.now() + datetime.timedelta(
        seconds=settings.PASSWORD_RESET_TIMEOUT + 60
    )
    monkeypatch.setattr(invitations.tokens, "_now", lambda: later)
    response = client.get(mailed_link(mail.outbox[0]), follow=True)
    assert not response.context["validlink"]
    assert "The invitation link has expired or was already used." in response.content.decode()
    assert not nina().has_usable_password()


def test_a_second_post_with_the_same_link_sets_nothing(club, members, admin, client):
    invite(admin, club)
    opened = client.get(mailed_link(mail.outbox[0]), follow=True)
    form_url = opened.redirect_chain[-1][0]
    user = nina()
    form = invitations.InvitationPasswordForm(
        user, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    )
    assert form.is_valid()
    invitations.accept(user, form)
    # The page was opened before: its POST now finds the invitation spent.
    response = client.post(
        form_url, {"new_password1": "someone else's", "new_password2": "someone else's"}
    )
    assert response.status_code == 200
    assert nina().check_password(NEW_PASSWORD)


def test_a_bad_password_is_refused_at_the_field(club, members, admin, client):
    invite(admin, club)
    response = choose_password(client, mailed_link(mail.outbox[0]), password="123")
    assert response.status_code == 200
    assert response.context["form"].errors["new_password2"]
    assert not nina().has_usable_password()


def test_no_link_for_an_account_the_invitation_did_not_make(members, client):
    """A token made for alma (who has a password and no invitation) opens nothing."""
    alma = members["admin"]
    uid = invitations.urlsafe_base64_encode(invitations.force_bytes(alma.pk))
    token = invitations.tokens.make_token(alma)
    url = reverse("scorebook:invitation_accept", kwargs={"uidb64": uid, "token": token})
    response = client.get(url, follow=True)
    assert not response.context["validlink"]
    assert response.status_code == 200


def test_no_link_once_the_account_has_a_password_another_way(club, members, admin, client):
    invite(admin, club)
    user = nina()
    user.set_password("set some other way")
    user.save()
    response = client.get(mailed_link(mail.outbox[0]), follow=True)
    assert not response.context["validlink"]


@pytest.mark.parametrize(
    "uid, token", [("!!", "x"), ("MQ", "set-password"), ("z" * 500, "1-2"), ("%00", "%00")]
)
def test_a_strange_link_answers_the_refusal(uid, token, members, client):
    response = client.get(f"/invitation/{uid}/{token}/")
    assert response.status_code == 200
    assert not response.context["validlink"]


def test_an_invitation_token_is_no_password_reset_token(club, members, admin, client):
    invite(admin, club)
    uid, token = mailed_link(mail.outbox[0]).strip("/").split("/")[1:]
    url = reverse("password_reset_confirm", kwargs={"uidb64": uid, "token": token})
    assert not client.get(url, follow=True).context["validlink"]


# --- Only this club's admins see the link --------------------------------------------------


def test_the_link_is_only_for_admins_of_the_inviting_club(
    club, other_club, members, admin, client_as
):
    invite(admin, club)
    membership = Membership.objects.get(user=nina())
    for visitor in ("scorekeeper", "viewer"):
        client = client_as(members[visitor])
        assert client.get(club_url("members", club)).status_code == 403
    outsider = client_as(members["outsider"])
    assert outsider.get(club_url("members", club)).status_code == 404
    # Another club's admin, with nina's membership in his own club's address: nothing.
    url = club_url("member_invite", other_club, membership=membership.pk)
    assert outsider.post(url).status_code == 404
    assert "/invitation/" not in outsider.get(club_url("members", other_club)).content.decode()
    assert len(mail.outbox) == 1


# --- Forgot password ----------------------------------------------------------------------


def test_forgot_password_mails_an_invited_account(club, members, admin, client):
    invite(admin, club)
    mail.outbox.clear()
    response = client.post(reverse("password_reset"), {"email": "NINA@example.org"})
    assert response.status_code == 302
    [message] = mail.outbox
    assert message.to == ["nina@example.org"]
    link = re.search(r"https?://[^/]+(/accounts/reset/\S+)", message.body).group(1)
    opened = client.get(link, follow=True)
    assert opened.context["validlink"]
    client.post(
        opened.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert nina().check_password(NEW_PASSWORD)


def test_forgot_password_says_the_same_for_an_unknown_address(members, client):
    known = client.post(reverse("password_reset"), {"email": "vida@example.org"}, follow=True)
    unknown = client.post(reverse("password_reset"), {"email": "nobody@example.org"}, follow=True)
    assert main_of(known) == main_of(unknown)
    assert len(mail.outbox) == 1


# --- Leaving -------------------------------------------------------------------------------


def saso_records_a_hand(session, members):
    data = {"contract": "three", "declarer": "Ana", "points": 40}
    hands.record_hand(session, data, "00000000-0000-4000-8000-000000000002", members["scorekeeper"])


def test_leaving_asks_first_then_keeps_the_hands(club, session, members, client_as):
    saso_records_a_hand(session, members)
    before = (Hand.objects.count(), list(Entry.objects.values_list("player", "amount")))
    client = client_as(members["scorekeeper"])
    home = client.get(club_url("club_home", club)).content.decode()
    assert club_url("club_leave", club) in home
    confirm = client.get(club_url("club_leave", club))
    assert "Leave Ljubljana Tarock?" in confirm.content.decode()
    assert Membership.objects.filter(user=members["scorekeeper"], club=club).exists()
    response = client.post(club_url("club_leave", club), follow=True)
    assert response.redirect_chain[-1][0] == reverse("scorebook:my_clubs")
    assert "You left Ljubljana Tarock." in response.content.decode()
    assert not Membership.objects.filter(user=members["scorekeeper"], club=club).exists()
    assert client.get(club_url("club_home", club)).status_code == 404
    assert (Hand.objects.count(), list(Entry.objects.values_list("player", "amount"))) == before
    assert Hand.objects.get().created_by == members["scorekeeper"]


def test_removing_a_member_asks_first_and_keeps_the_hands(club, session, members, admin):
    saso_records_a_hand(session, members)
    membership = Membership.objects.get(user=members["scorekeeper"], club=club)
    url = club_url("member_remove", club, membership=membership.pk)
    assert "Remove saso from the club?" in admin.get(url).content.decode()
    response = admin.post(url, follow=True)
    assert "saso is no longer a member." in response.content.decode()
    assert not Membership.objects.filter(pk=membership.pk).exists()
    assert Hand.objects.count() == 1
    assert Entry.objects.count() == 4


def test_the_last_admin_cannot_leave_and_is_told(club, members, admin):
    response = admin.get(club_url("club_leave", club), follow=True)
    assert response.redirect_chain[-1][0] == club_url("club_home", club)
    page = response.content.decode()
    assert "You are the club&#x27;s last admin" in page
    assert admin.post(club_url("club_leave", club)).status_code == 302
    assert Membership.objects.filter(user=members["admin"], club=club, role=Role.ADMIN).exists()


def test_an_admin_may_leave_when_another_admin_stays(club, members, admin):
    services.change_role(membership=Membership.objects.get(user=members["viewer"]), role=Role.ADMIN)
    response = admin.post(club_url("club_leave", club))
    assert response["Location"] == reverse("scorebook:my_clubs")
    assert not Membership.objects.filter(user=members["admin"], club=club).exists()


def test_the_mail_names_the_inviter_as_the_clubs_pages_do(club, members, admin):
    members["admin"].first_name, members["admin"].last_name = "Alma", "Kos"
    members["admin"].save()
    invite(admin, club)
    [message] = mail.outbox
    assert "Alma Kos added you to Ljubljana Tarock" in message.body
