"""Saving a hand: does it stay close to the least any save must cost, however long the evening?

    .venv/bin/python bench/save_bench.py [--history 100000] [--hands 60 300] [--repeat 30]

Builds a club with ``--history`` hands of past sessions (bench/league_bench.py's generator),
then two open Slovenian sessions, of 60 and of 300 hands (``--hands``). It then times, through
the whole middleware stack with Django's test client and a logged-in scorekeeper, in each
session:

- "save": what a phone does when the scorekeeper taps "Save the hand" without the outbox: an
  htmx POST of a new hand (a fresh client id each time), answered with the sheet;
- "least durable save": POST to a view that does only what any save must: read the session,
  then in one transaction insert the hand with its history row and its entries, and commit.
  It is no feature, only the floor under the target: no save can cost less than it.

and, reported beside them: "trivial" (GET a view that returns "ok" and touches nothing), the
save without JavaScript (POST, then the GET of the sheet it redirects to), the sheet's poll
(every watching phone, every 5 s) when nothing changed and after one new hand, and "the
sheet": a GET of the very page an htmx save answers with (the latest rows, the totals, the
session's actions). The least durable save shows nothing; "save ÷ (least durable save + the
sheet)" compares a save with doing both apart, the floor of a save that must answer with
the sheet.

A third session of 60 hands asks for confirmations (issue 27): in it, a defender confirms the
last hand on his own phone (the one-tap POST, answered with a redirect to the sheet), beside a
poll of its sheet after another phone saved a hand; each with its statements. The target:
confirming a hand costs at most the statements and time of a poll of a changed sheet.

Each saved hand is deleted again, untimed, so every save is the 61st (the 301st) hand of its
session, and so is each confirmation. Everything timed takes turns, so a change in the
machine's load falls on all of it.
It prints the median of each, the compressed size of the hand form page with its CSS and
JavaScript (target: at most 100 KB), and last the ratios of issue 17 (targets: a save at most
1.5 least durable saves, and a save at 300 hands at most 1.15 saves at 60). Uses DATABASE_URL
when set, else a fresh SQLite file in a temporary folder.
"""

from __future__ import annotations

import argparse
import gzip
import random
import re
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchdb import setup_django  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))


def trivial(request):
    from django.http import HttpResponse

    return HttpResponse("ok")


def least_durable_save(request):
    """What every save of a hand must write, and nothing else: no form, no scoring, no sheet."""
    from django.db import transaction
    from django.http import HttpResponse

    from scorebook.models import Entry, Hand, Session

    session = Session.objects.get(pk=request.POST["session"])
    with transaction.atomic():
        hand = Hand(session=session, number=request.POST["number"], data={}, rules_version="")
        hand.save()  # and its history row
        Entry.objects.bulk_create(
            Entry(hand=hand, player_id=player, amount=0) for player in session.seat_names.values()
        )
    return HttpResponse("ok")


def assets_of(html: bytes) -> list[bytes]:
    """The stylesheets and scripts a page loads from our static files, as bytes."""
    from django.conf import settings
    from django.contrib.staticfiles import finders

    out = []
    for url in re.findall(rb'(?:href|src)="([^"]+\.(?:css|js))"', html):
        name = url.decode().split("?")[0].removeprefix(settings.STATIC_URL)
        found = finders.find(name)
        assert found, f"asset not found: {name}"
        out.append(Path(found).read_bytes())
    return out


def elapsed_ms(fn) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def record_evening(session, hands_count: int, user, rng: random.Random) -> None:
    """`hands_count` hands of three recorded through the hand pipeline, as at a table."""
    from scorebook import hands

    seated = list(session.seat_names)
    for _ in range(hands_count):
        declarer, partner = rng.sample(seated, 2)
        hands.record_hand(
            session,
            {
                "contract": "three",
                "declarer": declarer,
                "partner": partner,
                "points": rng.randint(20, 60),
            },
            uuid.uuid4(),
            user,
        )


