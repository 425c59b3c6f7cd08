"""Scorebook settings: every value comes from an environment variable with a laptop-safe default.

See README.md ("Configuration") for the list.
"""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. Set the SECRET_KEY environment variable to a long random "
            "string (50+ characters), or set DEBUG=1 for local development."
        )
    # Only ever used with DEBUG on, on a developer's laptop.
    SECRET_KEY = "insecure-development-key-do-not-use-in-production-0123456789"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "csp",
    "axes",
    "simple_history",
    "scorebook",
    "scorebook.tournaments",
    "scorebook.league",
    # After tournaments: its receiver of hands_changed finishes a table before ours reads it.
    "scorebook.series",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Pages compressed (a sheet is 50 KB of HTML); static files come compressed from whitenoise.
    "django.middleware.gzip.GZipMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # Django's LocaleMiddleware, with the club's language between the person's and the browser's.
    "scorebook.language.LanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    # axes wants to be last.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "scorebook.urls"
WSGI_APPLICATION = "scorebook.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "csp.context_processors.nonce",
                "scorebook.context_processors.club",
                "scorebook.context_processors.user_key",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------
# SQLite by default. Writers are serialised by BEGIN IMMEDIATE and wait (timeout) instead of
# failing with "database is locked"; WAL lets readers go on while one writes.
SQLITE_OPTIONS = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": ("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;"),
}

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        # Kept open between requests: opening a PostgreSQL connection costs as much as a save.
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {}).update(SQLITE_OPTIONS)
    # Tests that write from several threads need a real file, not an in-memory database.
    DATABASES["default"]["TEST"] = {
        "NAME": os.environ.get("TEST_SQLITE_PATH", str(BASE_DIR / "test-db.sqlite3"))
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Auth -----------------------------------------------------------------------------------
AUTHENTICATION_BACKENDS = [
    # axes first, so a locked-out login never reaches the password check.
    "axes.backends.AxesStandaloneBackend",
    "scorebook.login.AddressThrottleBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "scorebook:my_clubs"
LOGOUT_REDIRECT_URL = "login"

# django-axes: lock one username from one address, never a whole club's Wi-Fi, and not forever.
AXES_ENABLED = env_bool("AXES_ENABLED", True)
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_COOLOFF_TIME = timedelta(minutes=15)
# A refused login during a lockout does not restart it: the lockout page's "15 minutes" holds.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
# Failures from one address over all usernames (scorebook.login.AddressThrottleBackend): higher,
# because a club's phones may share one address.
AXES_ADDRESS_FAILURE_LIMIT = int(os.environ.get("AXES_ADDRESS_FAILURE_LIMIT", "30"))


def client_address_settings(behind_proxy: bool, proxy_count: int) -> dict:
    """How axes (through django-ipware) finds the client's address.

    Behind `proxy_count` trusted proxies the client is the address the nearest of them put in
    X-Forwarded-For, counted from the right: whatever a client wrote to the left of it is
    ignored. ipware counts only the proxies named in the header, not the nearest one (which is
    REMOTE_ADDR), hence the - 1; not strict, so a forged longer chain still resolves. Without a
    proxy the header is not read at all: anybody could write it.
    """
    if not behind_proxy:
        return {"AXES_IPWARE_META_PRECEDENCE_ORDER": ("REMOTE_ADDR",)}
    if proxy_count < 1:
        raise ImproperlyConfigured("PROXY_COUNT must be 1 or more when BEHIND_PROXY is set.")
    return {
        "AXES_IPWARE_META_PRECEDENCE_ORDER": ("HTTP_X_FORWARDED_FOR", "REMOTE_ADDR"),
        "AXES_IPWARE_PROXY_COUNT": proxy_count - 1,
        "IPWARE_STRICT": False,
    }


BEHIND_PROXY = env_bool("BEHIND_PROXY", False)
# Through a function so that the tests can apply the settings of a proxy they simulate.
globals().update(client_address_settings(BEHIND_PROXY, int(os.environ.get("PROXY_COUNT", "1"))))

# --- Internationalisation ---------------------------------------------------------------
LANGUAGE_CODE = "en"
# Each named in its own tongue, untranslated: a reader looks for the name he reads.
LANGUAGES = [
    ("sl", "Slovenščina"),
    ("cs", "Čeština"),
    ("de", "Deutsch"),
    ("fr", "Français"),
    ("en", "English"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Ljubljana")
USE_I18N = True
USE_TZ = True
# Dates and numbers as each language writes them (one date format per language); thousands
# stay ungrouped on pages.
FORMAT_MODULE_PATH = ["scorebook.formats"]

# --- Static files ---------------------------------------------------------------------------
STATIC_URL = "static/"
# collectstatic gathers files here for production; with DEBUG on whitenoise reads the finders.
STATIC_ROOT = os.environ.get("STATIC_ROOT") or (None if DEBUG else BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
_TESTING = env_bool("SCOREBOOK_TESTING", False)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG or _TESTING
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# --- Email ----------------------------------------------------------------------------------
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "scorebook@localhost")
SERVER_EMAIL = os.environ.get("SERVER_EMAIL", DEFAULT_FROM_EMAIL)

# --- Security -------------------------------------------------------------------------------
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "font-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
# An expired token keeps the hand typed into the form (issue 15), and the outbox reads JSON.
CSRF_FAILURE_VIEW = "scorebook.views.offline.csrf_failure"
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(60 * 60 * 24 * 365)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    if BEHIND_PROXY:
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
