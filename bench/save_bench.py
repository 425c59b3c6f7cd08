"""Saving a hand in a long-lived club: does it stay as quick as a trivial page?

    .venv/bin/python bench/save_bench.py [--history 100000] [--hands 60] [--repeat 30]

Builds a club with ``--history`` hands of past sessions (bench/league_bench.py's generator),
then an open Slovenian session of ``--hands`` hands. It then times, through the whole
middleware stack with Django's test client and a logged-in scorekeeper:

- "save": what a phone does when the scorekeeper taps "Save the hand": an htmx POST of a new
  hand (a fresh client id each time), answered with the refreshed sheet page;
- "save without JavaScript": the same POST without htmx, then the GET of the sheet it
  redirects to (reported, not the target);
- "trivial": GET a view that returns "ok" and touches nothing;
- "least durable save": POST to a view that does only what any save must: read the session,
  then in one transaction insert the hand with its history row and its entries, and commit.
  It is no feature, only the floor under the target: no save can cost less than it.

Each saved hand is deleted again, untimed, so every save is the 61st hand of the session. The
saves and the trivial view take turns, so a change in the machine's load falls on both. It
prints the median of each and the ratio (target: at most 3×), and the compressed size of the
hand form page with its CSS and JavaScript (target: at most 100 KB). Uses DATABASE_URL when
set, else a fresh SQLite file in a temporary folder.
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--history", type=int, default=100_000)
    parser.add_argument("--hands", type=int, default=60)
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
    from django.urls import clear_url_caches, include, path, reverse

    # The project's URLs plus the trivial view, so both go through the same middleware.
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

    from scorebook import hands, services
    from scorebook.models import Club, Hand, Membership, Player

    user = get_user_model().objects.create_user("keeper", password="x")
    club = Club.objects.create(name="Bench", slug="bench")
    Membership.objects.create(user=user, club=club, role="admin")
    started = time.perf_counter()
    build(club, args.history // 100, 100, random.Random(1))
    print(f"history: {args.history:,} hands built in {time.perf_counter() - started:.0f} s")

    seated = list(Player.objects.filter(club=club).order_by("name")[:4])
    session = services.start_session(
        club=club, variant_id="slovenian-4", preset="tarzs", players=seated, user=user
    )
    rng = random.Random(2)
    for _ in range(args.hands):
        declarer, partner = rng.sample(seated, 2)
        hands.record_hand(
            session,
            {
                "contract": "three",
                "declarer": declarer.name,
                "partner": partner.name,
                "points": rng.randint(20, 60),
            },
            uuid.uuid4(),
            user,
        )

    client = Client()
    client.force_login(user)
    kwargs = {"club": club.slug, "session": session.pk}
    form_url = reverse("scorebook:hand_new", kwargs=kwargs)
    fields = {"contract": "three", "declarer": "1", "partner": "3", "points": "40"}

    answers = {}

    def save(by: Client = client) -> None:
        answer = by.post(
            form_url, {**fields, "client_id": str(uuid.uuid4())}, HTTP_HX_REQUEST="true"
        )
        assert answer.status_code == 200 and b'<tbody class="hand"' in answer.content
        answers[by] = len(gzip.compress(answer.content))

    translated = Client()
    translated.force_login(user)
    translated.cookies[settings.LANGUAGE_COOKIE_NAME] = args.lang or "en"

    def save_translated() -> None:
        save(translated)

    def save_without_javascript() -> None:
        answer = client.post(form_url, {**fields, "client_id": str(uuid.uuid4())})
        assert answer.status_code == 302, answer.status_code
        assert client.get(answer["Location"]).status_code == 200

    def trivial_page() -> None:
        assert client.get("/bench/trivial/").status_code == 200

    def least_durable_save_page() -> None:
        answer = client.post(
            "/bench/least-durable-save/", {"session": session.pk, "number": args.hands + 1}
        )
        assert answer.status_code == 200

    def back_to_60() -> None:
        Hand.objects.filter(session=session, number__gt=args.hands).delete()

    times: dict = {
        save: [],
        save_without_javascript: [],
        trivial_page: [],
        least_durable_save_page: [],
    }
    if args.lang:
        times[save_translated] = []
    for turn in range(args.repeat + 1):
        for fn in times:
            ms = elapsed_ms(fn)
            if turn:  # the first turn warms caches and imports
                times[fn].append(ms)
            back_to_60()
    save_ms, plain_ms, trivial_ms, floor_ms = (
        statistics.median(t) for t in list(times.values())[:4]
    )
    if args.profile:
        import cProfile
        import pstats

        profile = cProfile.Profile()
        for _turn in range(args.repeat):
            profile.runcall(save)
            back_to_60()
        pstats.Stats(profile).sort_stats("cumulative").print_stats(args.profile)
    print(
        f"save a hand, answered with the refreshed sheet ({args.hands} + 1 hands): {save_ms:.2f} ms"
    )
    print(f"the same without JavaScript (POST, redirect, GET): {plain_ms:.2f} ms")
    print(f"trivial view: {trivial_ms:.2f} ms")
    print(
        f"least durable save (session read, hand + history + entries committed): "
        f"{floor_ms:.2f} ms = {floor_ms / trivial_ms:.1f} trivial views"
    )
    print(
        f"ratio: {save_ms / trivial_ms:.1f} (target at most 3); "
        f"without JavaScript {plain_ms / trivial_ms:.1f}"
    )

    if args.lang:
        translated_ms = statistics.median(times[save_translated])
        print(
            f"save with the pages in {args.lang} ÷ in English: {translated_ms / save_ms:.2f} "
            f"(time), {answers[translated] / answers[client]:.2f} (compressed answer)"
        )

    html = client.get(form_url).content
    size = len(gzip.compress(html)) + sum(len(gzip.compress(a)) for a in assets_of(html))
    print(
        f"hand form page with its CSS and JavaScript, gzip: {size / 1024:.1f} KB "
        "(target at most 100)"
    )


if __name__ == "__main__":
    main()
