from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScorebookConfig(AppConfig):
    name = "scorebook"
    verbose_name = _("Scorebook")
    default_auto_field = "django.db.models.BigAutoField"
