"""The database the Django benchmarks run on."""

import os
import tempfile


def setup_django() -> tempfile.TemporaryDirectory:
    """Start Django with the project's settings on DATABASE_URL, or, when it is not set, on a
    fresh SQLite file in a temporary folder, which lasts as long as the folder returned."""
    folder = tempfile.TemporaryDirectory()
    if not os.environ.get("DATABASE_URL"):
        os.environ["DATABASE_URL"] = f"sqlite:///{folder.name}/bench.sqlite3"
    os.environ.setdefault("DEBUG", "1")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorebook.settings")
    import django
    from django.conf import settings

    django.setup()
    # DEBUG=1 only lets the settings load without a secret key or collected static files;
    # off again, queries are not logged and templates not traced, as on a real server.
    settings.DEBUG = False
    return folder
