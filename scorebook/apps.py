from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScorebookConfig(AppConfig):
    name = "scorebook"
    verbose_name = _("Scorebook")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from django.contrib.auth.signals import user_logged_in
        from django.core.signals import request_finished
        from django.utils import translation

        from rules import words

        # The engine says its words (lines, notes, problems) in the reader's language.
        words.use_language_source(translation.get_language)

        from scorebook import accounts, context_processors, language

        accounts.register_checks()

        user_logged_in.connect(
            language.keep_the_cookies_choice, dispatch_uid="scorebook.language.login"
        )
        user_logged_in.connect(
            context_processors.fix_login_expiry, dispatch_uid="scorebook.login_expiry"
        )
        request_finished.connect(
            language.forget_the_pages_language, dispatch_uid="scorebook.language.finished"
        )
