"""The server's side of a phone without signal (issue 15): a hand sent again is stored once, a
known id with other content and the same hand from another phone are asked about, the outbox
reads JSON for every answer, an expired page keeps the typed hand, and the installable app's
files, the per-user key, the QR code of the sheet and the logout that clears the caches."""

from __future__ import annotations

import datetime
import email.utils
import html
import json
import re
import time
import uuid

import pytest
import segno
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import get_random_string

from scorebook.context_processors import key_of
from scorebook.models import Entry, Hand
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

THREE = {"contract": "three", "declarer": "1", "partner": "3", "points": "40"}
PHONE_A = str(uuid.uuid4())
PHONE_B = str(uuid.uuid4())
OUTBOX = {"X-Scorebook-Outbox": "1"}


def url(name, session, **kwargs):
    return reverse(name, kwargs={"club": session.club.slug, "session": session.pk, **kwargs})


def send(client, session, fields=THREE, *, client_id=None, device="", headers=None, **extra):
    """A new hand posted as the form (or, with OUTBOX headers, the outbox) sends it."""
    data = {"client_id": client_id or str(uuid.uuid4()), "device_id": device, **fields, **extra}
    return client.post(url("scorebook:hand_new", session), data, headers=headers or {})


def stored(session) -> list[tuple[int, int]]:
    """Each stored hand's number and card points."""
    return [(hand.number, hand.data["points"]) for hand in session.hands.order_by("number")]


def hidden_inputs(page: str) -> list[tuple[str, str]]:
    return [
        (html.unescape(name), html.unescape(value))
        for name, value in re.findall(r'<input type="hidden" name="([^"]*)" value="([^"]*)">', page)
    ]


# --- A hand sent again ------------------------------------------------------------------------


def test_a_hand_sent_again_is_stored_once_and_answered_as_recorded(session, members, client_as):
    client = client_as(members["scorekeeper"])
    client_id = str(uuid.uuid4())
    first = send(client, session, client_id=client_id, device=PHONE_A, headers=OUTBOX)
    again = send(client, session, client_id=client_id, device=PHONE_A, headers=OUTBOX)
    assert (first.status_code, first.json()) == (
        200,
        {"status": "recorded", "number": 1, "repeat": False},
    )
    assert (again.status_code, again.json()) == (
        200,
        {"status": "recorded", "number": 1, "repeat": True},
    )
    assert stored(session) == [(1, 40)]
    assert Entry.objects.filter(hand__session=session).count() == 4


def test_a_known_id_with_other_content_is_refused_and_nothing_stored(session, members, client_as):
    client = client_as(members["scorekeeper"])
    client_id = str(uuid.uuid4())
    assert send(client, session, client_id=client_id).status_code == 302
    other = {**THREE, "points": "50"}

    answer = send(client, session, other, client_id=client_id)

    assert answer.status_code == 409
    page = answer.content.decode()
    assert (
        "This hand was already sent as hand 1 with other content; "
        "check the sheet and enter it again."
    ) in page
    assert stored(session) == [(1, 40)]
    # Entered again from this very form: a new id, so the next save is a new hand.
    assert ("client_id", client_id) not in hidden_inputs(page)
    fresh = dict(hidden_inputs(page))["client_id"]
    assert send(client, session, other, client_id=fresh).status_code == 302
    assert stored(session) == [(1, 40), (2, 50)]


def test_the_outbox_is_told_a_known_id_differs(session, members, client_as):
    client = client_as(members["scorekeeper"])
    client_id = str(uuid.uuid4())
    send(client, session, client_id=client_id, headers=OUTBOX)
    answer = send(client, session, {**THREE, "points": "50"}, client_id=client_id, headers=OUTBOX)
    assert answer.status_code == 409
    body = answer.json()
    assert body["status"] == "differs"
    assert "already sent as hand 1 with other content" in body["message"]
    assert stored(session) == [(1, 40)]


# --- The same hand from two phones ------------------------------------------------------------


def test_the_same_hand_from_another_phone_is_asked_about(session, members, client_as):
    send(client_as(members["admin"]), session, device=PHONE_A)
    second = client_as(members["scorekeeper"])

    answer = send(second, session, device=PHONE_B)

    assert answer.status_code == 409
    page = answer.content.decode()
    assert (
        "Hand 1 was just recorded by alma&#x27;s phone with the same score — record it again?"
    ) in page
    assert 'name="confirm_repeat" value="1"' in page  # the button that sends it again
    assert ("device_id", PHONE_B) in hidden_inputs(page)
    assert stored(session) == [(1, 40)]


