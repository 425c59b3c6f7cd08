"""Load a demo club to click around in: `python manage.py demo` (safe to run again).

The demo admin's password is kept in `.demo-login` in the project folder (ignored by git), so
it stays the same from run to run; `--reset` (what `make demo-reset` runs) makes a new one.
"""

from __future__ import annotations

import datetime
import os
import secrets
import uuid
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

import rules
from rules.fields import players_named
from scorebook import hands, roster, services
from scorebook.models import Club, Membership, Player, Role

CLUB_SLUG = "demo"
ADMIN_USERNAME = "demo-admin"
PLAYERS = ["Ana", "Bor", "Cene", "Dani", "Eva", "Fran"]
DEMO_NAMESPACE = uuid.UUID("5c0eb00c-0000-4000-8000-000000000000")

# A few real hands per variant, in the HANDS.md format (the session supplies format, variant,
# rules and players). A variant the engine cannot score yet, or that is missing here, gets no
# demo session; running the command again later adds it.
DEMO_HANDS: dict[str, list[dict]] = {
    "slovenian-4": [
        {"contract": "two", "declarer": "Ana", "partner": "Cene", "points": 39},
        {"contract": "three", "declarer": "Bor", "partner": "Dani", "points": 30},
        {
            "contract": "solo-one",
            "declarer": "Cene",
            "points": 41,
            "bonuses": [{"name": "trula", "side": "declarer", "made": True}],
        },
        {"contract": "klop", "points_by_player": {"Ana": 20, "Bor": 15, "Cene": 25, "Dani": 10}},
        {
            "contract": "one",
            "declarer": "Dani",
            "partner": "Ana",
            "points": 44,
            "contra": {"game": 1},
        },
    ],
    "slovenian-3": [
        {"contract": "two", "declarer": "Ana", "points": 40},
        {"contract": "one", "declarer": "Bor", "points": 30},
        {"contract": "three", "declarer": "Cene", "points": 47},
    ],
    "slovenian-2": [
        {"contract": "game", "announcer": "Ana", "points_by_player": {"Ana": 40, "Bor": 30}},
        {"contract": "game", "announcer": "Bor", "points_by_player": {"Ana": 38, "Bor": 32}},
    ],
    "czech": [
        {"contract": "first-obligation", "declarer": "Ana", "partner": "Cene", "points": 50},
        {"contract": "solo", "declarer": "Bor", "points": 40},
    ],
    "zwanzigerrufen": [
        {"contract": "rufer", "declarer": "Ana", "partner": "Bor", "points": 40},
        {"contract": "solo", "declarer": "Cene", "points": 30},
    ],
    "french-3": [
        {"contract": "petite", "declarer": "Ana", "points": 45, "oudlers": 2},
        {"contract": "garde", "declarer": "Bor", "points": 50, "oudlers": 1},
    ],
    "french-4": [
        {"contract": "petite", "declarer": "Ana", "points": 45, "oudlers": 2},
        {"contract": "garde", "declarer": "Bor", "points": 50, "oudlers": 1},
    ],
    "french-5": [
        {"contract": "petite", "declarer": "Ana", "partner": "Cene", "points": 45, "oudlers": 2},
        {"contract": "garde", "declarer": "Bor", "partner": "Eva", "points": 50, "oudlers": 1},
    ],
}


