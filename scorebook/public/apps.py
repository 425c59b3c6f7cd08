from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PublicConfig(AppConfig):
    name = "scorebook.public"
    label = "public"
    verbose_name = _("Public pages")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from scorebook.public import signals  # noqa: F401  moves each club's stamp on