def test_record_it_again_stores_the_second_hand(session, members, client_as):
    send(client_as(members["admin"]), session, device=PHONE_A)
    second = client_as(members["scorekeeper"])
    page = send(second, session, device=PHONE_B).content.decode()

    # What the "Record it again" button sends: the form's fields and confirm_repeat.
    fields = dict(hidden_inputs(page))
    answer = send(
        second,
        session,
        client_id=fields["client_id"],
        device=fields["device_id"],
        confirm_repeat="1",
    )

    assert answer.status_code == 302
    assert stored(session) == [(1, 40), (2, 40)]


def test_the_outbox_is_told_of_a_duplicate_and_may_confirm_it(session, members, client_as):
    send(client_as(members["admin"]), session, device=PHONE_A, headers=OUTBOX)
    second = client_as(members["scorekeeper"])
    client_id = str(uuid.uuid4())

    warned = send(second, session, client_id=client_id, device=PHONE_B, headers=OUTBOX)
    confirmed = send(
        second, session, client_id=client_id, device=PHONE_B, headers=OUTBOX, confirm_repeat="1"
    )

    assert warned.status_code == 409
    assert warned.json() == {
        "status": "duplicate",
        "message": "Hand 1 was just recorded by alma's phone with the same score "
        "— record it again?",
        "number": 1,
    }
    assert confirmed.json() == {"status": "recorded", "number": 2, "repeat": False}


def test_the_recorders_full_name_is_used_when_he_has_one(session, members, client_as):
    admin = members["admin"]
    admin.first_name, admin.last_name = "Alma", "Novak"
    admin.save()
    send(client_as(admin), session, device=PHONE_A)
    answer = send(client_as(members["scorekeeper"]), session, device=PHONE_B, headers=OUTBOX)
    assert answer.json()["message"].startswith("Hand 1 was just recorded by Alma Novak's phone")


def test_one_phones_own_hands_are_not_asked_about(session, members, client_as):
    """Its outbox sends the hands it kept in turn: two equal hands in a row are two hands."""
    client = client_as(members["scorekeeper"])
    assert send(client, session, device=PHONE_A).status_code == 302
    assert send(client, session, device=PHONE_A).status_code == 302
    assert stored(session) == [(1, 40), (2, 40)]


def test_without_a_device_id_on_either_phone_nothing_is_asked(session, members, client_as):
    assert send(client_as(members["admin"]), session).status_code == 302
    assert send(client_as(members["scorekeeper"]), session).status_code == 302
    assert stored(session) == [(1, 40), (2, 40)]


def test_another_score_is_not_the_same_hand(session, members, client_as):
    send(client_as(members["admin"]), session, device=PHONE_A)
    other = {**THREE, "points": "41"}
    assert (
        send(client_as(members["scorekeeper"]), session, other, device=PHONE_B).status_code == 302
    )
    assert stored(session) == [(1, 40), (2, 41)]


@pytest.mark.parametrize("minutes_ago,asked", [(4, True), (6, False)])
def test_just_recorded_means_within_five_minutes(minutes_ago, asked, session, members, client_as):
    send(client_as(members["admin"]), session, device=PHONE_A)
    then = timezone.now() - datetime.timedelta(minutes=minutes_ago)
    Hand.objects.filter(session=session).update(created_at=then)

    answer = send(client_as(members["scorekeeper"]), session, device=PHONE_B)

    assert answer.status_code == (409 if asked else 302)
    assert len(stored(session)) == (1 if asked else 2)


def test_a_voided_hand_is_not_asked_about(session, members, client_as):
    send(client_as(members["admin"]), session, device=PHONE_A)
    Hand.objects.filter(session=session).update(voided=True, void_reason="misdeal")
    assert send(client_as(members["scorekeeper"]), session, device=PHONE_B).status_code == 302


# --- Every answer to the outbox ---------------------------------------------------------------


def test_the_outbox_is_told_each_problem_at_its_field(session, members, client_as):
    client = client_as(members["scorekeeper"])
    answer = send(client, session, {**THREE, "points": "95"}, headers=OUTBOX)
    assert answer.status_code == 422
    body = answer.json()
    assert body["status"] == "invalid"
    assert body["errors"] == {"points": ["must be between 0 and 70"]}
    assert body["message"] == "Points: must be between 0 and 70"
    assert stored(session) == []


def test_the_outbox_is_told_the_session_is_closed(session, members, client_as):
    session.is_closed, session.closed_at = True, timezone.now()
    session.save()
    answer = send(client_as(members["scorekeeper"]), session, headers=OUTBOX)
    assert answer.status_code == 409
    assert answer.json()["status"] == "closed"
    assert "closed" in answer.json()["message"]
    assert stored(session) == []