class Command(BaseCommand):
    help = "Create the demo club, its admin and players, and a finished session per variant."

    def add_arguments(self, parser):
        parser.add_argument(
            "--reset", action="store_true", help="Give the demo admin a new password."
        )
        parser.add_argument(
            "--port", type=int, default=8000, help="The port the printed address names."
        )
        parser.add_argument(
            "--login-file",
            type=Path,
            default=None,
            help="Where the password is kept (default: .demo-login in the project folder).",
        )

    def handle(self, *args, **options):
        login_file = options["login_file"] or login_file_default()
        password = demo_password(login_file, reset=options["reset"])
        admin = self._admin(password)
        club = Club.objects.filter(slug=CLUB_SLUG).first()
        if club is None:
            club = services.create_club(
                name="Demo Tarock Club", slug=CLUB_SLUG, admin=admin, language="sl"
            )
            self.stdout.write(f"Created the demo club {club.name}.")
        else:
            Membership.objects.get_or_create(user=admin, club=club, defaults={"role": Role.ADMIN})
        for name in PLAYERS:
            if not club.players.filter(name__iexact=name).exists():
                roster.add_player(club=club, name=name)
        if hasattr(rules, "score_hand"):
            for variant in rules.variants():
                self._demo_session(club, admin, variant)
        # Last, so that it is what a newcomer sees right above the server's own lines.
        self.stdout.write(self.style.SUCCESS(login_box(password, options["port"], login_file)))

    def _admin(self, password: str):
        """The demo admin, with the kept password. Under DEBUG (as `make run` serves) he may
        open the Django admin too; without it he is an ordinary account."""
        User = get_user_model()
        admin, _ = User.objects.get_or_create(
            username=ADMIN_USERNAME, defaults={"email": "demo-admin@example.org"}
        )
        admin.set_password(password)
        admin.is_staff = admin.is_superuser = bool(settings.DEBUG)
        admin.save()
        return admin

    def _demo_session(self, club: Club, admin, variant) -> None:
        if club.sessions.filter(variant=variant.id).exists():
            return
        played = DEMO_HANDS.get(variant.id)
        if not played:
            self.stdout.write(f"No demo hands for {variant.id} yet.")
            return
        # The players the hands name, in roster order; one more than the game needs is fine.
        named = {name for hand in played for name in _names(hand)}
        count = max(min(variant.player_counts), len(named))
        players = list(Player.objects.filter(club=club, name__in=PLAYERS[:count]))
        players.sort(key=lambda p: PLAYERS.index(p.name))
        try:
            with transaction.atomic():
                session = services.start_session(
                    club=club,
                    variant_id=variant.id,
                    preset=variant.default_preset,
                    players=players,
                    user=admin,
                    date=datetime.date.today() - datetime.timedelta(days=7),
                    table_label="Demo table",
                )
                for number, hand in enumerate(played, start=1):
                    client_id = uuid.uuid5(DEMO_NAMESPACE, f"{variant.id}/{number}")
                    hands.record_hand(session, hand, client_id, admin)
                services.close_session(session=session)
        except (rules.RulesError, services.ServiceError) as exc:
            problems = getattr(exc, "problems", None) or [exc]
            self.stdout.write(
                f"Skipped the {variant.id} demo session: "
                + "; ".join(str(getattr(p, "message", p)) for p in problems)
            )
        else:
            self.stdout.write(f"Created a {variant.id} demo session with {len(played)} hands.")


def _names(hand: dict) -> set[str]:
    return players_named(hand)


def login_file_default() -> Path:
    return Path(getattr(settings, "DEMO_LOGIN_FILE", "") or settings.BASE_DIR / ".demo-login")


def demo_password(login_file: Path, *, reset: bool = False) -> str:
    """The password kept in `login_file`; a new one (written there, for the owner only) when
    there is none yet or on `reset`."""
    if not reset:
        try:
            kept = login_file.read_text(encoding="utf-8").strip()
        except (FileNotFoundError, UnicodeDecodeError):
            kept = ""
        if kept:
            return kept
    password = secrets.token_urlsafe(12)
    fd = os.open(login_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(password + "\n")
    return password


def login_box(password: str, port: int, login_file: Path) -> str:
    """The demo login in a box of plain ASCII (any terminal draws it)."""
    lines = [
        f"Demo club:  http://127.0.0.1:{port}/c/{CLUB_SLUG}/",
        f"Login:      {ADMIN_USERNAME}",
        f"Password:   {password}",
    ]
    if settings.DEBUG:
        lines.append(f"Admin site: http://127.0.0.1:{port}/admin/")
    lines.append(f"Kept in {login_file.name}; `make demo-reset` makes a new one.")
    width = max(len(line) for line in lines)
    rule = "+" + "-" * (width + 2) + "+"
    return "\n".join([rule, *(f"| {line.ljust(width)} |" for line in lines), rule])
