"""Random bad requests against every page of a club: does any of them answer a server error?

    .venv/bin/python bench/fuzz_bench.py [--requests 3000] [--seconds 300] [--seed 1]

Builds a demo-sized club (an open session of each variant with a few hands, a tournament, a
season), then sends ``--requests`` requests through the whole middleware stack with Django's
test client, as the club's admin, a scorekeeper and anonymously. Each request is a GET or POST
of one of the club's URLs (object ids of this club, of another club, or absurd ones) with the
fields the page's own form names filled with hostile values: huge numbers, exponents, NaN,
control characters, very long text, markup, formulas, deep JSON. A request is a failure when
it answers 5xx or takes over two seconds. Prints each failure's cause once, and last:
``fuzz: N requests, E server errors from C causes, S slow``. Uses DATABASE_URL when set, else a
fresh SQLite file in a temporary folder; loopback only (no server, no network).
"""

from __future__ import annotations

import argparse
import logging
import random
import re
import sys
import time
import traceback
import uuid
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from benchdb import setup_django  # noqa: E402

SLOW_SECONDS = 2.0

HOSTILE = [
    "",
    " ",
    "0",
    "-1",
    "1e30",
    "1e400",
    "1e1000000",
    "9" * 5000,
    "-" + "9" * 50,
    "NaN",
    "Infinity",
    "-Infinity",
    "0x10",
    "40,5",
    "40.5",
    "−12",
    "2000000",
    "1000000.001",
    "abc",
    "\x00",
    "a\x00b",
    "\x1b[31m",
    "\r\n",
    "\t",
    "x" * 300,
    "x" * 10_000,
    "<script>alert(1)</script>",
    '=HYPERLINK("http://x")',
    "+cmd|' /C calc'!A0",
    "@SUM(A1)",
    "ž" * 61,
    "'; DROP TABLE scorebook_hand; --",
    "[" * 100_000 + "]" * 100_000,
    '{"hands": 5}',
    '{"hands": null}',
    '{"variant": "slovenian-4", "players": ["a","b","c","d"], "hands": [{"contract": "three",'
    ' "declarer": "a", "partner": "b", "points": 1e1000000}]}',
    '{"variant": "slovenian-4", "rules": {"preset": []}, "players": ["a","b","c","d"],'
    ' "hands": []}',
    "\ufeff{}",
    "2026-02-30",
    "99999-01-01",
    str(2**63),
    str(-(2**63)),
]


def hostile(rng: random.Random) -> str:
    if rng.random() < 0.15:
        return "".join(rng.choice(HOSTILE[:30]) for _ in range(rng.randint(2, 4)))
    return rng.choice(HOSTILE)


# Valid requests to start from, so that a hostile value reaches the code behind the checks
# that come first (a hand's points are read only once its contract is known).
VALID = {
    "hands/new/": [
        {"contract": "three", "declarer": "1", "partner": "3", "points": "40"},
        {"contract": "adjustment", "adj-1": "5", "adj_reason": "late"},
        {"contract": "klop", "pbp-1": "20", "pbp-2": "20", "pbp-3": "20", "pbp-4": "10"},
    ],
    "sessions/import/": [
        {
            "text": '{"variant": "slovenian-4", "players": ["a", "b", "c", "d"], "hands": '
            '[{"contract": "three", "declarer": "a", "partner": "b", "points": 40}]}'
        }
    ],
}
VALID["hands/preview/"] = VALID["hands/1/"] = VALID["hands/new/"]


def field_values(html: str) -> dict[str, str]:
    """The page's own fields with the values it offers (the first one where it offers many)."""
    fields: dict[str, str] = {}
    for tag in re.findall(r"<(?:input|select|textarea)[^>]*>", html):
        name = re.search(r'name="([^"]+)"', tag)
        if name and name.group(1) != "csrfmiddlewaretoken":
            value = re.search(r'value="([^"]*)"', tag)
            fields.setdefault(name.group(1), value.group(1) if value else "")
    return fields


def valid_base(url: str, page_fields: dict[str, str], rng: random.Random) -> dict[str, str]:
    for tail, choices in VALID.items():
        if url.endswith(tail):
            return dict(rng.choice(choices))
    return dict(page_fields)


