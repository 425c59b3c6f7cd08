"""Phones saving hands while an admin renames a seated player: does anything fail?

    .venv/bin/python bench/rename_race_bench.py [--phones 4] [--seconds 10]

Two open Slovenian sessions share the player being renamed. ``--phones`` threads post hands
to the hand form of one session or the other (each an htmx save with a fresh client id, as a
phone does, through the whole middleware stack), while one more thread renames the shared
player back and forth through the roster page, for ``--seconds``. Counts the answers of both:
a save must be stored (200) or refused with a message (4xx), never 500, and no rename may
fail. The stored sheets are then compared with a replay. Last line:
``rename race: S saves (E server errors), R renames (F server errors), sheets replay: yes|no``.
Uses DATABASE_URL when set (a database that may be wiped), else a fresh SQLite file.
"""

from __future__ import annotations

import argparse
import logging
import sys
import threading
import time
import uuid
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchdb import setup_django  # noqa: E402


def _replays(session) -> bool:
    """Whether the stored rows of the session equal the engine's replay of its hands."""
    from rules import RulesError
    from scorebook import sheets
    from scorebook.models import Session

    session = Session.objects.get(pk=session.pk)  # its seats as they are now
    try:
        hands, result = sheets.evaluate_session(session)
    except RulesError:  # a stored hand names a player no longer seated
        return False
    replay = [{p: str(a) for p, a in row.result.amounts.items()} for row in result.rows]
    stored = [{p: str(a) for p, a in hand.score["amounts"].items()} for hand in hands]
    return replay == stored


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phones", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=10)
    args = parser.parse_args()

    tmp = setup_django()  # noqa: F841  the SQLite folder lives while main runs
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.urls import reverse

    from scorebook import services
    from scorebook.models import Club, Membership, Player

    settings.ALLOWED_HOSTS = ["testserver"]
    logging.disable(logging.CRITICAL)  # a 500 is counted below, not printed
    call_command("migrate", verbosity=0)
    admin = get_user_model().objects.create_user(f"admin-{uuid.uuid4().hex[:6]}", password="x")
    club = Club.objects.create(name="Race", slug=f"race-{uuid.uuid4().hex[:6]}")
    Membership.objects.create(user=admin, club=club, role="admin")
    players = [Player.objects.create(club=club, name=n) for n in ["Ana", "Bor", "Cene", "Dani"]]
    extra = Player.objects.create(club=club, name="Eva")
    sessions = [
        services.start_session(
            club=club, variant_id="slovenian-4", preset="tarzs", players=seated, user=admin
        )
        for seated in (players, [players[0], players[1], players[2], extra])
    ]
    ana = players[0]
    print(f"database: {connection.vendor}")

    saves: Counter = Counter()
    renames: Counter = Counter()
    stop = time.monotonic() + args.seconds

    def phone(i: int) -> None:
        client = Client(raise_request_exception=False)
        client.force_login(admin)
        session = sessions[i % 2]
        url = reverse("scorebook:hand_new", kwargs={"club": club.slug, "session": session.pk})
        fields = {"contract": "three", "declarer": "1", "partner": "2", "points": "40"}
        try:
            while time.monotonic() < stop:
                answer = client.post(
                    url, {**fields, "client_id": str(uuid.uuid4())}, HTTP_HX_REQUEST="true"
                )
                saves[answer.status_code] += 1
        finally:
            connection.close()

    def renamer() -> None:
        client = Client(raise_request_exception=False)
        client.force_login(admin)
        url = reverse("scorebook:player_edit", kwargs={"club": club.slug, "player": ana.pk})
        turn = 0
        try:
            while time.monotonic() < stop:
                turn += 1
                answer = client.post(url, {"name": f"Ana {turn}"})
                renames[answer.status_code] += 1
        finally:
            connection.close()

    threads = [threading.Thread(target=phone, args=(i,)) for i in range(args.phones)]
    threads.append(threading.Thread(target=renamer))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    replayed = all(_replays(session) for session in sessions)
    print(f"saves by status: {dict(sorted(saves.items()))}")
    print(f"renames by status: {dict(sorted(renames.items()))}")
    save_errors = sum(n for status, n in saves.items() if status >= 500)
    rename_errors = sum(n for status, n in renames.items() if status >= 500)
    print(
        f"rename race: {sum(saves.values())} saves ({save_errors} server errors), "
        f"{sum(renames.values())} renames ({rename_errors} server errors), "
        f"sheets replay: {'yes' if replayed else 'no'}"
    )
    club.delete()


if __name__ == "__main__":
    main()