def test_an_expired_login_is_401_for_the_outbox_and_a_redirect_for_a_page(session, client_as):
    anonymous = client_as(None)
    answer = send(anonymous, session, headers=OUTBOX)
    page = send(anonymous, session)

    assert answer.status_code == 401
    body = answer.json()
    assert body["status"] == "login"
    assert body["login"] == "/accounts/login/?next=" + url("scorebook:hand_new", session)
    assert body["message"]
    assert page.status_code == 302
    assert page["Location"].startswith("/accounts/login/")
    assert stored(session) == []


def saved_by(user) -> dict[str, str]:
    """The outbox's headers of a hand kept by a page of `user`."""
    return {**OUTBOX, "X-Scorebook-User": key_of(user)}


def test_a_hand_sent_under_another_login_is_409_other_user_and_not_recorded(
    session, members, client_as
):
    """One browser, two tabs: alma logged in in the second tab, which logs saso's first tab in
    as alma too; saso's tab sends the hand saso saved. It is not alma's to record."""
    saso, alma = members["scorekeeper"], members["admin"]

    answer = send(client_as(alma), session, headers=saved_by(saso))

    assert answer.status_code == 409
    assert answer.json() == {
        "status": "other-user",
        "message": "This hand was saved on this phone by someone else: "
        "it is sent when they log in.",
        "login": "/accounts/login/?next=" + url("scorebook:hand_new", session),
    }
    assert stored(session) == []
    # Under the login that saved it, the same hand is recorded, as saso's.
    recorded = send(client_as(saso), session, headers=saved_by(saso))
    assert recorded.json() == {"status": "recorded", "number": 1, "repeat": False}
    assert session.hands.get().created_by == saso


def test_a_logged_out_outbox_is_asked_to_log_in_whoever_saved_the_hand(session, members, client_as):
    answer = send(client_as(None), session, headers=saved_by(members["scorekeeper"]))
    assert (answer.status_code, answer.json()["status"]) == (401, "login")
    assert stored(session) == []


def test_a_page_names_its_user_and_when_his_login_ends(members, client):
    """The end is fixed at login: every page says the same one, also after the session was
    saved again (the language chosen), and it is the session cookie's."""
    user = members["scorekeeper"]
    user.first_name, user.last_name = "Sašo", "Kos"
    user.save()
    client.login(username="saso", password=PASSWORD)

    def body():
        page = client.get(reverse("scorebook:my_clubs")).content.decode()
        return re.search(r"<body[^>]*>", page).group(0)

    def end(body):
        return int(re.search(r'data-user-expires="(\d+)"', body).group(1))

    first = body()
    client.post(reverse("set_language"), {"language": "en"})
    again = body()

    assert f'data-user="{key_of(user)}"' in first
    assert 'data-user-name="Sašo Kos"' in first
    expires = end(first)
    assert end(again) == expires
    assert expires == int(client.session.get_expiry_date().timestamp() * 1000)
    assert abs(expires / 1000 - (time.time() + settings.SESSION_COOKIE_AGE)) < 60
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]["expires"]
    # Whole seconds, counted from the save: within a second or two.
    assert abs(email.utils.parsedate_to_datetime(cookie).timestamp() - expires / 1000) < 3
    client.logout()
    assert "data-user-" not in client.get(reverse("login")).content.decode()


# --- An expired page (CSRF) keeps the hand ----------------------------------------------------


