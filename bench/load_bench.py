"""Phones saving hands and polling sheets, over HTTP against gunicorn, on SQLite and PostgreSQL.

    .venv/bin/python bench/load_bench.py [--database both|sqlite|postgresql] [--seconds 60]
        [--tables 100] [--burst-seconds 15] [--postgres postgres://postgres@127.0.0.1:5432/...]

The scenario is a national tournament day: ``--tables`` tables (100), four phones at each, every
phone polling its sheet every 5 seconds (80 polls/s at 100 tables) and each table saving one
hand every 3 minutes. The target is a p95 of at most 100 ms for saves and for polls.

For each database, in a child process of its own (Django is set up once per process):

1. A bench database: a SQLite file in a temporary folder, or the PostgreSQL database named by
   ``--postgres``, dropped and created again. Migrated, with the static files collected into the
   temporary folder (DEBUG is off, as in production). One club, one scorekeeper per table, four
   players per table and an open Slovenian session per table, already ``--hands`` hands long.
2. Each phone's login: a Django session minted in the bench process for its table's scorekeeper
   (the password check is not what is measured, and 400 of them would take minutes), sent as
   the session cookie. Each phone then opens the hand form once, untimed, for its CSRF cookie
   and token.
3. gunicorn, started as production starts it (``gunicorn -c gunicorn.conf.py scorebook.wsgi``,
   its workers as that file says) on a free 127.0.0.1 port, with DEBUG off.
4. The scenario for ``--seconds`` of steady state. Every poll and save has a fixed time in a
   schedule made in advance: each phone polls at its own random offset within 5 s and every
   5 s after it; each table's first phone opens the form and saves at its own offset within
   3 minutes (so in 60 s a third of the tables save). A pool of worker threads (``--workers``)
   takes the events in order and sends each at its time, on a new connection (gunicorn's sync
   workers close every connection after one answer). A poll is what htmx sends: a GET of the
   sheet with HX-Request and ``?since=`` the state of the sheet the phone shows; the answer is
   204 when nothing changed, else the sheet's table, whose state the phone keeps. A save is
   the htmx POST of the hand form, answered with the refreshed sheet page. Times are measured
   from sending to the last byte read; how late the bench sent (its own workers being busy)
   is reported too, as a check on the bench itself.
   The tables are a real tournament's round 1 (timed: 90 minutes), so every save goes
   through the tournament's checks (the time limit, finishing a table). Its 400 players each
   have a login and keep their tournament page open: its "where do I go" part refreshes
   every 15 seconds (htmx, about 27 requests/s), and the organiser's director's screen every
   10 seconds. Their p95s are printed beside the phones'.
5. The burst: 16 clients, each at a table of its own, saving as fast as they can for
   ``--burst-seconds``; the saves per second.

Its last line with ``--database both`` (the default):

    load: saves p95 A ms, polls p95 B ms (SQLite); saves p95 C ms, polls p95 D ms (PostgreSQL);
    most saves/s at 16 clients: E (SQLite), F (PostgreSQL)

With ``--database sqlite`` (or ``postgresql``) it prints its half: ``load: saves p95 A ms, polls
p95 B ms (SQLite); most saves/s at 16 clients: E (SQLite)``. Everything runs on loopback; the
load generator shares the machine's cores with gunicorn and the database, as phones would not.
"""

from __future__ import annotations

import argparse
import datetime
import gzip
import http.client
import os
import random
import re
import secrets
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))  # this checkout's scorebook, as gunicorn (cwd ROOT) loads it

DEFAULT_POSTGRES = "postgres://postgres@127.0.0.1:5432/scorebook_loadbench"
LABELS = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}
PHONES = 4  # at each table
POLL_EVERY = 5.0  # seconds, as sheet_table.html's hx-trigger says
SAVE_EVERY = 180.0  # seconds: one hand a table every 3 minutes
BURST_CLIENTS = 16
WHERE_EVERY = 15.0  # seconds, as tournaments/_where.html's hx-trigger says
DIRECTOR_EVERY = 10.0  # seconds, as tournaments/_director.html's hx-trigger says
HAND = {"contract": "three", "declarer": "1", "partner": "3", "points": "40"}
STATE = re.compile(rb"\?since=([0-9_]+)")  # the version the phone shows (SheetVersion)
TOKEN = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')


