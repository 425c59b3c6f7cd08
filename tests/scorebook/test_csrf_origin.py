"""Only a page of this very site gets the "Send again" form of a hand post whose CSRF check
failed (issue 22, part 2): `Origin: null` (a sandboxed frame, a data: page), another site, no
header at all, or a Referer of another site get the plain message, which sends nothing."""

from __future__ import annotations

import html
import re
import uuid

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils.crypto import get_random_string

pytestmark = pytest.mark.django_db

THREE = {"contract": "three", "declarer": "1", "partner": "3", "points": "40"}
RESEND = re.compile(r'<form method="post" action="[^"]*" class="resend">')


def expired_post(members, session, headers, target=None):
    """A hand posted with a token that no longer matches the browser's CSRF secret."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(members["scorekeeper"])
    client.cookies[settings.CSRF_COOKIE_NAME] = get_random_string(32)
    data = {"csrfmiddlewaretoken": get_random_string(32), "client_id": str(uuid.uuid4()), **THREE}
    kwargs = {"club": session.club.slug, "session": session.pk}
    target = target or reverse("scorebook:hand_new", kwargs=kwargs)
    return client.post(target, data, headers=headers)


def back_link(page: str) -> str:
    return html.unescape(re.findall(r'<a href="([^"]*)"', page.split("<main", 1)[1])[0])


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "null"},
        {"Origin": "null", "Referer": "http://testserver/c/ljubljana/"},
        {"Origin": "http://testserver.evil.example"},
        {"Origin": "http://testserver:8443"},
        {"Origin": "https://testserver"},
        {"Referer": "http://testserver.evil.example/c/ljubljana/"},
        {"Referer": "http://testserverx/"},
        {"Referer": "null"},
        {"Referer": "/c/ljubljana/"},
        {},
    ],
    ids=[
        "origin-null",
        "origin-null-referer-here",
        "origin-suffix",
        "origin-other-port",
        "origin-other-scheme",
        "referer-suffix",
        "referer-prefix",
        "referer-null",
        "referer-relative",
        "no-header",
    ],
)
def test_a_post_not_from_a_page_of_this_site_gets_no_resend_form(session, members, headers):
    answer = expired_post(members, session, headers)
    assert answer.status_code == 403
    page = answer.content.decode()
    assert "This page had expired" in page
    assert RESEND.search(page) is None
    assert 'name="client_id"' not in page and 'name="points"' not in page


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://testserver"},
        {"Referer": "http://testserver/c/ljubljana/sessions/1/hands/new/"},
    ],
    ids=["origin", "referer-without-origin"],
)
def test_a_post_from_a_page_of_this_site_gets_the_resend_form(session, members, headers):
    answer = expired_post(members, session, headers)
    assert answer.status_code == 403
    assert RESEND.search(answer.content.decode()) is not None


def test_a_trusted_origin_gets_the_resend_form(session, members, settings):
    settings.CSRF_TRUSTED_ORIGINS = ["https://scores.example.org"]
    answer = expired_post(members, session, {"Origin": "https://scores.example.org"})
    assert RESEND.search(answer.content.decode()) is not None


@pytest.mark.parametrize(
    "referer",
    ["http://testserver.evil.example/c/", "null", "/c/ljubljana/", "//evil.example/", None],
)
def test_back_never_leads_off_this_site(session, members, referer):
    headers = {} if referer is None else {"Referer": referer}
    answer = expired_post(members, session, {"Origin": "null", **headers})
    assert back_link(answer.content.decode()) == reverse("scorebook:my_clubs")


def test_back_leads_to_the_page_of_this_site_it_came_from(session, members):
    """A post that is no hand (a club's settings, say) gets a plain "Back"."""
    came_from = "http://testserver/c/ljubljana/"
    answer = expired_post(members, session, {"Referer": came_from}, reverse("scorebook:my_clubs"))
    assert back_link(answer.content.decode()) == came_from


def test_the_site_sends_its_own_origin_on_its_own_posts():
    """With `no-referrer` a browser sends `Origin: null` on this site's own posts, and the
    resend form would stop working for everybody; `same-origin` keeps the Origin."""
    assert settings.SECURE_REFERRER_POLICY == "same-origin"