def build_club(user_model):
    """A club with something behind every URL, and another club whose ids are tried too."""
    from scorebook import hands, services
    from scorebook.models import Club, Membership, Player

    admin = user_model.objects.create_user("admin", password="x")
    keeper = user_model.objects.create_user("keeper", password="x")
    club = Club.objects.create(name="Fuzz", slug="fuzz")
    Membership.objects.create(user=admin, club=club, role="admin")
    keeper_membership = Membership.objects.create(user=keeper, club=club, role="scorekeeper")
    names = ["Ana", "Bor", "Cene", "Dana", "Eva"]
    players = [Player.objects.create(club=club, name=name) for name in names]
    session = services.start_session(
        club=club, variant_id="slovenian-4", preset="tarzs", players=players[:4], user=admin
    )
    for declarer, partner, points in (("Ana", "Bor", 40), ("Cene", "Dana", 30)):
        hands.record_hand(
            session,
            {"contract": "three", "declarer": declarer, "partner": partner, "points": points},
            uuid.uuid4(),
            admin,
        )
    other = Club.objects.create(name="Other", slug="other")
    other_player = Player.objects.create(club=other, name="Zora")
    ids = {
        "session": [session.pk, 10**12],
        "number": [1, 2, 10**9],
        "player": [players[0].pk, other_player.pk, 10**12],
        "membership": [keeper_membership.pk, 10**12],
        "season": [10**12],
        "tournament": [10**12],
    }
    return admin, keeper, club, ids


def club_urls(club, ids, rng: random.Random) -> list[str]:
    """Every URL of the club's URLconf, with ids of this club, another club or none."""
    from django.urls import URLPattern, URLResolver, get_resolver

    urls = []

    def walk(patterns, prefix):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern):
                urls.append(prefix + str(pattern.pattern))

    walk(get_resolver().url_patterns, "/")
    out = []
    for template in urls:
        if template.startswith("/admin/"):
            continue
        url = template.replace("<slug:club>", club.slug)
        for name in re.findall(r"<int:(\w+)>", url):
            url = url.replace(f"<int:{name}>", str(rng.choice(ids.get(name, [1]))), 1)
        out.append(url)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--seconds", type=float, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    tmp = setup_django()  # noqa: F841  the SQLite folder lives while main runs
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.core.signals import got_request_exception
    from django.test import Client

    settings.ALLOWED_HOSTS = ["testserver"]
    settings.AXES_ENABLED = False
    call_command("migrate", verbosity=0)
    admin, keeper, club, ids = build_club(get_user_model())

    causes: Counter = Counter()
    last_error: list[str] = []

    def record(sender, request=None, **kwargs):
        kind, error, tb = sys.exc_info()
        frame = traceback.extract_tb(tb)[-1] if tb else None
        where = f"{Path(frame.filename).name}:{frame.lineno}" if frame else "?"
        last_error.append(f"{kind.__name__ if kind else '?'} at {where}: {str(error)[:80]}")

    got_request_exception.connect(record)
    logging.disable(logging.CRITICAL)  # the causes are printed once each below
    clients = {}
    for name, user in (("admin", admin), ("keeper", keeper), ("anonymous", None)):
        client = Client(raise_request_exception=False)
        if user is not None:
            client.force_login(user)
        clients[name] = client

    rng = random.Random(args.seed)
    forms: dict[str, dict[str, str]] = {}
    tried = errors = slow = 0
    deadline = time.monotonic() + args.seconds
    while tried < args.requests and time.monotonic() < deadline:
        role = rng.choice(list(clients))
        client = clients[role]
        url = rng.choice(club_urls(club, ids, rng))
        if url not in forms:
            page = client.get(url)
            forms[url] = field_values(page.content.decode(errors="replace"))
        fields = valid_base(url, forms[url], rng)
        names = list(fields) * 2 + ["points", "adj-1", "adj_reason", "reason", "page", "text"]
        for name in rng.sample(names, min(len(names), rng.randint(1, 3))):
            fields[name] = hostile(rng)
        if rng.random() < 0.3:
            fields["client_id"] = str(uuid.uuid4())
        query = "" if rng.random() < 0.8 else f"?page={hostile(rng)}&season={hostile(rng)}"
        started = time.perf_counter()
        if rng.random() < 0.5:
            answer = client.get(url + query, fields if rng.random() < 0.3 else None)
        else:
            extra = {"HTTP_HX_REQUEST": "true"} if rng.random() < 0.5 else {}
            answer = client.post(url + query, fields, **extra)
        took = time.perf_counter() - started
        tried += 1
        if answer.status_code >= 500:
            errors += 1
            cause = last_error[-1] if last_error else f"{answer.status_code} at {url}"
            if cause not in causes:
                print(f"server error: {role} {url} -> {cause}")
            causes[cause] += 1
        if took > SLOW_SECONDS:
            slow += 1
            print(f"slow: {role} {url} took {took:.1f} s")
        last_error.clear()
    print(f"fuzz: {tried} requests, {errors} server errors from {len(causes)} causes, {slow} slow")


if __name__ == "__main__":
    main()
