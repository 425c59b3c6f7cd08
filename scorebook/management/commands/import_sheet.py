"""`python manage.py import_sheet CLUB_SLUG FILE`: a JSON sheet (HANDS.md) as a new session."""

from __future__ import annotations

import datetime
import sys

from django.core.management.base import BaseCommand, CommandError

from rules import jsontext
from scorebook import hands
from scorebook.models import Club


class Command(BaseCommand):
    help = "Import a JSON sheet as a new session of a club and print the session's id."

    def add_arguments(self, parser):
        parser.add_argument("club", help="the club's short name (slug)")
        parser.add_argument("file", help="the sheet as JSON, or - for standard input")
        parser.add_argument("--table", default="", help="a table label for the session")
        parser.add_argument(
            "--date",
            type=datetime.date.fromisoformat,
            default=None,
            help="the day it was played, YYYY-MM-DD (default today)",
        )

    def handle(self, *args, club, file, table, date, **options):
        try:
            club_obj = Club.objects.get(slug=club)
        except Club.DoesNotExist:
            raise CommandError(f"No club is called {club!r}.") from None
        try:
            if file == "-":
                raw = sys.stdin.buffer.read(hands.MAX_SHEET_BYTES + 1)
            else:
                with open(file, "rb") as f:
                    raw = f.read(hands.MAX_SHEET_BYTES + 1)
        except OSError as exc:
            raise CommandError(f"{file}: {exc.strerror}") from None
        try:
            data = jsontext.loads(raw, max_bytes=hands.MAX_SHEET_BYTES, decimals=False)
        except jsontext.UnreadableJSON as exc:
            raise CommandError(f"{file}: {exc.problems[0]}") from None
        try:
            session = hands.import_sheet(club_obj, data, None, date=date, table_label=table)
        except hands.SheetProblems as exc:
            for message in exc.messages:
                self.stderr.write(message)
            raise CommandError(
                f"Nothing was imported: {len(exc.messages)} problem(s) in {file}."
            ) from None
        self.stdout.write(str(session.pk))
