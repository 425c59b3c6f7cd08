"""League pages with a long history: do they stay as quick as with a short one?

    .venv/bin/python bench/league_bench.py [--sessions 1000] [--hands 100] [--repeat 25]

Builds, with bulk_create, a big club (1,000 sessions of 100 hands: 100,000 hands, 400,000
entries) and a small one (100 hands in 25 sessions), rebuilds both clubs' ratings (timed:
hands per second), then renders the standings, a player page and the ledger of each club in
the same run and prints the median render times and their ratio (target: at most 2×). Also
times the incremental rebuild that follows recording one more hand, and one that follows an
edit half-way through the history.

Uses DATABASE_URL when set (PostgreSQL: a database that may be filled), else a fresh SQLite
file in a temporary folder with the project's settings.
"""

from __future__ import annotations

import argparse
import datetime
import random
import statistics
import sys
import time
import uuid
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchdb import setup_django  # noqa: E402

NAMES = ["Ana", "Bor", "Cene", "Dani", "Eva", "Fran", "Gal", "Hana", "Ivo", "Jana", "Kim", "Lea"]
SLOVENIAN = ["three", "two", "one", "solo-three", "solo-two", "solo-one"]


def _insert(model, rows: list[dict]) -> None:
    """INSERT rows straight through the cursor, each value prepared by its model field as
    bulk_create would, without building a model instance per row."""
    from django.db import connection

    if not rows:
        return
    fields = [model._meta.get_field(name) for name in rows[0]]
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    with connection.cursor() as cursor:
        cursor.executemany(
            f"INSERT INTO {connection.ops.quote_name(model._meta.db_table)} ({columns}) "
            f"VALUES ({marks})",
            [tuple(f.get_db_prep_save(row[f.name], connection) for f in fields) for row in rows],
        )


