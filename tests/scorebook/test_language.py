"""Which language a page and a mail speak (scorebook.language), and the switcher that chooses it.

Pages are told apart by `<html lang>` and Content-Language, and by words Django's own catalogue
translates (the login form's labels, "3 days"): the project's catalogues are written apart.
"""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm
from django.core import mail
from django.urls import reverse
from django.utils import translation

from scorebook.language import mail_language
from scorebook.models import Club, Membership, Profile, Role

pytestmark = pytest.mark.django_db

COOKIE = settings.LANGUAGE_COOKIE_NAME
PASSWORD = "correct horse battery"  # as tests/conftest.py's make_user


def spoken(response) -> str:
    """The language the page says it speaks, checked against what its header says."""
    lang = re.search(r'<html lang="([^"]*)"', response.content.decode()).group(1)
    assert response["Content-Language"] == lang
    return lang


def choose(user, language: str) -> None:
    Profile.objects.update_or_create(user=user, defaults={"language": language})


@pytest.fixture
def slovenian_club(club):
    club.language = "sl"
    club.save()
    return club


# --- Which language a page speaks -----------------------------------------------------------

# (profile, cookie, Accept-Language) -> the language of the club's home page (the club: sl).
ON_THE_CLUBS_PAGE = [
    ("fr", "de", "cs", "fr"),  # the profile before everything
    ("", "de", "cs", "de"),  # then the cookie
    ("", "", "cs", "sl"),  # then the club, before the browser
    ("", "xx", "cs", "sl"),  # a cookie no language answers is no choice
]


@pytest.mark.parametrize(("profile", "cookie", "accept", "expected"), ON_THE_CLUBS_PAGE)
def test_on_a_clubs_page_the_person_then_the_club(
    profile, cookie, accept, expected, slovenian_club, members, client_as
):
    viewer = members["viewer"]
    if profile:
        choose(viewer, profile)
    client = client_as(viewer, HTTP_ACCEPT_LANGUAGE=accept)
    if cookie:
        client.cookies[COOKIE] = cookie
    page = client.get(reverse("scorebook:club_home", kwargs={"club": slovenian_club.slug}))
    assert page.status_code == 200
    assert spoken(page) == expected


# (profile, cookie, Accept-Language) -> the language of "My clubs", which is no club's page.
OUTSIDE_ANY_CLUB = [
    ("fr", "de", "cs", "fr"),
    ("", "de", "cs", "de"),
    ("", "", "cs;q=0.9, en;q=0.5", "cs"),  # the club's language does not follow its members
    ("", "", "it, de-AT;q=0.8", "de"),  # the first the site speaks, as its main language
    ("", "", "it, es", "en"),  # none of ours: English
    ("", "", "", "en"),
]


@pytest.mark.parametrize(("profile", "cookie", "accept", "expected"), OUTSIDE_ANY_CLUB)
def test_outside_any_club_the_person_then_the_browser(
    profile, cookie, accept, expected, slovenian_club, members, client_as
):
    viewer = members["viewer"]
    if profile:
        choose(viewer, profile)
    client = client_as(viewer, HTTP_ACCEPT_LANGUAGE=accept)
    if cookie:
        client.cookies[COOKIE] = cookie
    assert spoken(client.get(reverse("scorebook:my_clubs"))) == expected


def test_the_login_page_speaks_the_cookies_language_before_the_browsers(client):
    client.cookies[COOKIE] = "de"
    page = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="fr")
    assert spoken(page) == "de"
    assert "Benutzername" in page.content.decode()  # Django's own German for "Username"
    assert "Accept-Language" in page["Vary"] and "Cookie" in page["Vary"]


def test_a_clubs_language_is_not_told_to_a_stranger(slovenian_club, members, client_as):
    """Its 404 must not say, by speaking Slovenian, that the club exists."""
    outsider = client_as(members["outsider"], HTTP_ACCEPT_LANGUAGE="fr")
    page = outsider.get(reverse("scorebook:club_home", kwargs={"club": slovenian_club.slug}))
    assert page.status_code == 404
    assert page["Content-Language"] == "fr"


def test_a_page_no_view_answers_speaks_the_persons_language(client):
    client.cookies[COOKIE] = "cs"
    page = client.get("/no-such-page/")
    assert page.status_code == 404
    assert page["Content-Language"] == "cs"


