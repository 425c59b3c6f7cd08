"""gunicorn's settings for Scorebook: `gunicorn -c gunicorn.conf.py scorebook.wsgi`.

Each value can be changed from the environment (PORT, WEB_CONCURRENCY, GUNICORN_TIMEOUT).
"""

import multiprocessing
import os

bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
# Saving a hand waits on the database, not the CPU: two workers a core, and one more.
workers = int(os.environ.get("WEB_CONCURRENCY", 2 * multiprocessing.cpu_count() + 1))
# Long enough for the largest import (1,000 hands score in about a second); a request that
# takes longer is stuck, and its worker is restarted.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
# Connections reused by the phones' polls of the sheet (every 5 seconds).
keepalive = 10
accesslog = "-"
# Behind a TLS proxy (BEHIND_PROXY), trust its forwarded headers only from these addresses.
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