def build(club, sessions: int, hands: int, rng: random.Random) -> int:
    """`sessions` closed evenings of four of the roster, most Slovenian, every fifth Czech."""
    from django.core.management.color import no_style
    from django.db import connection
    from django.db.models import Max

    from scorebook.models import Entry, Hand, Player, Session, SessionSeat

    players = Player.objects.bulk_create(Player(club=club, name=n) for n in NAMES)
    start = datetime.date(2020, 1, 1)
    made = Session.objects.bulk_create(
        Session(
            club=club,
            variant="czech" if s % 5 == 4 else "slovenian-4",
            rules={"preset": "seed"},
            date=start + datetime.timedelta(days=s * 2),
            table_label=f"Table {s % 3 + 1}",
            is_closed=True,
        )
        for s in range(sessions)
    )
    next_id = (Hand.objects.aggregate(m=Max("id"))["m"] or 0) + 1
    seats, hand_rows, entry_rows = [], [], []
    for session in made:
        seated = rng.sample(players, 4)
        names = [p.name for p in seated]
        seats += [
            SessionSeat(session=session, player=p, position=i) for i, p in enumerate(seated, 1)
        ]
        totals = dict.fromkeys(names, 0)
        evening = datetime.datetime.combine(session.date, datetime.time(19), tzinfo=datetime.UTC)
        for number in range(1, hands + 1):
            declarer, partner = rng.sample(range(4), 2)
            won = rng.random() < 0.6
            data = {
                "format": 1,
                "variant": session.variant,
                "rules": {"preset": "seed"},
                "players": names,
                "declarer": names[declarer],
                "points": 40,
            }
            if session.variant == "czech":
                value = rng.choice([10, 20, 30])
                amounts = [-value if won else value] * 4
                amounts[declarer] = 3 * value if won else -3 * value
                data["contract"] = "first-obligation"
            else:
                value = rng.choice([10, 20, 30, 40, 50, 60, 70, 80])
                amounts = [0] * 4
                amounts[declarer] = value if won else -value
                data["contract"] = rng.choice(SLOVENIAN)
                if data["contract"] in ("three", "two", "one"):
                    amounts[partner] = amounts[declarer]
                    data["partner"] = names[partner]
            hand_id = next_id
            next_id += 1
            for k, p in enumerate(seated):
                entry_rows.append({"hand": hand_id, "player": p.pk, "amount": Decimal(amounts[k])})
                totals[names[k]] += amounts[k]
            # The hand's stored row of the sheet, shaped as scorebook.sheets.row_score makes it.
            by_name = dict(zip(names, amounts, strict=True))
            score = {
                "amounts": by_name,
                "lines": [
                    [
                        [["line.value", {"what": [f"contract.{data['contract']}"], "value": 10}]],
                        {n: a for n, a in by_name.items() if a},
                    ]
                ],
                "note": [
                    ["note.amount", {"value": by_name[names[declarer]]}],
                    [f"contract.{data['contract']}"],
                ],
                "dealer": names[(number - 1) % 4],
                "running": {
                    "totals": dict(totals),
                    "carry": None,
                    "dealer_seat": number % 4,
                    "played": number,
                },
            }
            hand_rows.append(
                {
                    "id": hand_id,
                    "session": session.pk,
                    "number": number,
                    "data": data,
                    "rules_version": "bench",
                    "client_id": uuid.uuid4(),
                    "version": 1,
                    # Entered at the table that evening, a minute or so apart.
                    "created_at": evening + datetime.timedelta(minutes=2 * number),
                    "changed_at": evening + datetime.timedelta(minutes=2 * number),
                    "voided": False,
                    "void_reason": "",
                    "device": "",
                    "score": score,
                }
            )
        # Closing as close_session leaves it: totals and nets (total − mean here).
        mean = Decimal(sum(totals.values())) / 4
        session.closing = {
            "lines": [],
            "totals": totals,
            "settlement": {"nets": {n: str(v - mean) for n, v in totals.items()}, "transfers": []},
        }
    SessionSeat.objects.bulk_create(seats, batch_size=2000)
    _insert(Hand, hand_rows)
    # The ids were given, not drawn: PostgreSQL's sequence must hear of them.
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), [Hand]):
            cursor.execute(sql)
    _insert(Entry, entry_rows)
    Session.objects.bulk_update(made, ["closing"], batch_size=500)
    return len(hand_rows)


