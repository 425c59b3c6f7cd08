"""Importing a long sheet: how long it takes, and how long it keeps other clubs from saving.

    .venv/bin/python bench/import_bench.py [--hands 1000] [--repeat 3]

Imports a Slovenian-4 sheet of ``--hands`` hands (services.import_sheet, as the import page
calls it) ``--repeat`` times into a fresh SQLite file with the project's settings (WAL,
IMMEDIATE, timeout), or into DATABASE_URL when set (a database that may be filled). It
reports the whole import and the time inside its transaction: SQLite's IMMEDIATE transaction
holds the write lock of the whole database from BEGIN to COMMIT. On SQLite a probe in another
process also takes the write lock over and over (BEGIN IMMEDIATE; COMMIT), as another club's
save would, and reports its longest wait (SQLite's busy handler sleeps in steps of up to
100 ms, and a commit may checkpoint the WAL, so it reads a little above the transaction).
Targets: the write lock held at most about 1 s, the whole import at most 2 s. Loopback only.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sqlite3
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchdb import setup_django  # noqa: E402

PLAYERS = ["Ana", "Bor", "Cene", "Dani"]


def sheet(hands: int, rng: random.Random) -> dict:
    """A Slovenian sheet of ordinary games, klops and beggars (radelci carried along)."""
    out = []
    for _ in range(hands):
        kind = rng.random()
        if kind < 0.1:
            points = [rng.randint(0, 23) for _ in range(3)]
            points.append(70 - sum(points))
            out.append(
                {"contract": "klop", "points_by_player": dict(zip(PLAYERS, points, strict=True))}
            )
        elif kind < 0.2:
            out.append(
                {"contract": "beggar", "declarer": rng.choice(PLAYERS), "made": rng.random() < 0.5}
            )
        else:
            declarer, partner = rng.sample(PLAYERS, 2)
            out.append(
                {
                    "contract": rng.choice(["three", "two", "one"]),
                    "declarer": declarer,
                    "partner": partner,
                    "points": rng.randint(20, 60),
                }
            )
    return {"format": 1, "variant": "slovenian-4", "rules": {"preset": "tarzs"},
            "players": PLAYERS, "hands": out}  # fmt: skip


def probe_write_lock(path: str, stop, longest) -> None:
    """Take SQLite's write lock over and over on its own connection, in its own process (so
    the import's Python does not slow it down); `longest` is the longest it had to wait."""
    db = sqlite3.connect(path, timeout=60, isolation_level=None)
    try:
        while not stop.is_set():
            started = time.perf_counter()
            db.execute("BEGIN IMMEDIATE")
            db.execute("COMMIT")
            longest.value = max(longest.value, time.perf_counter() - started)
            time.sleep(0.001)
    finally:
        db.close()


class OutermostTransactions:
    """Times every outermost transaction.atomic block while installed (the bench's own
    instrument: the service is measured as it is, not changed)."""

    def __init__(self):
        from django.db import transaction

        self.atomic = transaction.Atomic
        self.times: list[float] = []
        self._started = 0.0

    def __enter__(self):
        atomic, times, outer = self.atomic, self.times, self

        enter, exit_ = atomic.__enter__, atomic.__exit__

        def timed_enter(block):
            if not atomic_connection(block).in_atomic_block:
                outer._started = time.perf_counter()
            return enter(block)

        def timed_exit(block, *exc):
            answer = exit_(block, *exc)
            if not atomic_connection(block).in_atomic_block:
                times.append(time.perf_counter() - outer._started)
            return answer

        self._saved = enter, exit_
        atomic.__enter__, atomic.__exit__ = timed_enter, timed_exit
        return self

    def __exit__(self, *exc):
        self.atomic.__enter__, self.atomic.__exit__ = self._saved


def atomic_connection(block):
    from django.db import transaction

    return transaction.get_connection(block.using)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    tmp = setup_django()  # noqa: F841  the SQLite folder lives while main runs
    from django.core.management import call_command
    from django.db import connection

    from scorebook import hands
    from scorebook.models import Club

    call_command("migrate", verbosity=0)
    club = Club.objects.create(name="Bench", slug=f"bench-{random.randrange(10**8)}")
    data = sheet(args.hands, random.Random(1))
    print(f"database: {connection.vendor}")

    totals, holds, waits = [], [], []
    for _ in range(args.repeat):
        probe = None
        if connection.vendor == "sqlite":
            stop, longest = multiprocessing.Event(), multiprocessing.Value("d", 0.0)
            path = str(connection.settings_dict["NAME"])
            probe = multiprocessing.Process(target=probe_write_lock, args=(path, stop, longest))
            probe.start()
            time.sleep(0.2)
        with OutermostTransactions() as transactions:
            started = time.perf_counter()
            session = hands.import_sheet(club, data, None)
            totals.append(time.perf_counter() - started)
        holds.append(max(transactions.times))
        line = f"  import: {totals[-1]:.2f} s, in its transaction {holds[-1]:.2f} s"
        if probe is not None:
            time.sleep(0.05)
            stop.set()
            probe.join()
            waits.append(longest.value)
            line += f", another writer waited at most {waits[-1]:.2f} s"
        print(line)
        assert session.hands.count() == args.hands
    print(
        f"import of {args.hands} hands: total {max(totals):.2f} s, "
        f"write lock held {max(holds):.2f} s"
    )


if __name__ == "__main__":
    main()
