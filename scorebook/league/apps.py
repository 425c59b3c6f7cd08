from django.apps import AppConfig


class LeagueConfig(AppConfig):
    name = "scorebook.league"
    label = "league"
    verbose_name = "League"

    def ready(self) -> None:
        from scorebook.league import signals  # noqa: F401  connects its receivers