# --- Measuring --------------------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float:
    """The value below which `share` of the values lie (nearest rank); nan when there are none."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def summary(name: str, times: list[float]) -> str:
    return (
        f"{name}: {len(times)}, p50 {percentile(times, 0.5):.1f} ms, "
        f"p95 {percentile(times, 0.95):.1f} ms, max {max(times, default=float('nan')):.1f} ms"
    )


# --- A phone ----------------------------------------------------------------------------------


class Phone:
    """One phone's cookies and what its sheet shows; it speaks HTTP/1.1 to the server."""

    def __init__(self, port: int, session_cookie: str, sheet_url: str, form_url: str):
        self.port = port
        self.cookies = {"sessionid": session_cookie}  # SESSION_COOKIE_NAME, not changed
        self.sheet_url = sheet_url
        self.form_url = form_url
        self.csrf_token = ""
        self.state = ""

    def request(
        self, method: str, url: str, body: dict | None = None, htmx: bool = False
    ) -> tuple[int, bytes]:
        """Send one request on a new connection; the status and the (uncompressed) body. The
        phone asks for gzip as a browser does, so the server pays for compressing."""
        headers = {
            "Host": "127.0.0.1",
            "Accept-Encoding": "gzip",
            "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
        }
        data = None
        if body is not None:
            data = urllib.parse.urlencode(body).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        if htmx or method == "POST" or "since=" in url:  # what htmx adds to its requests
            headers["HX-Request"] = "true"
            headers["X-CSRFToken"] = self.csrf_token
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            connection.request(method, url, body=data, headers=headers)
            answer = connection.getresponse()
            content = answer.read()
            for header, value in answer.getheaders():
                if header.lower() == "set-cookie":
                    name, _, rest = value.partition("=")
                    self.cookies[name.strip()] = rest.split(";", 1)[0]
            if answer.getheader("Content-Encoding") == "gzip":
                content = gzip.decompress(content)
            return answer.status, content
        finally:
            connection.close()

    def open_form(self) -> None:
        """GET the hand form: the CSRF cookie and the token htmx sends back as X-CSRFToken."""
        status, content = self.request("GET", self.form_url)
        assert status == 200, f"hand form answered {status}"
        self.csrf_token = TOKEN.search(content).group(1).decode()

    def poll(self) -> None:
        status, content = self.request("GET", f"{self.sheet_url}?since={self.state}")
        if status == 200:  # the sheet changed: the phone now shows the new table
            self.state = STATE.search(content).group(1).decode()
        else:
            assert status == 204, f"poll answered {status}"

    def look(self, url: str) -> None:
        """An htmx refresh of a tournament page's part (the player's seat, the director's)."""
        status, _content = self.request("GET", url, None, htmx=True)
        assert status == 200, f"{url} answered {status}"

    def save(self) -> None:
        status, content = self.request("POST", self.form_url, {**HAND, "client_id": uuid.uuid4()})
        assert status == 200 and b'<tbody class="hand"' in content, f"save answered {status}"
        self.state = STATE.search(content).group(1).decode()


# --- The database and the server ---------------------------------------------------------------


def server_environment(database_url: str, folder: str) -> dict[str, str]:
    """What production sets (README's "Configuration"), for loopback without TLS."""
    return {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        "DATABASE_URL": database_url,
        "STATIC_ROOT": f"{folder}/static",
        "DJANGO_SETTINGS_MODULE": "scorebook.settings",
        "LOG_LEVEL": "WARNING",
    }


def fresh_postgres(url: str, create: bool = True) -> None:
    """Drop the bench's PostgreSQL database (its name is the URL's path) and create it again,
    or, at the end, only drop it."""
    import psycopg

    parts = urllib.parse.urlsplit(url)
    name = parts.path.lstrip("/")
    assert "bench" in name, f"refusing to drop a database not named for a bench: {name}"
    admin = urllib.parse.urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if create:
            connection.execute(f'CREATE DATABASE "{name}"')