@pytest.mark.parametrize("cookie", ["zz", "x" * 300, "<script>", "../../etc/passwd", "de\x00", " "])
def test_a_bogus_cookie_is_no_choice(cookie, client):
    client.cookies[COOKIE] = cookie
    page = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="fr")
    assert page.status_code == 200
    assert spoken(page) == "fr"


@pytest.mark.parametrize(
    "accept", ["de;q=foo", ",,,;;;", "*", "x" * 5000, "de-" + "a" * 300 + ", fr;q=0.1", "ü"]
)
def test_a_bogus_accept_language_is_no_500(accept, client):
    page = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE=accept)
    assert page.status_code == 200
    assert spoken(page) in dict(settings.LANGUAGES)


def test_a_stale_profile_language_is_no_choice(slovenian_club, members, client_as):
    """A language the site no longer lists (the column keeps it) leaves the club's to speak."""
    choose(members["viewer"], "it")
    client = client_as(members["viewer"])
    page = client.get(reverse("scorebook:club_home", kwargs={"club": slovenian_club.slug}))
    assert spoken(page) == "sl"


# --- The switcher ---------------------------------------------------------------------------


def test_the_switcher_names_each_language_in_its_own_tongue(client):
    page = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    form = re.search(r'<form[^>]*class="language-switch".*?</form>', page, re.S).group(0)
    assert f'action="{reverse("set_language")}"' in form
    options = re.findall(r'<option value="(\w+)" lang="\w+"( selected)?>([^<]+)</option>', form)
    assert [(code, name) for code, _, name in options] == [
        ("sl", "Slovenščina"),
        ("cs", "Čeština"),
        ("de", "Deutsch"),
        ("fr", "Français"),
        ("en", "English"),
    ]
    assert [code for code, selected, _ in options if selected] == ["de"]
    assert 'type="submit"' in form


def test_a_member_finds_the_switcher_in_the_menu(members, client_as):
    page = client_as(members["viewer"]).get(reverse("scorebook:my_clubs")).content.decode()
    menu = re.search(r'<details class="dropdown site-menu">.*?</details>', page, re.S).group(0)
    assert 'class="language-switch"' in menu
    assert "<footer" not in page  # once, in the menu


def test_switching_without_javascript_sets_the_cookie_and_goes_back(client):
    back = reverse("password_reset")
    answer = client.post(reverse("set_language"), {"language": "fr", "next": back})
    assert answer.status_code == 302 and answer["Location"] == back
    assert answer.cookies[COOKIE].value == "fr"
    assert spoken(client.get(back)) == "fr"
    assert not Profile.objects.exists()  # nobody's profile: nobody is logged in


def test_a_members_choice_goes_to_his_profile(members, client_as):
    client = client_as(members["viewer"])
    answer = client.post(reverse("set_language"), {"language": "cs", "next": "/"})
    assert answer.cookies[COOKIE].value == "cs"
    assert Profile.objects.get(user=members["viewer"]).language == "cs"
    # Changed again: one profile, the latest choice.
    client.post(reverse("set_language"), {"language": "de", "next": "/"})
    assert Profile.objects.get(user=members["viewer"]).language == "de"


@pytest.mark.parametrize("language", ["xx", "", "de-" + "x" * 300, "<b>", "it"])
def test_a_bogus_language_changes_nothing(language, members, client_as):
    choose(members["viewer"], "fr")
    client = client_as(members["viewer"])
    answer = client.post(reverse("set_language"), {"language": language, "next": "/"})
    assert answer.status_code == 302
    assert Profile.objects.get(user=members["viewer"]).language == "fr"
    assert spoken(client.get(reverse("scorebook:my_clubs"))) == "fr"


def test_the_switcher_goes_back_only_to_this_site(client):
    answer = client.post(
        reverse("set_language"), {"language": "de", "next": "https://evil.example/"}
    )
    assert answer.status_code == 302
    assert answer["Location"] == "/"


def test_a_get_changes_nothing(members, client_as):
    client = client_as(members["viewer"])
    answer = client.get(reverse("set_language"), {"language": "de", "next": "/"})
    assert answer.status_code == 302
    assert COOKIE not in answer.cookies
    assert not Profile.objects.exists()


