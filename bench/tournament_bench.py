"""A 40-player, 3-round tournament day played through the web with Django's test Client.

    .venv/bin/python bench/tournament_bench.py [--players 40] [--rounds 3] [--hands 2]

Everything goes through the pages, as phones and the organiser's laptop would send it: the
organiser creates the tournament; each player registers and confirms his presence from his own
client; the organiser starts it (round 1 is drawn); in every round each table's hands are
saved from that table's own client (its first player, a scorekeeper), and the organiser looks
at the director's screen before and after; after round 1 the organiser corrects a hand of
table 1 (the tournament recomputes and tells him) and withdraws a player of round 2 whose
table has not begun, seating a walk-in in his place.

It prints, per round, the organiser's requests and every client's, and at the end the server
time of the day: the summed time Django spent answering every request (the test Client calls
the handler in-process, so this is the server's share, not the network's).

Uses DATABASE_URL when set (PostgreSQL), else a fresh SQLite file in a temporary folder.
"""

from __future__ import annotations

import argparse
import datetime
import sys
import time
import uuid
import zoneinfo
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchdb import setup_django  # noqa: E402


class Timed:
    """A test Client whose every request adds its time and its count under `who`."""

    spent = 0.0
    requests: Counter = Counter()

    def __init__(self, user, who: str):
        from django.test import Client

        self.client = Client(HTTP_HOST="localhost")
        self.client.force_login(user)
        self.who = who

    def __getattr__(self, method):
        call = getattr(self.client, method)

        def timed(*args, **kwargs):
            start = time.perf_counter()
            response = call(*args, **kwargs)
            Timed.spent += time.perf_counter() - start
            Timed.requests[self.who] += 1
            assert response.status_code < 400, (method, args[0], response.status_code)
            return response

        return timed


def tournament_url(name: str, tournament, **kwargs) -> str:
    from django.urls import reverse

    return reverse(
        f"scorebook:tournaments:{name}",
        kwargs={"club": tournament.club.slug, "tournament": tournament.pk, **kwargs},
    )


def build(players: int):
    """A club, its organiser and `players` members (scorekeepers: a table's first player
    saves its hands)."""
    from django.contrib.auth import get_user_model

    from scorebook.models import Club, Membership, Role

    club = Club.objects.create(name="Tarok klub Ljubljana", slug="tkl")
    make = get_user_model().objects.create_user
    organiser = make("organiser", email="organiser@example.org")
    Membership.objects.create(user=organiser, club=club, role=Role.ADMIN)
    members = []
    for i in range(players):
        user = make(f"player{i:02d}", email=f"p{i:02d}@example.org", first_name=f"Igralec {i:02d}")
        Membership.objects.create(user=user, club=club, role=Role.SCOREKEEPER)
        members.append(user)
    return club, organiser, members


def create(office: Timed, club, players: int, rounds: int, hands: int):
    from django.urls import reverse
    from django.utils import timezone

    from scorebook.tournaments.models import Tournament

    local = zoneinfo.ZoneInfo(club.time_zone)
    start = timezone.localtime(timezone.now(), local) + datetime.timedelta(minutes=10)
    office.post(
        reverse("scorebook:tournaments:create", kwargs={"club": club.slug}),
        {
            "name": "Ljubljana open",
            "variant": "slovenian-4",
            "start_date": start.date().isoformat(),
            "start_time": start.strftime("%H:%M"),
            "hands_per_table": str(hands),
            "rounds": str(rounds),
            "capacity": str(players),
            "points_preset": "n-place",
            "rules": "tarzs",
            # The hands go in from the tables' own phones; nobody confirms them here (each
            # confirmation would be one more request per player and hand).
            "confirmation": "off",
        },
    )
    return Tournament.objects.get(club=club)


def play_round(tournament, number: int, phones: dict, office: Timed, hands: int) -> None:
    """Every table of round `number` saves its hands from its own client."""
    from django.urls import reverse

    rnd = tournament.round_set.get(number=number)
    office.get(tournament_url("director", tournament))
    for table in rnd.tables.select_related("session"):
        first = table.placements.order_by("seat").first().registration
        phone = phones[first.user_id]
        target = reverse(
            "scorebook:hand_new", kwargs={"club": tournament.club.slug, "session": table.session_id}
        )
        size = table.session.seats.count()
        piles = [5, 10, 20, 35] if size == 4 else [10, 25, 35]
        for _ in range(hands):
            fields = {f"pbp-{i}": str(p) for i, p in enumerate(piles, start=1)}
            phone.post(target, {"client_id": str(uuid.uuid4()), "contract": "klop", **fields})
    office.get(tournament_url("director", tournament))


def correct_and_substitute(tournament, office: Timed) -> None:
    """After round 1: table 1's first hand corrected (piles swapped), and a player of a
    round-2 table that has not begun withdrawn with a walk-in in his place."""
    from django.urls import reverse

    table = tournament.round_set.get(number=1).tables.get(number=1)
    hand = table.session.hands.get(number=1)
    office.post(
        reverse(
            "scorebook:hand_edit",
            kwargs={"club": tournament.club.slug, "session": table.session_id, "number": 1},
        ),
        {
            "contract": "klop",
            "pbp-1": "35",
            "pbp-2": "10",
            "pbp-3": "20",
            "pbp-4": "5",
            "version": str(hand.version),
        },
    )
    assert tournament.events.filter(kind="corrected").exists(), "the correction was not told"
    later = tournament.round_set.get(number=2).tables.order_by("-number").first()
    leaving = later.placements.order_by("-seat").first().registration
    office.post(
        tournament_url("withdraw", tournament, registration=leaving.pk), {"name": "Zala Novak"}
    )
    assert tournament.registrations.get(pk=leaving.pk).withdrawn_at is not None


def run(players: int, rounds: int, hands: int) -> None:
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    club, organiser, members = build(players)
    office = Timed(organiser, "organiser")
    phones = {user.pk: Timed(user, "players") for user in members}
    tournament = create(office, club, players, rounds, hands)
    for phone in phones.values():
        phone.post(tournament_url("register", tournament))
        phone.post(tournament_url("confirm", tournament))
    office.post(tournament_url("start", tournament))
    print(
        f"before the start: organiser {Timed.requests['organiser']} requests, "
        f"players {Timed.requests['players']}"
    )
    for number in range(1, rounds + 1):
        before = Counter(Timed.requests)
        play_round(tournament, number, phones, office, hands)
        if number == 1:
            correct_and_substitute(tournament, office)
        done = Timed.requests - before
        print(
            f"round {number}: organiser {done['organiser']} requests, "
            f"table phones {done['players']}"
        )
    tournament.refresh_from_db()
    assert tournament.status == "finished", tournament.status
    print(
        f"tournament: {players} players, {rounds} rounds, server time of the day "
        f"{Timed.spent:.2f} s over {sum(Timed.requests.values())} requests"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--hands", type=int, default=2)
    args = parser.parse_args()
    folder = setup_django()
    try:
        run(args.players, args.rounds, args.hands)
    finally:
        folder.cleanup()


if __name__ == "__main__":
    main()