class Table:
    """One open session of `length` hands and what the bench does to it."""

    FIELDS = {"contract": "three", "declarer": "1", "partner": "3", "points": "40"}

    def __init__(self, client, session, length: int):
        from django.urls import reverse

        self.client, self.session, self.length = client, session, length
        kwargs = {"club": session.club.slug, "session": session.pk}
        self.form_url = reverse("scorebook:hand_new", kwargs=kwargs)
        self.sheet_url = reverse("scorebook:sheet", kwargs=kwargs)
        self.answers: dict = {}  # the last answer to each client that saved

    def answer_size(self, by) -> int:
        return len(gzip.compress(self.answers[by]))

    def save(self, by=None) -> None:
        by = by or self.client
        answer = by.post(
            self.form_url,
            {**self.FIELDS, "client_id": str(uuid.uuid4())},
            HTTP_HX_REQUEST="true",
        )
        assert answer.status_code == 200 and b'<tbody class="hand"' in answer.content
        self.answers[by] = answer.content  # compressed once the timing is over

    def sheet(self) -> None:
        """The page a save answers with, asked for on its own: its latest rows."""
        answer = self.client.get(self.sheet_url)
        assert answer.status_code == 200 and b'<tbody class="hand"' in answer.content

    def save_without_javascript(self) -> None:
        answer = self.client.post(self.form_url, {**self.FIELDS, "client_id": str(uuid.uuid4())})
        assert answer.status_code == 302, answer.status_code
        assert self.client.get(answer["Location"]).status_code == 200

    def least_durable_save(self) -> None:
        answer = self.client.post(
            "/bench/least-durable-save/", {"session": self.session.pk, "number": self.length + 1}
        )
        assert answer.status_code == 200

    def poll_since(self) -> str:
        """The version a phone showing the sheet now polls with."""
        page = self.client.get(self.sheet_url).content.decode()
        return re.search(r"since=([^\"&]+)", page).group(1)

    def poll(self, since: str, expected: int) -> None:
        answer = self.client.get(f"{self.sheet_url}?since={since}", HTTP_HX_REQUEST="true")
        assert answer.status_code == expected, answer.status_code

    def back(self) -> None:
        """The session as it was: the hands added by the turn are deleted, untimed."""
        from scorebook.models import Hand

        Hand.objects.filter(session=self.session, number__gt=self.length).delete()


class Words:
    """The asked-for table's last hand confirmed by a defender on his own phone (issue 27)."""

    def __init__(self, defender, table: Table):
        from django.urls import reverse

        self.defender, self.table = defender, table
        kwargs = {"club": table.session.club.slug, "session": table.session.pk}
        self.url = reverse("scorebook:hand_confirm", kwargs={**kwargs, "number": table.length})

    def confirm(self) -> None:
        answer = self.defender.post(self.url, {"version": "1", "answer": "correct"})
        assert answer.status_code == 302, answer.status_code

    def back(self) -> None:
        """The hand waits for its word again, untimed."""
        from scorebook.models import HandConfirmation

        HandConfirmation.objects.filter(hand__session=self.table.session).delete()


