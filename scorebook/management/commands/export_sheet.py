"""`python manage.py export_sheet SESSION_ID`: print a session as a JSON sheet (HANDS.md)."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError
from django.core.serializers.json import DjangoJSONEncoder

from scorebook import sheets
from scorebook.models import Session


class Command(BaseCommand):
    help = "Print a session as a JSON sheet."

    def add_arguments(self, parser):
        parser.add_argument("session", type=int, help="the session's id")

    def handle(self, *args, session, **options):
        try:
            found = Session.objects.get(pk=session)
        except Session.DoesNotExist:
            raise CommandError(f"No session has the id {session}.") from None
        self.stdout.write(
            json.dumps(
                sheets.export_json(found), cls=DjangoJSONEncoder, ensure_ascii=False, indent=1
            )
        )