# --- Logging in keeps the choice ------------------------------------------------------------


def log_in(client, user):
    answer = client.post(reverse("login"), {"username": user.username, "password": PASSWORD})
    assert answer.status_code == 302, answer.content.decode()


def test_a_choice_made_before_logging_in_goes_to_the_profile(members, client):
    client.post(reverse("set_language"), {"language": "cs", "next": "/"})
    log_in(client, members["viewer"])
    assert Profile.objects.get(user=members["viewer"]).language == "cs"


def test_the_profile_wins_over_the_cookie_on_logging_in(members, client):
    """Chosen once (French, saved), then another browser's cookie says German: French stays,
    and the pages speak it while he is logged in."""
    choose(members["viewer"], "fr")
    client.cookies[COOKIE] = "de"
    log_in(client, members["viewer"])
    assert Profile.objects.get(user=members["viewer"]).language == "fr"
    assert spoken(client.get(reverse("scorebook:my_clubs"))) == "fr"


def test_a_bogus_cookie_is_not_kept_on_logging_in(members, client):
    client.cookies[COOKIE] = "klingon"
    log_in(client, members["viewer"])
    assert not Profile.objects.filter(user=members["viewer"]).exclude(language="").exists()


# --- A club's language ----------------------------------------------------------------------


def test_a_new_club_speaks_the_language_its_founder_chose(members, client_as):
    client = client_as(members["viewer"], HTTP_ACCEPT_LANGUAGE="fr")
    form = client.get(reverse("scorebook:club_create")).content.decode()
    # Offered first: the language the page speaks.
    assert re.search(r'<option value="fr"[^>]*selected', form)
    answer = client.post(
        reverse("scorebook:club_create"),
        {"name": "Brno", "slug": "brno", "time_zone": "Europe/Prague", "language": "cs"},
    )
    assert answer.status_code == 302
    assert Club.objects.get(slug="brno").language == "cs"
    assert spoken(client.get(answer["Location"])) == "cs"


def test_a_club_without_a_language_chosen_speaks_the_founders_page(members, client_as):
    client = client_as(members["viewer"], HTTP_ACCEPT_LANGUAGE="de")
    client.post(
        reverse("scorebook:club_create"),
        {"name": "Graz", "slug": "graz", "time_zone": "Europe/Vienna"},
    )
    assert Club.objects.get(slug="graz").language == "de"


def test_an_admin_changes_the_clubs_language_later_and_its_pages_follow(club, members, client_as):
    """On the club's settings page: name, time zone and language; members who chose no
    language of their own read the new one. The short name in every address stays."""
    url = reverse("scorebook:club_settings", kwargs={"club": club.slug})
    admin = client_as(members["admin"])
    assert re.search(r'<option value="en"[^>]*selected', admin.get(url).content.decode())
    fields = {"name": "Tarok Brno", "time_zone": "Europe/Prague", "language": "cs"}
    answer = admin.post(url, {**fields, "slug": "brno"})
    assert answer["Location"] == reverse("scorebook:club_home", kwargs={"club": "ljubljana"})
    club.refresh_from_db()
    assert (club.name, club.time_zone, club.language, club.slug) == (
        "Tarok Brno",
        "Europe/Prague",
        "cs",
        "ljubljana",
    )
    viewer = client_as(members["viewer"])
    assert spoken(viewer.get(answer["Location"])) == "cs"


def test_club_settings_refused_leave_the_club_as_it_was(club, members, client_as):
    url = reverse("scorebook:club_settings", kwargs={"club": club.slug})
    answer = client_as(members["admin"]).post(
        url, {"name": " ", "time_zone": "Mars/Olympus", "language": "it"}
    )
    assert answer.status_code == 200
    page = answer.content.decode()
    for field in ("name", "time_zone", "language"):
        assert f'id="id_{field}_error"' in page, field
    assert ">Ljubljana Tarock</a>" in page  # the header names the club as it still is
    club.refresh_from_db()
    assert (club.name, club.time_zone, club.language) == (
        "Ljubljana Tarock",
        "Europe/Ljubljana",
        "en",
    )