def expired_form_post(members, session, fields=THREE, **headers):
    """A hand posted from a form opened before the browser got a new CSRF secret (logging in
    again in another tab rotates it): the form's token no longer matches."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(members["scorekeeper"])
    form = client.get(url("scorebook:hand_new", session)).content.decode()
    old_token = dict(hidden_inputs(form))["csrfmiddlewaretoken"]
    client.cookies[settings.CSRF_COOKIE_NAME] = get_random_string(32)
    data = {"csrfmiddlewaretoken": old_token, "client_id": str(uuid.uuid4()), **fields}
    return client, client.post(url("scorebook:hand_new", session), data, headers=headers)


def resend_form(page: str) -> tuple[str, list[tuple[str, str]]] | None:
    """The "Send again" form of an expired page: its address and its fields."""
    found = re.search(
        r'<form method="post" action="([^"]*)" class="resend">(.*?)</form>', page, re.S
    )
    return None if found is None else (html.unescape(found.group(1)), hidden_inputs(found.group(2)))


def test_an_expired_page_keeps_the_typed_hand_and_sends_it_once(session, members):
    fields = {**THREE, "bonus-trula": "silent"}
    origin = {"Origin": "http://testserver"}
    client, answer = expired_form_post(members, session, fields, **origin)

    assert answer.status_code == 403
    page = answer.content.decode()
    assert "This page had expired" in page
    action, kept = resend_form(page)
    assert action == url("scorebook:hand_new", session)
    assert {name for name, _ in kept} == {"csrfmiddlewaretoken", "client_id", *fields}
    assert {name: value for name, value in kept if name in fields} == fields
    assert stored(session) == []

    resent = client.post(action, dict(kept), headers=origin)
    resent_again = client.post(action, dict(kept), headers=origin)  # a double tap

    assert resent.status_code == resent_again.status_code == 302
    assert stored(session) == [(1, 40)]
    assert session.hands.get().data["bonuses"][0]["name"] == "trula"


@pytest.mark.parametrize(
    "headers",
    [{"Origin": "https://elsewhere.example"}, {}],
    ids=["another-site", "no-origin"],
)
def test_an_expired_post_not_from_this_site_gets_no_button_to_send_it(headers, session, members):
    _client, answer = expired_form_post(members, session, **headers)
    assert answer.status_code == 403
    page = answer.content.decode()
    assert "This page had expired" in page
    assert "Send again" not in page
    assert resend_form(page) is None
    assert not {"client_id", "points"} & {name for name, _ in hidden_inputs(page)}


def test_an_expired_page_of_a_logged_out_phone_asks_to_log_in_first(session):
    client = Client(enforce_csrf_checks=True)
    client.cookies[settings.CSRF_COOKIE_NAME] = get_random_string(32)
    data = {"csrfmiddlewaretoken": get_random_string(32), "client_id": str(uuid.uuid4()), **THREE}
    answer = client.post(
        url("scorebook:hand_new", session), data, headers={"Origin": "http://testserver"}
    )
    assert answer.status_code == 403
    page = answer.content.decode()
    assert "You are logged out" in page
    assert f'href="{reverse("login")}" target="_blank"' in page
    assert resend_form(page) is not None  # the hand is still there to send after logging in


def test_an_expired_live_score_says_so_and_leaves_the_fields(session, members):
    client = Client(enforce_csrf_checks=True)
    client.force_login(members["scorekeeper"])
    answer = client.post(
        url("scorebook:hand_preview", session) + "?part=fields",
        THREE,
        headers={"HX-Request": "true", "Origin": "http://testserver", "X-CSRFToken": "stale"},
    )
    assert answer.status_code == 403
    assert answer["HX-Reswap"] == "none"  # the fields htmx would have replaced stay
    page = answer.content.decode()
    assert 'id="hand-result"' in page and 'hx-swap-oob="true"' in page
    assert "This page has expired" in page


def test_the_outbox_is_told_of_an_expired_token(session, members):
    client, answer = expired_form_post(members, session, **OUTBOX)
    assert answer.status_code == 403
    assert answer.json()["status"] == "csrf"
    assert answer.json()["message"]


# --- The installable app ----------------------------------------------------------------------


def test_the_manifest_makes_an_installable_app(client):
    answer = client.get("/manifest.webmanifest")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/manifest+json"
    manifest = json.loads(answer.content)
    assert manifest["name"] == manifest["short_name"] == "Scorebook"
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == (
        "/",
        "/",
        "standalone",
    )
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"])
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["background_color"])
    icons = {
        (icon["type"], icon["sizes"], icon.get("purpose", "any")) for icon in manifest["icons"]
    }
    assert icons == {
        ("image/svg+xml", "any", "any"),
        ("image/png", "192x192", "any"),
        ("image/png", "512x512", "any"),
        ("image/png", "512x512", "maskable"),
    }
    for icon in manifest["icons"]:
        image = client.get(icon["src"])
        assert image.status_code == 200, icon["src"]
        content = b"".join(image.streaming_content)
        if icon["type"] == "image/png":
            size = int(icon["sizes"].split("x")[0])
            assert content[:8] == b"\x89PNG\r\n\x1a\n"
            width, height = int.from_bytes(content[16:20]), int.from_bytes(content[20:24])
            assert (width, height) == (size, size)
        else:
            assert content.lstrip().startswith(b"<svg")


def test_every_page_links_the_manifest_icon_and_theme_colour(client):
    page = client.get(reverse("login")).content.decode()
    manifest = json.loads(client.get("/manifest.webmanifest").content)
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert f'<meta name="theme-color" content="{manifest["theme_color"]}">' in page
    assert re.search(r'<link rel="icon" href="[^"]*icon\.svg" type="image/svg\+xml">', page)
    assert 'href="data:,"' not in page


def test_the_service_worker_is_served_from_the_root(client):
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "text/javascript; charset=utf-8"
    assert answer["Cache-Control"] == "no-cache"
    assert answer["Service-Worker-Allowed"] == "/"
    # The script as it is, with what the server knows written in (tests/scorebook/test_worker.py).
    source = (settings.BASE_DIR / "static" / "scorebook" / "sw.js").read_text(encoding="utf-8")
    before, after = source.split("/* written by the server */ {}")
    served = answer.content.decode()
    assert served.startswith(before + "{\n") and served.endswith("\n}" + after)


def test_the_offline_page_is_the_same_for_everybody(members, client_as):
    user = members["scorekeeper"]
    answer = client_as(user).get("/offline/")
    assert answer.status_code == 200
    page = answer.content.decode()
    assert "No connection" in page
    # The worker keeps one copy for the phone: nothing of the user who happened to fetch it.
    assert user.username not in page
    assert "data-user" not in page  # nobody's page: it tells the worker nothing of who is in
    assert "csrfmiddlewaretoken" not in page
    assert '"X-CSRFToken": ""' in page


@pytest.mark.parametrize("logged_in", [True, False], ids=["logged-in", "logged-out"])
def test_the_offline_page_names_no_account(logged_in, members, client_as):
    """Shown to whoever is logged in on the phone, or to nobody: a "Log in" in its header
    would tell a logged-in player that he is logged out."""
    page = client_as(members["scorekeeper"] if logged_in else None).get("/offline/")
    text = page.content.decode()
    assert "No connection" in text
    assert reverse("login") not in text
    assert "Log in" not in text and "Log out" not in text
    assert 'name="language"' not in text  # the switcher posts, which needs the connection


@pytest.mark.parametrize(
    "lang,expected", [("sl", "Ni povezave"), ("fr", "Pas de connexion"), ("xx", "No connection")]
)
def test_the_offline_page_speaks_the_language_the_worker_asks_for(lang, expected, client):
    """The worker fetches one copy per language the phone's pages spoke, without cookies."""
    answer = client.get("/offline/", {"lang": lang}, headers={"Accept-Language": "en"})
    spoken = lang if lang != "xx" else "en"
    text = answer.content.decode()
    assert expected in text
    assert f'<html lang="{spoken}">' in text
    assert answer["Content-Language"] == spoken


