"""The public pages (issue 30): what a revalidation costs, and what a live page holds.

    .venv/bin/python bench/public_bench.py [--viewers 1000] [--clients 32] [--requests 200]

1. In this process (Django's test client, the whole middleware stack, SQLite in a temporary
   folder): a published club with a closed 40-hand evening and a running tournament of two
   tables. The median time of a trivial view (the web app manifest, no query), of a
   conditional GET answered 304 (one query: the club's row), and of the full pages (the
   evening's sheet, the live tournament page), rendered and kept since rendered (the page
   cache of scorebook.public.access), each as a ratio of the trivial view's.
2. gunicorn as production starts it (DEBUG off, static files collected) on a free 127.0.0.1
   port, on the same database, and ``--viewers`` simulated viewers of the live tournament page
   arriving at once, ``--clients`` connections at a time: first each fetches the page (200),
   then each revalidates it unchanged (304), then a hand is saved and each revalidates again
   (200 with the new page). Each wave's requests per second and p95.

Loopback only, bounded: 3 × ``--viewers`` requests in all. The last line:

    public: 304 A× trivial, sheet B×, live C×; live page, 1000 viewers: D/s fresh, E/s 304
"""

from __future__ import annotations

import argparse
import http.client
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from load_bench import free_port, percentile, server_environment, start_gunicorn  # noqa: E402


def build():
    """The club, its closed evening and its running cup; returns the addresses to read."""
    import datetime

    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from scorebook import hands, services
    from scorebook.models import Club, Membership, Player, Role
    from scorebook.public.models import PublicName
    from scorebook.tournaments import services as cups

    call_command("migrate", verbosity=0)
    club = Club.objects.create(name="Bench club", slug="bench", language="sl")
    for part in ("club", "sessions", "league", "tournaments"):
        setattr(club, f"publish_{part}", True)
    club.save()
    keeper = get_user_model().objects.create_user("keeper", password=None)
    Membership.objects.create(user=keeper, club=club, role=Role.ADMIN)
    seated = [Player.objects.create(club=club, name=f"Igralec {n}") for n in "ABCD"]
    for player in seated[:2]:
        PublicName.objects.create(player=player, shown="full", agreed="admin")
    evening = services.start_session(
        club=club, variant_id="slovenian-4", preset="tarzs", players=seated, user=keeper
    )
    for n in range(40):
        hand = {"contract": "three", "declarer": seated[n % 4].name, "points": 30 + n % 20}
        hands.record_hand(evening, hand, uuid.uuid4(), keeper)
    services.close_session(evening, keeper)
    start = datetime.datetime.now(datetime.UTC) + datetime.timedelta(minutes=5)
    cup = cups.create_tournament(
        club=club, user=keeper, name="Bench cup", variant="slovenian-4", starts_at=start,
        hands_per_table=8, rounds=3, capacity=8, seed=3,
    )  # fmt: skip
    for n in range(8):
        user = get_user_model().objects.create_user(f"viewer{n}", password=None)
        Membership.objects.create(user=user, club=club, role=Role.VIEWER)
        cups.confirm_presence(cups.register(cup, user), now=start - datetime.timedelta(minutes=1))
    cup = cups.start_tournament(cup, now=start)
    return club, evening, cup, keeper


def median_ms(client, url: str, n: int, rendered=False, **headers) -> tuple[float, int]:
    """The median time of `n` GETs; `rendered`: each renders the page (none kept)."""
    from django.core.cache import cache

    times, status = [], 0
    for _ in range(n):
        if rendered:
            cache.clear()
        began = time.perf_counter()
        status = client.get(url, **headers).status_code
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times), status