def timed_ms(client, url: str, params: dict) -> float:
    started = time.perf_counter()
    response = client.get(url, params)
    elapsed = (time.perf_counter() - started) * 1000
    assert response.status_code == 200, (url, response.status_code)
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--hands", type=int, default=100, help="hands per session")
    parser.add_argument("--repeat", type=int, default=25)
    args = parser.parse_args()

    tmp = setup_django()  # noqa: F841  the SQLite folder lives while main runs
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.test import Client
    from django.urls import reverse

    from scorebook.league.models import PlayerSession
    from scorebook.league.services import rebuild_ratings
    from scorebook.models import Club, Entry, Hand, Membership, Role

    settings.ALLOWED_HOSTS = ["*"]
    call_command("migrate", verbosity=0)
    print(f"database: {connection.vendor}")
    tag = uuid.uuid4().hex[:6]
    user = get_user_model().objects.create_user(f"bench-{tag}", password=None)
    rng = random.Random(2026)

    clubs = {}
    # The small club has as many sessions as a ledger page shows and more, so both clubs'
    # pages carry the same amount of content: only the history behind them differs.
    for size, sessions, hands in (("small", 25, 4), ("big", args.sessions, args.hands)):
        club = Club.objects.create(name=f"{size} {tag}", slug=f"{size}-{tag}")
        Membership.objects.create(user=user, club=club, role=Role.VIEWER)
        started = time.perf_counter()
        with transaction.atomic():  # one commit, not one per batch
            n = build(club, sessions, hands, rng)
        built = time.perf_counter() - started
        started = time.perf_counter()
        read = rebuild_ratings(club, full=True)
        rebuilt = time.perf_counter() - started
        print(
            f"{size:5}: {sessions:5} sessions, {n:6} hands, "
            f"{Entry.objects.filter(hand__session__club=club).count():6} entries; "
            f"built in {built:5.1f} s; full rating rebuild {rebuilt:6.2f} s "
            f"= {read / rebuilt:8.0f} hands/s"
        )
        clubs[size] = club

    if connection.vendor == "postgresql":
        # What autovacuum does within a minute of a bulk load on a real server: statistics for
        # the planner and a visibility map for index-only scans.
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
    big = clubs["big"]
    # Recording one more hand in the last session, then the call the hand services make.
    last = big.sessions.order_by("-date", "-id").first()
    prev = last.hands.order_by("-number").first()
    hand = Hand.objects.create(
        session=last, number=prev.number + 1, data=prev.data, rules_version="bench"
    )
    Entry.objects.bulk_create(
        Entry(hand=hand, player=e.player, amount=e.amount) for e in prev.entries.all()
    )
    family = "czech" if last.variant == "czech" else "slovenian"
    started = time.perf_counter()
    read = rebuild_ratings(big, family)
    print(
        f"after one more hand:  rebuild_ratings(club, {family!r}) "
        f"{(time.perf_counter() - started) * 1000:7.1f} ms ({read} hands read)"
    )
    started = time.perf_counter()
    rebuild_ratings(big, family)
    print(f"nothing changed:      {(time.perf_counter() - started) * 1000:7.1f} ms")
    middle = big.sessions.filter(variant="slovenian-4").order_by("date", "id")[args.sessions // 2]
    edited = middle.hands.first()
    edited.version += 1
    edited.save()
    started = time.perf_counter()
    read = rebuild_ratings(big, "slovenian")
    print(
        f"edit half-way back:   {(time.perf_counter() - started) * 1000:7.1f} ms "
        f"({read} hands read)"
    )

    client = Client()
    client.force_login(user)
    pages = {}
    for size, club in clubs.items():
        busiest = (
            PlayerSession.objects.filter(club=club)
            .values_list("player_id", flat=True)
            .order_by("player_id")
            .first()
        )
        pages[size] = {
            "standings": (
                reverse("scorebook:league:standings", kwargs={"club": club.slug}),
                {"family": "slovenian"},
            ),
            "player": (
                reverse("scorebook:league:player", kwargs={"club": club.slug, "player": busiest}),
                {},
            ),
            "ledger": (reverse("scorebook:league:ledger", kwargs={"club": club.slug}), {}),
        }
    # Small and big requests alternate, so that whatever else the machine does falls on both.
    times = {size: {name: [] for name in pages[size]} for size in pages}
    for name in pages["small"]:
        for size in pages:
            timed_ms(client, *pages[size][name])  # warm up
        for _ in range(args.repeat):
            for size in pages:
                times[size][name].append(timed_ms(client, *pages[size][name]))
    results = {
        size: {name: statistics.median(t) for name, t in by_name.items()}
        for size, by_name in times.items()
    }
    fastest = {
        size: {name: min(t) for name, t in by_name.items()} for size, by_name in times.items()
    }
    print(f"median of {args.repeat} (fastest in brackets)")
    print(f"{'page':10} {'100 hands':>18} {'big club':>18} {'ratio':>6}")
    worst = 0.0
    for name in results["small"]:
        small, large = results["small"][name], results["big"][name]
        worst = max(worst, large / small)
        print(
            f"{name:10} {small:7.1f} ms ({fastest['small'][name]:5.1f}) "
            f"{large:7.1f} ms ({fastest['big'][name]:5.1f}) {large / small:5.2f}×"
        )
    print(f"worst ratio {worst:.2f}× (target ≤ 2×): {'ok' if worst <= 2 else 'TOO SLOW'}")


if __name__ == "__main__":
    main()