def test_each_user_has_an_opaque_key_on_the_page(members, client_as):
    def key(user):
        page = client_as(user).get(reverse("scorebook:my_clubs")).content.decode()
        found = re.search(r'<body data-user="([^"]*)"', page)
        return found.group(1)

    alma, saso = key(members["admin"]), key(members["scorekeeper"])
    assert re.fullmatch(r"[0-9a-f]{16}", alma) and re.fullmatch(r"[0-9a-f]{16}", saso)
    assert alma != saso
    assert alma == key(members["admin"])  # the same on every page and visit
    assert str(members["admin"].pk) != alma
    anonymous = client_as(None).get(reverse("login")).content.decode()
    assert '<body data-user=""' in anonymous


def test_logging_out_clears_the_browsers_cached_pages(members, client_as):
    client = client_as(members["scorekeeper"])
    answer = client.post(reverse("logout"))
    assert answer.status_code == 302
    assert answer["Clear-Site-Data"] == '"cache"'
    assert client.get(reverse("scorebook:my_clubs")).status_code == 302  # logged out indeed


# --- Join another phone -----------------------------------------------------------------------


def qr_modules(svg: str) -> str:
    """The drawn modules of a segno SVG: its path of dark modules."""
    return re.search(r'<path[^>]*class="qrline"[^>]*d="([^"]*)"', svg).group(1)


def test_the_session_page_shows_a_qr_code_of_the_sheets_address(session, members, client_as):
    client = client_as(members["viewer"])
    page = client.get(url("scorebook:session", session)).content.decode()

    sheet_address = "http://testserver" + url("scorebook:sheet", session)
    assert "Scan to open this sheet on another phone" in page
    assert qr_modules(page) == qr_modules(segno.make_qr(sheet_address).svg_inline())
    assert "style=" not in re.search(r"<svg.*?</svg>", page, re.S).group(0)
    # Scanning it grants nothing: the sheet asks for a login first.
    answer = client_as(None).get(sheet_address)
    assert answer.status_code == 302 and answer["Location"].startswith("/accounts/login/")
