"""The service worker, served at /sw.js (issue 15): static/scorebook/sw.js with what only the
server knows written into it.

- The pages a phone keeps for a table without signal, named here by their URL names: the
  worker is given the regular expression of each one's path as urls.py has it now, so a page
  moved or renamed there is still kept (a name that no longer exists fails every page, and
  the tests).
- The outbox's store and sender, which the worker imports, under their names of this deploy
  (they carry a hash in production), and the outbox's status words (scorebook/outbox.py).
- The version of the worker's caches: a hash of all of the above and of the scripts' text.
  Any change to them changes the bytes of /sw.js, which is what makes a browser install the
  new worker; the new version makes it keep the app's files afresh.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from typing import Any

from django.contrib.staticfiles import finders
from django.core.exceptions import ImproperlyConfigured
from django.http import Http404, HttpResponse
from django.templatetags.static import static
from django.urls import URLResolver, get_resolver, reverse

from scorebook.outbox import status_words

WORKER = "scorebook/sw.js"
# What the worker imports: the outbox's store and sender, which it shares with the pages.
IMPORTS = ("scorebook/outbox/store.js", "scorebook/outbox/sender.js")
# Where the worker's script leaves room for what the server writes (an empty object before).
WRITTEN_HERE = "/* written by the server */ {}"

# Pages worth having without a connection: my clubs (where the installed app opens), a club's
# home, a sheet and its hand form; and what players look up at the table: the league's
# standings, a player's page, a session's settlement.
KEPT_PAGES = (
    "scorebook:my_clubs",
    "scorebook:club_home",
    "scorebook:sheet",
    "scorebook:hand_new",
    "scorebook:league:standings",
    "scorebook:league:player",
    "scorebook:session_settlement",
)


def service_worker(request):
    """The service worker, from the site's root so that it may control every page."""
    source = _source(WORKER)
    if source.count(WRITTEN_HERE) != 1:
        raise ImproperlyConfigured(f"{WORKER} must have one {WRITTEN_HERE!r} for the server")
    written = json.dumps(worker_settings(), indent=2, sort_keys=True)
    response = HttpResponse(
        source.replace(WRITTEN_HERE, written), content_type="text/javascript; charset=utf-8"
    )
    # A new version of the worker is picked up on the next visit, not a day later.
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


def worker_settings() -> dict[str, Any]:
    """What the worker is told: see the module's docstring."""
    told: dict[str, Any] = {
        "keptPages": kept_page_patterns(KEPT_PAGES),
        "offline": reverse("offline"),
        "scripts": [static(path) for path in IMPORTS],
        "status": status_words(),
    }
    texts = [_source(path) for path in (WORKER, *IMPORTS)]
    fingerprint = json.dumps([told, texts], sort_keys=True).encode()
    told["version"] = hashlib.sha256(fingerprint).hexdigest()[:16]
    return told


def kept_page_patterns(names) -> list[str]:
    """The path of each named page as a browser's RegExp reads it: "^/c/([-a-zA-Z0-9_]+)/$"."""
    found: dict[str, list[str]] = {}
    for name, regex in _paths(get_resolver().url_patterns):
        found.setdefault(name, []).append(regex)
    missing = [name for name in names if name not in found]
    if missing:
        raise ImproperlyConfigured(f"no URL named {', '.join(missing)} (KEPT_PAGES)")
    return [_for_browser(regex) for name in names for regex in found[name]]


def _paths(patterns, prefix: str = "", namespace: str = "") -> Iterator[tuple[str, str]]:
    """Every named URL pattern under `patterns`: its full name and the regular expression of
    its whole path, the includes' prefixes joined as Django's resolver joins them."""
    for pattern in patterns:
        regex = prefix + pattern.pattern.regex.pattern.removeprefix("^")
        if isinstance(pattern, URLResolver):
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            yield from _paths(pattern.url_patterns, regex, inner)
        elif pattern.name:
            yield namespace + pattern.name, regex


def _for_browser(regex: str) -> str:
    """A path's regular expression, as Python's `re` has it, in the syntax JavaScript shares
    (and Python's `re` still reads): its groups unnamed, its end `$`, rooted at "/"."""
    shared = re.sub(r"\(\?P<\w+>", "(", regex)
    if shared.endswith(r"\Z"):
        shared = shared.removesuffix(r"\Z") + "$"
    if "(?P" in shared or "\\A" in shared or "\\Z" in shared:
        raise ImproperlyConfigured(f"a kept page's path {regex!r} has no browser syntax")
    return "^/" + shared


def _source(path: str) -> str:
    found = finders.find(path)
    if found is None:
        raise Http404
    with open(found, encoding="utf-8") as source:
        return source.read()