def statements(fn) -> int:
    """The statements one call sends to the database."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        fn()
    return len(queries)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--history", type=int, default=100_000)
    parser.add_argument(
        "--hands",
        type=int,
        nargs=2,
        default=(60, 300),
        metavar=("SHORT", "LONG"),
        help="hands in the two sessions saved into",
    )
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument(
        "--profile", type=int, default=0, metavar="N", help="print the N costliest calls of a save"
    )
    parser.add_argument(
        "--lang",
        default="",
        help="also save with the pages in this language (sl, cs, de, fr), taking turns with the "
        "English saves, and print the ratios of time and of compressed answer (issue 14)",
    )
    args = parser.parse_args()

    tmp = setup_django()  # noqa: F841  the SQLite folder lives while main runs
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client
    from django.urls import clear_url_caches, include, path

    # The project's URLs plus the bench's views, so all go through the same middleware.
    globals()["urlpatterns"] = [
        path("bench/trivial/", trivial),
        path("bench/least-durable-save/", least_durable_save),
        path("", include("scorebook.urls")),
    ]
    settings.ROOT_URLCONF = __name__
    settings.ALLOWED_HOSTS = ["testserver"]
    clear_url_caches()
    call_command("migrate", verbosity=0)

    from league_bench import build

    from scorebook import services
    from scorebook.models import Club, Membership, Player, Role

    user = get_user_model().objects.create_user("keeper", password="x")
    club = Club.objects.create(name="Bench", slug="bench")
    Membership.objects.create(user=user, club=club, role="admin")
    started = time.perf_counter()
    build(club, args.history // 100, 100, random.Random(1))
    print(f"history: {args.history:,} hands built in {time.perf_counter() - started:.0f} s")

    seated = list(Player.objects.filter(club=club).order_by("name")[:4])
    client = Client()
    client.force_login(user)
    tables = []
    for length in args.hands:
        session = services.start_session(
            club=club, variant_id="slovenian-4", preset="tarzs", players=seated, user=user
        )
        record_evening(session, length, user, random.Random(length))
        tables.append(Table(client, session, length))
    short, long = tables
    # The confirmations' table: its hands wait for the other side's word. The keeper, at no
    # seat, records; the defender, seated, says it is right.
    asked = services.start_session(
        club=club,
        variant_id="slovenian-4",
        preset="tarzs",
        players=seated,
        user=user,
        confirmation="asked",
    )
    record_evening(asked, short.length, user, random.Random(short.length))
    asked_table = Table(client, asked, short.length)
    defender_user = get_user_model().objects.create_user("defender", password="x")
    Membership.objects.create(user=defender_user, club=club, role=Role.VIEWER)
    Player.objects.filter(pk=seated[1].pk).update(user=defender_user)
    defender = Client()
    defender.force_login(defender_user)
    words = Words(defender, asked_table)

    translated = Client()
    translated.force_login(user)
    translated.cookies[settings.LANGUAGE_COOKIE_NAME] = args.lang or "en"
    polls = {table: table.poll_since() for table in [*tables, asked_table]}

    def trivial_page() -> None:
        assert client.get("/bench/trivial/").status_code == 200

    timed: dict[str, tuple] = {"trivial": (trivial_page, None)}
    for table in tables:
        n = table.length
        timed[f"save {n}"] = (table.save, table)
        timed[f"least durable save {n}"] = (table.least_durable_save, table)
        timed[f"sheet {n}"] = (table.sheet, None)
        timed[f"poll, nothing new {n}"] = (lambda t=table: t.poll(polls[t], 204), None)
    timed["save without JavaScript"] = (short.save_without_javascript, short)
    timed["confirm a hand"] = (words.confirm, words)
    if args.lang:
        timed["save translated"] = (lambda: short.save(translated), short)

    def poll_after_a_hand(table) -> float:
        """A phone polling once another phone saved a hand: the new row and the totals."""
        table.save()
        ms = elapsed_ms(lambda: table.poll(polls[table], 200))
        table.back()
        return ms

    times: dict[str, list[float]] = {name: [] for name in timed}
    for table in tables:
        times[f"poll after a hand {table.length}"] = []
    times["poll after a hand, confirmations asked"] = []
    for turn in range(args.repeat + 1):
        for name, (fn, table) in timed.items():
            ms = elapsed_ms(fn)
            if table is not None:
                table.back()
            if turn:  # the first turn warms caches and imports
                times[name].append(ms)
        for table in tables:
            ms = poll_after_a_hand(table)
            if turn:
                times[f"poll after a hand {table.length}"].append(ms)
        ms = poll_after_a_hand(asked_table)
        if turn:
            times["poll after a hand, confirmations asked"].append(ms)
    median = {name: statistics.median(values) for name, values in times.items()}
    # What each sends to the database, counted once the caches are warm.
    confirm_statements = statements(words.confirm)
    words.back()
    asked_table.save()
    poll_statements = statements(lambda: asked_table.poll(polls[asked_table], 200))
    asked_table.back()

    if args.profile:
        import cProfile
        import pstats

        profile = cProfile.Profile()
        for _turn in range(args.repeat):
            profile.runcall(long.save)
            long.back()
        pstats.Stats(profile).sort_stats("cumulative").print_stats(args.profile)

    trivial_ms = median["trivial"]
    print(f"trivial view: {trivial_ms:.2f} ms")
    for table in tables:
        n = table.length
        save_ms, floor_ms = median[f"save {n}"], median[f"least durable save {n}"]
        print(
            f"{n} hands: save (htmx, answered with the sheet) {save_ms:.2f} ms "
            f"= {save_ms / trivial_ms:.1f} trivial views; least durable save {floor_ms:.2f} ms "
            f"= {floor_ms / trivial_ms:.1f}; answer {table.answer_size(client) / 1024:.1f} KB gzip"
        )
        sheet_ms = median[f"sheet {n}"]
        print(
            f"{n} hands: the sheet alone {sheet_ms:.2f} ms; save ÷ (least durable save + the "
            f"sheet): {save_ms / (floor_ms + sheet_ms):.2f}"
        )
        print(
            f"{n} hands: poll, nothing new {median[f'poll, nothing new {n}']:.2f} ms; "
            f"after a hand {median[f'poll after a hand {n}']:.2f} ms"
        )
    plain_ms = median["save without JavaScript"]
    print(
        f"save without JavaScript (POST, redirect, GET of the sheet), {short.length} hands: "
        f"{plain_ms:.2f} ms = {plain_ms / trivial_ms:.1f} trivial views"
    )
    confirm_ms = median["confirm a hand"]
    poll_ms = median["poll after a hand, confirmations asked"]
    print(
        f"confirming a hand ({short.length} hands, own phone): {confirm_ms:.2f} ms, "
        f"{confirm_statements} statements; a poll of the changed sheet: {poll_ms:.2f} ms, "
        f"{poll_statements} statements (target: confirming at most the poll's, both)"
    )
    if args.lang:
        save_ms = median[f"save {short.length}"]
        sizes = {by: short.answer_size(by) for by in (client, translated)}
        print(
            f"save with the pages in {args.lang} ÷ in English: "
            f"{median['save translated'] / save_ms:.2f} (time), "
            f"{sizes[translated] / sizes[client]:.2f} (compressed answer)"
        )

    html = client.get(short.form_url).content
    size = len(gzip.compress(html)) + sum(len(gzip.compress(a)) for a in assets_of(html))
    print(
        f"hand form page with its CSS and JavaScript, gzip: {size / 1024:.1f} KB "
        "(target at most 100)"
    )
    ratio = {
        table.length: median[f"save {table.length}"] / median[f"least durable save {table.length}"]
        for table in tables
    }
    growth = median[f"save {long.length}"] / median[f"save {short.length}"]
    print(
        f"save ÷ least durable save: {ratio[short.length]:.2f} ({short.length} hands), "
        f"{ratio[long.length]:.2f} ({long.length} hands); "
        f"save at {long.length} ÷ save at {short.length} hands: {growth:.2f}"
    )


if __name__ == "__main__":
    main()