def build(tables: int, hands_before: int):
    """The club, a scorekeeper and a session per table, each session `hands_before` long.
    Returns, per table, its scorekeeper and the sheet's and the hand form's addresses."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.urls import reverse

    from scorebook import hands, services
    from scorebook.models import Club, Membership, Player, Role

    started = time.perf_counter()
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    print(f"  migrated, static files collected in {time.perf_counter() - started:.0f} s")
    club = Club.objects.create(name="Tournament", slug="tournament")
    rng = random.Random(1)
    out = []
    sessions = []
    for table in range(tables):
        # No password: hashing 100 of them would take longer than the bench.
        user = get_user_model().objects.create_user(f"table{table}", password=None)
        Membership.objects.create(user=user, club=club, role=Role.SCOREKEEPER)
        seated = [
            Player.objects.create(
                club=club, name=f"T{table} {seat}", user=_player_user(table, seat)
            )
            for seat in "ABCD"
        ]
        session = services.start_session(
            club=club, variant_id="slovenian-4", preset="tarzs", players=seated, user=user
        )
        for _ in range(hands_before):
            declarer, partner = rng.sample(seated, 2)
            data = {
                "contract": "three",
                "declarer": declarer.name,
                "partner": partner.name,
                "points": rng.randint(20, 60),
            }
            hands.record_hand(session, data, uuid.uuid4(), user)
        sessions.append((session, seated))
        kwargs = {"club": club.slug, "session": session.pk}
        out.append(
            (
                user,
                reverse("scorebook:sheet", kwargs=kwargs),
                reverse("scorebook:hand_new", kwargs=kwargs),
            )
        )
    return out, tournament_of(club, sessions)


def _player_user(table: int, seat: str):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(f"t{table}{seat.lower()}", password=None)


def tournament_of(club, sessions):
    """A running tournament whose round 1 is the sessions: timed (90 minutes), a hundred hands
    a table so that no table finishes during the bench. Returns its organiser, the players'
    accounts and the addresses of the director's screen and of a player's seat."""
    from django.contrib.auth import get_user_model
    from django.urls import reverse
    from django.utils import timezone

    from scorebook.models import Membership, Role
    from scorebook.tournaments.models import (
        Placement,
        Registration,
        Round,
        Status,
        Table,
        Tournament,
    )

    now = timezone.now()
    organiser = get_user_model().objects.create_user("organiser", password=None)
    Membership.objects.create(user=organiser, club=club, role=Role.ADMIN)
    tournament = Tournament.objects.create(
        club=club,
        name="National day",
        variant="slovenian-4",
        table_size=4,
        starts_at=now,
        started_at=now,
        capacity=4 * len(sessions),
        hands_per_table=99,
        rounds=3,
        round_minutes=90,
        open_to_all=True,  # the players need no membership to see their seat
        status=Status.RUNNING,
    )
    rnd = Round.objects.create(tournament=tournament, number=1, drawn_at=now)
    users = []
    for number, (session, seated) in enumerate(sessions, start=1):
        table = Table.objects.create(
            round=rnd, number=number, session=session, ends_at=now + datetime.timedelta(minutes=90)
        )
        for seat, player in enumerate(seated, start=1):
            registration = Registration.objects.create(
                tournament=tournament,
                player=player,
                registered_at=now,
                has_place=True,
                confirmed_at=now,
            )
            Placement.objects.create(round=rnd, table=table, registration=registration, seat=seat)
            users.append(player.user)
    kwargs = {"club": club.slug, "tournament": tournament.pk}
    where = reverse("scorebook:tournaments:where", kwargs=kwargs)
    director = reverse("scorebook:tournaments:director", kwargs=kwargs)
    return organiser, users, where, director


def session_cookie(user) -> str:
    """A logged-in Django session for `user`, as the login form would have made it."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_gunicorn(env: dict[str, str], port: int, folder: str) -> subprocess.Popen:
    """gunicorn as production starts it; its control socket in the bench's folder, so that
    it does not meet another gunicorn's in the home folder."""
    command = ["gunicorn", "-c", "gunicorn.conf.py", "scorebook.wsgi"]
    server = subprocess.Popen(
        [str(Path(sys.executable).parent / command[0]), *command[1:]]
        + ["--control-socket", f"{folder}/gunicorn.ctl"],
        cwd=ROOT,
        env={**env, "HOST": "127.0.0.1", "PORT": str(port)},
        stdout=subprocess.DEVNULL,  # the access log: written, as in production, not read
        stderr=open(f"{folder}/gunicorn.log", "w"),  # noqa: SIM115  closed with the folder
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/accounts/login/", headers={"Host": "127.0.0.1"})
            connection.getresponse().read()
            connection.close()
            return server
        except OSError:
            time.sleep(0.2)
    server.terminate()
    raise SystemExit(
        "gunicorn did not answer within 30 s:\n" + Path(f"{folder}/gunicorn.log").read_text()
    )


# --- The runs ---------------------------------------------------------------------------------


def page_events(pages, seconds: float, rng: random.Random) -> list:
    """(due, kind, (page, url)) for every refresh of a tournament page: `pages` holds
    (kind, page, url, every)."""
    events = []
    for kind, page, url, every in pages:
        offset = rng.uniform(0, every)
        events += [(offset + k * every, kind, (page, url)) for k in range(int(seconds / every))]
    return events


def scenario(
    phones: list[list[Phone]], seconds: float, workers: int, pages=()
) -> dict[str, list[float]]:
    """The tournament's schedule, each event sent at its time by the first free worker."""
    rng = random.Random(2)
    events = page_events(pages, seconds, rng)  # (due, kind, phone), due in seconds from start
    for table_phones in phones:
        for phone in table_phones:
            offset = rng.uniform(0, POLL_EVERY)
            events += [
                (offset + k * POLL_EVERY, "poll", phone) for k in range(int(seconds / POLL_EVERY))
            ]
        offset = rng.uniform(0, SAVE_EVERY)
        if offset < seconds:  # the first phone of the table keeps the score
            events.append((offset, "save", table_phones[0]))
    events.sort(key=lambda event: event[0])
    times: dict[str, list[float]] = {
        "poll": [],
        "save": [],
        "form": [],
        "late": [],
        "where": [],
        "director": [],
    }
    errors: list[str] = []
    lock = threading.Lock()
    next_event = iter(events)
    start = time.perf_counter() + 0.5

    def worker() -> None:
        while True:
            with lock:
                event = next(next_event, None)
            if event is None:
                return
            due, kind, phone = event
            wait = start + due - time.perf_counter()
            if wait > 0:
                time.sleep(wait)
            sent = time.perf_counter()
            times["late"].append(max(0.0, (sent - start - due) * 1000))
            try:
                if kind == "save":  # the phone opens the form, the scorekeeper taps, saves
                    phone.open_form()
                    times["form"].append((time.perf_counter() - sent) * 1000)
                    sent = time.perf_counter()
                    phone.save()
                elif kind in ("where", "director"):
                    page, url = phone
                    page.look(url)
                else:
                    phone.poll()
            except (AssertionError, OSError) as exc:
                errors.append(f"{kind}: {exc}")
                continue
            times[kind].append((time.perf_counter() - sent) * 1000)

    threads = [threading.Thread(target=worker) for _ in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        print(f"  {len(errors)} requests failed, e.g. {errors[0]}")
    times["errors"] = errors
    return times


def burst(phones: list[Phone], seconds: float) -> tuple[float, list[float], int]:
    """Each phone saves as fast as it can until the time is up: saves/s, their times, errors."""
    times: list[float] = []
    errors: list[str] = []  # list.append is atomic under threads; a += on a count is not
    stop = time.perf_counter() + seconds

    def client(phone: Phone) -> None:
        while time.perf_counter() < stop:
            sent = time.perf_counter()
            try:
                phone.save()
            except (AssertionError, OSError) as exc:
                errors.append(str(exc))
                continue
            times.append((time.perf_counter() - sent) * 1000)

    started = time.perf_counter()
    threads = [threading.Thread(target=client, args=(phone,)) for phone in phones]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return len(times) / (time.perf_counter() - started), times, len(errors)


def run_one(database: str, args: argparse.Namespace) -> tuple[str, str]:
    folder = tempfile.TemporaryDirectory()
    if database == "postgresql":
        fresh_postgres(args.postgres)
        url = args.postgres
    else:
        url = f"sqlite:///{folder.name}/bench.sqlite3"
    env = server_environment(url, folder.name)
    os.environ.update(env)
    from benchdb import setup_django

    setup_django()
    from django.db import connections

    started = time.perf_counter()
    tables, (organiser, players, where, director) = build(args.tables, args.hands)
    pages = [
        ("where", Phone(0, session_cookie(user), "", ""), where, WHERE_EVERY) for user in players
    ]
    pages.append(
        ("director", Phone(0, session_cookie(organiser), "", ""), director, DIRECTOR_EVERY)
    )
    phones = [
        [Phone(0, session_cookie(user), sheet, form) for _ in range(PHONES)]
        for user, sheet, form in tables
    ]
    connections.close_all()  # the server alone uses the database from here on
    label = LABELS[database]
    print(
        f"{label}: {args.tables} tables of {args.hands} hands built in "
        f"{time.perf_counter() - started:.0f} s"
    )

    port = free_port()
    server = start_gunicorn(env, port, folder.name)
    try:
        for table_phones in phones:  # untimed: each phone's CSRF token and its sheet's state
            for phone in table_phones:
                phone.port = port
                phone.open_form()
                phone.poll()
        for _kind, page, _url, _every in pages:
            page.port = port
        times = scenario(phones, args.seconds, args.workers, pages)
        print(f"  scenario, {args.seconds:.0f} s: " + summary("saves", times["save"]))
        print("    " + summary("polls", times["poll"]))
        print("    " + summary("hand forms opened", times["form"]))
        print("    " + summary("players' seats refreshed", times["where"]))
        print("    " + summary("director's screens refreshed", times["director"]))
        print("    " + summary("sent late by the bench", times["late"]))
        rate, burst_times, burst_errors = burst(
            [table_phones[0] for table_phones in phones[:BURST_CLIENTS]], args.burst_seconds
        )
        print(
            f"  burst, {BURST_CLIENTS} clients for {args.burst_seconds:.0f} s: {rate:.1f} saves/s"
            f" ({burst_errors} failed); " + summary("saves", burst_times)
        )
    finally:
        server.terminate()
        server.wait(timeout=30)
        if database == "postgresql":
            fresh_postgres(args.postgres, create=False)
    folder.cleanup()
    failed = len(times["errors"]) + burst_errors
    return (
        f"saves p95 {percentile(times['save'], 0.95):.0f} ms, "
        f"polls p95 {percentile(times['poll'], 0.95):.0f} ms ({label})"
        f"{f', {failed} FAILED' if failed else ''}",
        f"{rate:.0f} ({label})",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", choices=["both", "sqlite", "postgresql"], default="both")
    parser.add_argument("--seconds", type=float, default=60, help="the scenario's steady state")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--hands", type=int, default=16, help="hands in each session already")
    parser.add_argument("--workers", type=int, default=32, help="the bench's sending threads")
    parser.add_argument("--burst-seconds", type=float, default=15)
    parser.add_argument("--postgres", default=DEFAULT_POSTGRES, help="wiped and made again")
    args = parser.parse_args()

    if args.database != "both":
        scenario_half, burst_half = run_one(args.database, args)
        print(f"load: {scenario_half}; most saves/s at {BURST_CLIENTS} clients: {burst_half}")
        return
    # Each database in a process of its own: Django is set up once per process.
    halves = []
    for database in ("sqlite", "postgresql"):
        child = subprocess.run(
            [sys.executable, __file__, *sys.argv[1:], "--database", database],
            stdout=subprocess.PIPE,
            text=True,
            check=True,
        )
        lines = child.stdout.splitlines()
        print("\n".join(lines[:-1]), flush=True)
        scenario_half, burst_half = lines[-1].removeprefix("load: ").split("; most saves/s")
        halves.append((scenario_half, burst_half.split(": ", 1)[1]))
    print(
        f"load: {halves[0][0]}; {halves[1][0]}; most saves/s at {BURST_CLIENTS} clients: "
        f"{halves[0][1]}, {halves[1][1]}"
    )


if __name__ == "__main__":
    main()
