from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SeriesConfig(AppConfig):
    name = "scorebook.series"
    label = "series"
    verbose_name = _("Series")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from scorebook.series import seeding, signals  # noqa: F401  connects its receiver

        seeding.register_orders()  # the draw may rank by the series (tournaments.orders)
