"""`manage.py stylesheet`: write static/scorebook/site.css from its parts (`make css`)."""

from django.core.management.base import BaseCommand

from scorebook import stylesheet


class Command(BaseCommand):
    help = "Join Pico and Scorebook's stylesheets into static/scorebook/site.css."

    def handle(self, *args, **options):
        self.stdout.write(f"wrote {stylesheet.write()}")
