"""Run from cron every minute: `python manage.py tournament_tick`.

Starts every tournament whose start time has passed (the same processing as the admin's
"Start the tournament" button) and moves running tournaments on: tables that have played their
hands are finished and the next round is drawn. Running it twice does nothing twice.
"""

from django.core.management.base import BaseCommand

from scorebook.tournaments.services import process_due


class Command(BaseCommand):
    help = "Start tournaments whose start has passed; finish played tables; draw next rounds."

    def handle(self, *args, **options):
        for tournament, outcome in process_due():
            self.stdout.write(f"{tournament.club.slug}/{tournament.pk} {tournament}: {outcome}")
