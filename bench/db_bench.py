"""How fast hands are saved, alone and from several phones at once.

    .venv/bin/python bench/db_bench.py [--writers 8] [--hands 40]

Uses DATABASE_URL when set (PostgreSQL: a database named by the URL that may be wiped), else a
fresh SQLite file in a temporary folder with the project's settings (WAL, IMMEDIATE, timeout).
Prints hands per second and how many saves failed; none may fail.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchdb import setup_django  # noqa: E402

HAND = {"contract": "two", "declarer": "Ana", "partner": "Cene", "points": 39}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--hands", type=int, default=40, help="hands per writer")
    args = parser.parse_args()

    tmp = setup_django()
    from django.core.management import call_command
    from django.db import connection

    from scorebook import hands, services
    from scorebook.models import Club, Player

    call_command("migrate", verbosity=0)
    club = Club.objects.create(name="Bench", slug=f"bench-{uuid.uuid4().hex[:8]}")
    players = [Player.objects.create(club=club, name=n) for n in ["Ana", "Bor", "Cene", "Dani"]]
    session = services.start_session(
        club=club, variant_id="slovenian-4", preset="seed", players=players, user=None
    )
    print(f"database: {connection.vendor}")

    started = time.perf_counter()
    for _ in range(args.hands):
        hands.record_hand(session, HAND, uuid.uuid4(), None)
    alone = time.perf_counter() - started
    print(f"one writer:  {args.hands / alone:8.1f} hands/s")

    failures: list[BaseException] = []

    def writer() -> None:
        try:
            for _ in range(args.hands):
                try:
                    hands.record_hand(session, HAND, uuid.uuid4(), None)
                except Exception as exc:  # counted, not raised: the point is how many fail
                    failures.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=writer) for _ in range(args.writers)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    together = time.perf_counter() - started
    total = args.writers * args.hands
    rate = total / together
    print(f"{args.writers} writers:   {rate:8.1f} hands/s, {len(failures)} of {total} failed")
    numbers = list(session.hands.order_by("number").values_list("number", flat=True))
    assert numbers == list(range(1, len(numbers) + 1)), "numbering has a gap"
    club.delete()
    tmp.cleanup()
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
