"""Every URL of the site, posted to with the demo club's values and with hostile ones, as the
club's admin, a scorekeeper, a stranger and nobody, answers below 500 (issue 22): a refusal is
a message, never a server error. A hand voided on another phone is posted to its edit form
among them, with the version it had and the one it has.

The URLs come from the resolver itself, so a URL added later is posted to as well.
"""

from __future__ import annotations

import datetime
import os

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone

from scorebook import hands
from scorebook.models import Club, Hand, HouseRules, Membership, Player, Role, Season
from scorebook.series import services as series_services
from scorebook.series.models import PlayerMatch, Series
from scorebook.tournaments import services as tournament_services
from tests.tournaments.helpers import announce

pytestmark = pytest.mark.django_db

# Each field name a form of the site reads, with a value of the demo club's kind.
DEMO_VALUES = {
    "contract": "three",
    "declarer": "1",
    "partner": "3",
    "points": "40",
    "bonus-trula": "silent",
    "pbp-1": "10",
    "tricks-1": "2",
    "version": "1",
    "reason": "misdeal",
    "name": "Ana",
    "username": "nina",
    "email": "nina@example.org",
    "role": "viewer",
    "variant": "slovenian-4",
    "preset": "seed",
    "players": ["1", "2", "3", "4"],
    "seat": ["1", "2", "3", "4"],
    "starts_on": "2026-12-01",
    "ends_on": "2026-12-31",
    "date": "2026-12-01",
    "starts_at": "2026-12-05T19:00",
    "rounds": "2",
    "hands_per_table": "2",
    "capacity": "8",
    "language": "sl",
    "time_zone": "Europe/Ljubljana",
    "slug": "nova",
    "overrides": '{"three": 10}',
    "client_id": "8c0e3c3e-0f5e-4b0a-9f1e-1d2c3b4a5f6e",
    "device_id": "8c0e3c3e-0f5e-4b0a-9f1e-1d2c3b4a5f6f",
    "sits_out": "1",
    "user": "1",
    "into": "1",
    "decision": "accept",
    "archived": "on",
    "sheet": '{"format": 1}',
    # Confirmed hands (issue 27): a word, whose, the hands shown, a PIN.
    "answer": "correct",
    "player": "Bor",
    "hand": "1:1",
    "pin": "1234",
    "again": "1234",
    # Series (issue 29): a series, its points, a tournament joining, a match, an import.
    "kind": "standing",
    "points_preset": "cup",
    "own_points": "25, 20, 16",
    "open_to_other_clubs": "on",
    "best_n": "2",
    "tournament": "1",
    "other": "2",
    "csv": "Ana,24.5",
}

# Text where a number belongs, numbers too large for any column, a NUL, markup, names that
# only look like others, JSON nested too deep, and nothing at all.
HOSTILE = [
    "\x00",
    "9" * 5000,
    "-1e999999",
    "NaN",
    "<script>alert(1)</script>",
    "ＤＥＭＯ-ADMIN",
    '{"a": ' * 200,
    "",
    "2.5",
    "9223372036854775808",
]
PLAIN, HTMX, OUTBOX = {}, {"HTTP_HX_REQUEST": "true"}, {"HTTP_X_SCOREBOOK_OUTBOX": "1"}


def payloads(hostile=HOSTILE):
    """(label, fields, the ways it is sent): every payload as a page posts it; the demo
    values and the first hostile one also as htmx and the outbox send them."""
    yield "demo", DEMO_VALUES, (PLAIN, HTMX, OUTBOX)
    for index, value in enumerate(hostile):
        ways = (PLAIN, HTMX, OUTBOX) if index == 0 else (PLAIN,)
        yield f"hostile-{index}", {name: value for name in DEMO_VALUES}, ways
    yield "empty", {}, (PLAIN,)


def every_url(kwargs) -> list[str]:
    """Each address of the site once, logging out last (it ends the client's login)."""
    urls = {
        reverse(name, kwargs={key: kwargs[key] for key in groups})
        for name, groups in every_pattern()
    }
    logout = reverse("logout")
    return [*sorted(urls - {logout}), logout]


def every_pattern(resolver: URLResolver | None = None, prefix: str = "", groups=frozenset()):
    """(name, the names of its parameters) of every named URL, namespaced as reverse() takes
    it, with the parameters of the prefixes it is included under."""
    resolver = resolver or get_resolver()
    for entry in resolver.url_patterns:
        own = groups | set(entry.pattern.regex.groupindex)
        if isinstance(entry, URLResolver):
            namespace = entry.namespace
            if namespace == "admin":  # Django's own admin has its own tests
                continue
            inner = f"{prefix}{namespace}:" if namespace else prefix
            yield from every_pattern(entry, inner, own)
        elif isinstance(entry, URLPattern) and entry.name:
            yield prefix + entry.name, own