def in_process(club, evening, cup, n: int) -> dict[str, float]:
    from django.test import Client
    from django.urls import reverse

    client = Client(HTTP_HOST="127.0.0.1")  # what ALLOWED_HOSTS lets in with DEBUG on
    sheet = reverse(
        "public:session", kwargs={"club": club.slug, "lang": "sl", "session": evening.pk}
    )
    live = reverse("public:live", kwargs={"club": club.slug, "lang": "sl", "tournament": cup.pk})
    trivial, _ = median_ms(client, reverse("manifest"), n)
    tag = client.get(sheet)["ETag"]
    revalidated, status = median_ms(client, sheet, n, HTTP_IF_NONE_MATCH=tag)
    assert status == 304, status
    ratios = {"304": revalidated / trivial}
    print(f"  trivial view (the manifest): {trivial:.2f} ms")
    print(f"  304 of the sheet: {revalidated:.2f} ms ({ratios['304']:.1f}× trivial)")
    for name, url in (("sheet", sheet), ("live", live)):
        rendered, _ = median_ms(client, url, n, rendered=True)
        kept, _ = median_ms(client, url, n)
        ratios[name] = rendered / trivial
        print(
            f"  full {name} page: rendered {rendered:.2f} ms ({rendered / trivial:.1f}×), "
            f"kept since rendered {kept:.2f} ms ({kept / trivial:.1f}×)"
        )
    return ratios


def fetch(port: int, url: str, etag: str) -> tuple[int, str, float]:
    headers = {"Host": "127.0.0.1", "Accept-Encoding": "gzip"}
    if etag:
        headers["If-None-Match"] = etag
    began = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", url, headers=headers)
        answer = connection.getresponse()
        answer.read()
        return answer.status, answer.getheader("ETag") or "", (time.perf_counter() - began) * 1000
    finally:
        connection.close()


def wave(port: int, url: str, etags: list[str], clients: int, expect: int) -> tuple[float, list]:
    """Every viewer at once, `clients` connections at a time: requests per second, new ETags."""
    lock = threading.Lock()
    times: list[float] = []
    wrong = []
    began = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        answers = list(pool.map(lambda etag: fetch(port, url, etag), etags))
    elapsed = time.perf_counter() - began
    for status, _tag, ms in answers:
        with lock:
            times.append(ms)
        if status != expect:
            wrong.append(status)
    rate = len(etags) / elapsed
    print(
        f"  {len(etags)} viewers, {expect} expected: {rate:.0f}/s, p95 "
        f"{percentile(times, 0.95):.1f} ms" + (f", {len(wrong)} other answers" if wrong else "")
    )
    return rate, [tag or etag for (_s, tag, _ms), etag in zip(answers, etags, strict=True)]


def burst(folder: str, database_url: str, club, cup, keeper, viewers: int, clients: int):
    from django.urls import reverse

    from scorebook import hands

    env = server_environment(database_url, folder)
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=ROOT, env=env, check=True,
    )  # fmt: skip
    port = free_port()
    server = start_gunicorn(env, port, folder)
    try:
        url = reverse("public:live", kwargs={"club": club.slug, "lang": "sl", "tournament": cup.pk})
        fresh, etags = wave(port, url, [""] * viewers, clients, 200)
        unchanged, etags = wave(port, url, etags, clients, 304)
        table = cup.round_set.get().tables.first()
        seated = [p.name for p in table.session.seated_players()]
        hand = {"contract": "three", "declarer": seated[0], "points": 40}
        hands.record_hand(table.session, hand, uuid.uuid4(), keeper)
        wave(port, url, etags, clients, 200)
    finally:
        server.terminate()
        server.wait(timeout=30)
    return fresh, unchanged


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--viewers", type=int, default=1000)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        import os

        database_url = f"sqlite:///{folder}/public.sqlite3"
        os.environ["DATABASE_URL"] = database_url
        from benchdb import setup_django

        setup_django()
        club, evening, cup, keeper = build()
        print("In process (test client, every middleware):")
        ratios = in_process(club, evening, cup, args.requests)
        print(f"gunicorn, the live page, {args.clients} connections at a time:")
        fresh, unchanged = burst(
            folder, database_url, club, cup, keeper, args.viewers, args.clients
        )
    print(
        f"public: 304 {ratios['304']:.1f}× trivial, sheet {ratios['sheet']:.1f}×, "
        f"live {ratios['live']:.1f}×; live page, {args.viewers} viewers: "
        f"{fresh:.0f}/s fresh, {unchanged:.0f}/s 304"
    )


if __name__ == "__main__":
    main()
