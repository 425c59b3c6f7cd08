"""Fixtures shared by the app and browser tests, the rule that a skipped test fails the run, and
the rule that a browser test is marked e2e (so that `make test-fast`, `-m "not e2e"`, skips it)."""

from __future__ import annotations

import copy
import datetime

import pytest

# A skip hides a test that did not run; CI accepts one only when its reason starts with this.
ACCEPTED_SKIP_PREFIX = "CI-ACCEPTED:"


def pytest_collection_modifyitems(config, items):
    unmarked = [
        item.nodeid
        for item in items
        if "browser" in item.fixturenames and item.get_closest_marker("e2e") is None
    ]
    if unmarked:
        raise pytest.UsageError(
            "A browser test must be marked e2e (make test-fast leaves those out): "
            + ", ".join(unmarked)
        )


# Under pytest-xdist this runs in the controller too, whose terminal reporter has every
# worker's reports (tests/scorebook/test_suite_rules.py runs a skip under -n 2).
def pytest_sessionfinish(session, exitstatus):
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None:
        return
    refused = []
    for report in reporter.stats.get("skipped", []):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        if "CI-ACCEPTED:" not in reason:
            refused.append(f"{report.nodeid}: {reason}")
    if refused:
        reporter.write_line("")
        reporter.write_line(
            f"FAILED: {len(refused)} test(s) skipped without a '{ACCEPTED_SKIP_PREFIX}' reason:",
            red=True,
        )
        for line in refused:
            reporter.write_line(f"  {line}", red=True)
        if session.exitstatus == 0:
            session.exitstatus = 1


PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def built_once(django_db_setup, django_db_blocker):
    """For a module whose tests share the same rows: they are made once, in a transaction undone
    as the module ends, as Django's setUpTestData does for a class. Each test's own transaction
    (the db fixture) is a savepoint inside this one, so what a test changes is undone before the
    next test as ever. Such a module holds no transactional test: its flush would empty them."""
    from django.db import transaction

    with django_db_blocker.unblock(), transaction.atomic():
        yield
        transaction.set_rollback(True)


@pytest.fixture
def here(made, db) -> dict:
    """This test's own copies of what its module made once (the module's `made`, on
    `built_once`), as setUpTestData gives them: what a test sets on one in memory stays in that
    test. The cache starts empty, as it did when each test made its rows anew (a public page
    is kept under its club's stamp, now the same in every test of the module)."""
    from django.core.cache import cache

    cache.clear()
    return copy.deepcopy(made)


def made_once(*names: str) -> list:
    """A fixture for each of `names`: this test's copy of `made[name]`, standing in the module
    for the fixture of that name that the suite's other tests make anew."""

    def copy_of(name):
        @pytest.fixture(name=name)
        def fixture(here):
            return here[name]

        return fixture

    return [copy_of(name) for name in names]


def new_user(username: str, **extra):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(
        username=username, password=PASSWORD, email=f"{username}@example.org", **extra
    )


def new_club():
    from scorebook.models import Club

    return Club.objects.create(name="Ljubljana Tarock", slug="ljubljana")


def new_other_club():
    from scorebook.models import Club

    return Club.objects.create(name="Zagreb Tarock", slug="zagreb")


def new_members(club, other_club) -> dict:
    """One user per role of `club`, plus an admin of `other_club` and nobody."""
    from scorebook.models import Membership, Role

    users = {
        "admin": new_user("alma"),
        "scorekeeper": new_user("saso"),
        "viewer": new_user("vida"),
        "outsider": new_user("olga"),
    }
    Membership.objects.create(user=users["admin"], club=club, role=Role.ADMIN)
    Membership.objects.create(user=users["scorekeeper"], club=club, role=Role.SCOREKEEPER)
    Membership.objects.create(user=users["viewer"], club=club, role=Role.VIEWER)
    Membership.objects.create(user=users["outsider"], club=other_club, role=Role.ADMIN)
    users["anonymous"] = None
    return users


@pytest.fixture
def make_user(db):
    return new_user


@pytest.fixture
def club(db):
    return new_club()


@pytest.fixture
def other_club(db):
    return new_other_club()


@pytest.fixture
def members(club, other_club):
    return new_members(club, other_club)


def new_players(club) -> list:
    from scorebook.models import Player

    return [Player.objects.create(club=club, name=n) for n in ["Ana", "Bor", "Cene", "Dani", "Eva"]]


def new_session(club, players, members):
    """An open slovenian-4 session with Ana, Bor, Cene and Dani seated, made without the engine."""
    from scorebook.models import Session, SessionSeat

    s = Session.objects.create(
        club=club,
        variant="slovenian-4",
        rules={"preset": "seed"},
        date=datetime.date(2026, 11, 27),
        table_label="Table 1",
        created_by=members["scorekeeper"],
    )
    for position, player in enumerate(players[:4], start=1):
        SessionSeat.objects.create(session=s, player=player, position=position)
    return s


@pytest.fixture
def players(club):
    return new_players(club)


@pytest.fixture
def session(club, players, members):
    return new_session(club, players, members)


@pytest.fixture
def client_as(db):
    """client_as(user) -> a test client logged in as `user` (None: anonymous)."""
    from django.test import Client

    def make(user, **kwargs):
        client = Client(**kwargs)
        if user is not None:
            client.force_login(user)
        return client

    return make


@pytest.fixture
def tarzs(club, players, members):
    """A Slovenian session on the federation's rules, where radelci count."""
    from scorebook import services

    return services.start_session(
        club=club,
        variant_id="slovenian-4",
        preset="tarzs",
        players=players[:4],
        user=members["scorekeeper"],
    )