@pytest.fixture
def world(django_user_model):
    """The demo club, with a hand voided on another phone, a season, a set of house rules,
    a tournament and a stranger: an id for every kind of URL parameter."""
    call_command("demo", stdout=open(os.devnull, "w"))  # noqa: SIM115
    club = Club.objects.get(slug="demo")
    admin = django_user_model.objects.get(username="demo-admin")
    session = club.sessions.filter(variant="slovenian-4").first()
    voided = Hand.objects.filter(session=session).order_by("number").first()
    hands.void_hand(voided, "misdeal", voided.version, admin, change_closed=True)
    # Its hands wait for the other side's word: the views of confirmations read every value.
    type(session).objects.filter(pk=session.pk).update(confirmation="asked")
    keeper = django_user_model.objects.create_user("keeper", password="x")
    Membership.objects.create(user=keeper, club=club, role=Role.SCOREKEEPER)
    stranger = django_user_model.objects.create_user("stranger", password="x")
    season = Season.objects.create(club=club, name="Winter", starts_on=datetime.date(2026, 1, 1))
    house_rules = HouseRules.objects.create(
        club=club, variant="slovenian-4", name="Ours", preset="seed"
    )
    tournament = announce(club, admin, starts_at=timezone.now() + datetime.timedelta(days=3))
    walk_in = tournament_services.add_walk_in(tournament, name="Zala Novak")
    # A table of the tournament, its sheet another of the club's sessions; a message to all.
    rnd = tournament.round_set.create(number=1, drawn_at=timezone.now())
    sheet = club.sessions.exclude(pk=session.pk).first()
    table = rnd.tables.create(number=1, session=sheet)
    message = tournament.messages.create(text="Break", sent_at=timezone.now())
    # A knockout match the organiser is to decide (replay or keep).
    decision = tournament.events.create(
        kind="decide", at=timezone.now(), round_number=2, table_number=1, seen=False
    )
    series = Series.objects.create(club=club, name="Demo cup")
    series_season = series.seasons.create(
        name="This year",
        starts_on=timezone.localdate() - datetime.timedelta(days=30),
        ends_on=timezone.localdate() + datetime.timedelta(days=300),
    )
    entry = series_services.add_tournament(series_season, tournament, admin)
    ana, bor = Player.objects.filter(club=club).order_by("pk")[:2]
    match = PlayerMatch.objects.create(series=series, player=ana, other=bor)
    kwargs = {
        "club": club.slug,
        "session": session.pk,
        "number": voided.number,
        "player": Player.objects.filter(club=club).first().pk,
        "membership": Membership.objects.get(user=admin, club=club).pk,
        "season": season.pk,
        "house_rules_id": house_rules.pk,
        "tournament": tournament.pk,
        "registration": walk_in.pk,
        "table": table.pk,
        "message": message.pk,
        "event": decision.pk,
        "uidb64": "MQ",
        "token": "set-password",
        "series": series.pk,
        "series_season": series_season.pk,
        "entry": entry.pk,
        "match": match.pk,
        "lang": "sl",  # a public page's address says its language (issue 30)
    }
    return {
        "kwargs": kwargs,
        "users": {"admin": admin, "keeper": keeper, "stranger": stranger, "nobody": None},
        "voided": voided,
    }


def client_of(user) -> Client:
    client = Client(raise_request_exception=False)
    if user is not None:
        client.force_login(user)
    return client


@pytest.mark.parametrize("who", ["admin", "keeper", "stranger", "nobody"])
def test_every_url_answers_every_post_below_500(world, who):
    client = client_of(world["users"][who])
    # The admin may do most: every payload. The others are refused early: a few are enough.
    hostile = HOSTILE if who == "admin" else HOSTILE[:3]
    urls = every_url(world["kwargs"])
    posted, failures = 0, []
    for url in urls:
        for label, data, ways in payloads(hostile):
            statuses = {client.post(url, data, **headers).status_code for headers in ways}
            posted += len(ways)
            failures += [f"{status} {url} {label}" for status in statuses if status >= 500]
            if statuses == {405}:  # a page that takes no POST: the method is all it reads
                break
    assert len(urls) >= 70  # every URL of the site, not a handful
    assert posted > 3 * len(urls)
    assert failures == []


@pytest.mark.parametrize("version", ["the-old", "the-new"])
def test_the_edit_form_of_a_voided_hand_answers_409(world, version):
    voided = Hand.objects.get(pk=world["voided"].pk)
    posted = {**DEMO_VALUES, "version": str(voided.version - (version == "the-old"))}
    client = client_of(world["users"]["admin"])
    kwargs = {key: world["kwargs"][key] for key in ("club", "session", "number")}
    url = reverse("scorebook:hand_edit", kwargs=kwargs)
    for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
        response = client.post(url, posted, **headers)
        assert response.status_code == 409
    assert Hand.objects.get(pk=voided.pk).version == voided.version
