"""Settings for the test suite: production settings with the test-only differences below."""

import os
import tempfile
from pathlib import Path

os.environ.setdefault("SECRET_KEY", "test-secret-key-not-for-production-" + "x" * 30)
os.environ["SCOREBOOK_TESTING"] = "1"

from scorebook.settings import *  # noqa: E402,F403

# Plain http in tests: the live server and the test client do not speak TLS.
SECURE_SSL_REDIRECT = False
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
SECURE_HSTS_SECONDS = 0
ALLOWED_HOSTS = ["*"]
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
# The lock-out test switches axes on for itself.
AXES_ENABLED = False
# Static files straight from the finders: no collectstatic before a test run.
STATIC_ROOT = None
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
# The demo command keeps its admin's password in a file: a test process's (each xdist worker is
# one) goes to a folder made for it and removed as it ends. A file named by the process id, in
# the shared temporary folder, outlived the run, for a later process given that id to find.
_DEMO_LOGIN_DIR = tempfile.TemporaryDirectory(prefix="scorebook-demo-login-")
DEMO_LOGIN_FILE = Path(_DEMO_LOGIN_DIR.name) / "demo-login"