def test_a_club_refuses_a_language_the_site_does_not_speak(members, client_as):
    answer = client_as(members["viewer"]).post(
        reverse("scorebook:club_create"),
        {"name": "Roma", "slug": "roma", "time_zone": "Europe/Rome", "language": "it"},
    )
    assert answer.status_code == 200
    assert answer.context["form"].errors["language"]
    assert not Club.objects.filter(slug="roma").exists()


# --- Mails ----------------------------------------------------------------------------------


def test_a_mail_speaks_the_recipients_choice_then_his_clubs_then_the_page(
    club, other_club, make_user
):
    nina = make_user("nina")
    club.language, other_club.language = "sl", "de"
    club.save()
    other_club.save()
    with translation.override("fr"):
        assert mail_language(nina) == "fr"  # no choice, no club: the page's
        assert mail_language(nina, other_club) == "de"  # the club the mail is about
        Membership.objects.create(user=nina, club=club, role=Role.VIEWER)
        Membership.objects.create(user=nina, club=other_club, role=Role.VIEWER)
        assert mail_language(nina) == "sl"  # the club she joined first
        choose(nina, "cs")
        assert mail_language(nina) == "cs"
        assert mail_language(nina, other_club) == "cs"


def invite_nina(client, club):
    member_add = reverse("scorebook:member_add", kwargs={"club": club.slug})
    answer = client.post(
        member_add, {"username": "nina", "email": "nina@example.org", "role": "viewer"}
    )
    assert answer.status_code == 302


def test_an_invitation_speaks_the_clubs_language_not_the_admins(slovenian_club, members, client_as):
    admin = client_as(members["admin"], HTTP_ACCEPT_LANGUAGE="en")
    admin.cookies[COOKIE] = "en"
    invite_nina(admin, slovenian_club)
    (invitation,) = mail.outbox
    assert "3\xa0dni" in invitation.body  # "3 days", in Django's own Slovenian


def test_an_invitation_speaks_the_invitees_choice_before_the_clubs(
    slovenian_club, members, client_as
):
    admin = client_as(members["admin"])
    invite_nina(admin, slovenian_club)
    nina = Membership.objects.get(club=slovenian_club, user__username="nina")
    choose(nina.user, "cs")
    mail.outbox.clear()
    resend = reverse(
        "scorebook:member_invite", kwargs={"club": slovenian_club.slug, "membership": nina.pk}
    )
    assert admin.post(resend).status_code == 302
    (invitation,) = mail.outbox
    assert "3\xa0dny" in invitation.body  # Czech


@pytest.fixture
def languages_of_reset_mails(monkeypatch):
    """The language active while each password-reset mail is rendered and sent."""
    seen = []
    send_mail = PasswordResetForm.send_mail

    def recording(self, *args, **kwargs):
        seen.append(translation.get_language())
        return send_mail(self, *args, **kwargs)

    monkeypatch.setattr(PasswordResetForm, "send_mail", recording)
    return seen


def ask_for_a_new_password(client, email: str):
    answer = client.post(reverse("password_reset"), {"email": email}, HTTP_ACCEPT_LANGUAGE="fr")
    assert answer.status_code == 302


def test_a_password_reset_mail_speaks_the_account_holders_choice(
    members, client, languages_of_reset_mails
):
    choose(members["viewer"], "de")
    ask_for_a_new_password(client, members["viewer"].email)
    assert languages_of_reset_mails == ["de"]
    assert len(mail.outbox) == 1


def test_a_password_reset_mail_without_a_choice_speaks_his_clubs(
    slovenian_club, members, client, languages_of_reset_mails
):
    ask_for_a_new_password(client, members["viewer"].email)
    assert languages_of_reset_mails == ["sl"]


def test_a_password_reset_mail_for_nobodys_member_speaks_the_page(
    make_user, client, languages_of_reset_mails
):
    loner = make_user("loner")
    ask_for_a_new_password(client, loner.email)
    assert languages_of_reset_mails == ["fr"]


def test_the_admin_site_shows_a_persons_language_on_his_user_page(members, client_as, make_user):
    choose(members["viewer"], "cs")
    root = make_user("root", is_staff=True, is_superuser=True)
    page = client_as(root).get(f"/admin/auth/user/{members['viewer'].pk}/change/")
    assert page.status_code == 200
    assert re.search(
        r'name="profile-0-language".*?<option value="cs" selected>', page.content.decode(), re.S
    )
