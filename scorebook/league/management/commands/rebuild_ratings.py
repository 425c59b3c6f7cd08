"""manage.py rebuild_ratings CLUB_SLUG: recompute a club's ratings from its first hand."""

from django.core.management.base import BaseCommand, CommandError

from scorebook.league.models import Rating
from scorebook.league.services import family_variants, rebuild_ratings
from scorebook.models import Club


class Command(BaseCommand):
    help = (
        "Rebuild a club's Elo ratings (RULES.md §6) and league summaries from its hands, and "
        "print one line per player: family, name, rating, hands rated (tab-separated)."
    )

    def add_arguments(self, parser):
        parser.add_argument("club", metavar="CLUB_SLUG")
        parser.add_argument("--family", choices=list(family_variants()), help="only this family")

    def handle(self, *args, club: str, family: str | None = None, **options):
        try:
            the_club = Club.objects.get(slug=club)
        except Club.DoesNotExist:
            raise CommandError(f"No club with the short name {club!r}.") from None
        rebuild_ratings(the_club, family, full=True)
        order = {name: i for i, name in enumerate(family_variants())}
        ratings = Rating.objects.filter(club=the_club).select_related("player")
        if family:
            ratings = ratings.filter(family=family)
        rows = sorted(ratings, key=lambda r: (order[r.family], -r.rating, r.player.name.lower()))
        for r in rows:
            self.stdout.write(f"{r.family}\t{r.player.name}\t{r.rating:.2f}\t{r.hands}")
