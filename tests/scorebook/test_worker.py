"""The service worker as the server writes it (/sw.js, scorebook/views/worker.py): the pages a
phone keeps offline come from their URL names, a changed list is a new version of the worker,
and the outbox's status words have one home (scorebook/outbox.py) that the page's scripts and
the worker both read, so that no script spells a word of its own."""

from __future__ import annotations

import ast
import html
import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.test import override_settings
from django.urls import reverse

from scorebook.views import worker

STATIC = Path(settings.BASE_DIR) / "static" / "scorebook"
SCRIPTS = sorted([STATIC / "sw.js", STATIC / "offline.js", *(STATIC / "outbox").glob("*.js")])
# The words the server answers the outbox with: kept with each hand on phones, so a change to
# one is deliberate (the hands kept before it keep the old word).
STATUS_WORDS = {
    "RECORDED": "recorded",
    "INVALID": "invalid",
    "CLOSED": "closed",
    "DIFFERS": "differs",
    "DUPLICATE": "duplicate",
    "CONFLICT": "conflict",
    "LOGIN": "login",
    "CSRF": "csrf",
    "OTHER_USER": "other-user",
}
KEPT_PATTERNS = [
    "^/$",
    "^/c/([-a-zA-Z0-9_]+)/$",
    "^/c/([-a-zA-Z0-9_]+)/sessions/([0-9]+)/sheet/$",
    "^/c/([-a-zA-Z0-9_]+)/sessions/([0-9]+)/hands/new/$",
    "^/c/([-a-zA-Z0-9_]+)/league/standings/$",
    "^/c/([-a-zA-Z0-9_]+)/league/players/([0-9]+)/$",
    "^/c/([-a-zA-Z0-9_]+)/sessions/([0-9]+)/settlement/$",
]


def written(client) -> dict:
    """What /sw.js was written with: the object between `self.ScorebookServer = ` and `;`."""
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    script = answer.content.decode()
    found = re.search(r"^self\.ScorebookServer = (\{.*?^\});$", script, re.S | re.M)
    return json.loads(found.group(1))


def kept(told: dict, path: str) -> bool:
    # Read by Python's `re`, which reads the syntax the server writes as JavaScript does.
    return any(re.search(pattern, path) for pattern in told["keptPages"])


# --- The pages kept offline -------------------------------------------------------------------


def test_the_pages_kept_offline_are_written_from_their_url_names(client):
    told = written(client)
    assert told["keptPages"] == KEPT_PATTERNS
    assert told["offline"] == "/offline/"
    assert told["scripts"] == [
        "/static/scorebook/outbox/store.js",
        "/static/scorebook/outbox/sender.js",
    ]


@pytest.mark.parametrize(
    "name,kwargs,is_kept",
    [
        ("scorebook:my_clubs", {}, True),
        ("scorebook:club_home", {"club": "ljubljana-tarok"}, True),
        ("scorebook:sheet", {"club": "demo", "session": 12}, True),
        ("scorebook:hand_new", {"club": "demo", "session": 12}, True),
        ("scorebook:league:standings", {"club": "demo"}, True),
        ("scorebook:league:player", {"club": "demo", "player": 3}, True),
        ("scorebook:session_settlement", {"club": "demo", "session": 12}, True),
        # Pages that need the connection: the worker shows the offline page for them.
        ("scorebook:hand_edit", {"club": "demo", "session": 12, "number": 4}, False),
        ("scorebook:hand_preview", {"club": "demo", "session": 12}, False),
        ("scorebook:session", {"club": "demo", "session": 12}, False),
        ("scorebook:roster", {"club": "demo"}, False),
        ("scorebook:league:ledger", {"club": "demo"}, False),
        ("offline", {}, False),
    ],
)
def test_the_worker_keeps_exactly_the_listed_pages(name, kwargs, is_kept, client):
    assert kept(written(client), reverse(name, kwargs=kwargs)) is is_kept


@override_settings(ROOT_URLCONF="tests.scorebook.moved_urls")
def test_a_page_moved_in_urls_py_is_kept_at_its_new_address(client):
    told = written(client)
    assert kept(told, "/club/demo/evening/12/")  # the sheet
    assert kept(told, "/club/demo/evening/12/hand/")  # its hand form
    assert kept(told, "/club/demo/season/people/3/")  # a player of the league
    assert not kept(told, "/c/demo/sessions/12/sheet/")  # where the sheet was
    assert told["offline"] == "/no-signal/"


def test_a_page_added_to_the_list_is_kept_and_the_version_changes(client, monkeypatch):
    before = written(client)
    assert not kept(before, "/c/demo/roster/")
    monkeypatch.setattr(worker, "KEPT_PAGES", (*worker.KEPT_PAGES, "scorebook:roster"))
    after = written(client)
    assert after["keptPages"] == [*KEPT_PATTERNS, "^/c/([-a-zA-Z0-9_]+)/roster/$"]
    assert kept(after, "/c/demo/roster/")
    assert after["version"] != before["version"]


def test_a_url_name_that_no_longer_exists_is_not_dropped_silently(monkeypatch):
    monkeypatch.setattr(worker, "KEPT_PAGES", (*worker.KEPT_PAGES, "scorebook:session_sheet"))
    with pytest.raises(ImproperlyConfigured, match="scorebook:session_sheet"):
        worker.worker_settings()


# --- The version of the worker's caches -------------------------------------------------------


def test_the_version_is_the_same_until_something_it_is_made_of_changes(client, monkeypatch):
    version = written(client)["version"]
    assert re.fullmatch(r"[0-9a-f]{16}", version)
    assert written(client)["version"] == version  # one worker for one deploy

    with override_settings(ROOT_URLCONF="tests.scorebook.moved_urls"):
        assert written(client)["version"] != version

    source = worker._source

    def store_changed(path):
        return source(path) + ("\n// changed" if path.endswith("store.js") else "")

    monkeypatch.setattr(worker, "_source", store_changed)
    assert written(client)["version"] != version


# --- The outbox's status words: one home ----------------------------------------------------


def test_the_page_and_the_worker_are_given_the_same_status_words(client):
    page = client.get(reverse("login")).content.decode()
    [tag] = re.findall(r'<script src="/static/scorebook/outbox/sender\.js"[^>]*>', page)
    in_page = json.loads(html.unescape(re.search(r'data-status="([^"]*)"', tag).group(1)))
    assert in_page == STATUS_WORDS
    assert written(client)["status"] == STATUS_WORDS


def string_literals(script: str) -> set[str]:
    """Every quoted string of a script ('…', "…" or `…`), comments' quotes included."""
    return {match[1] for match in re.findall(r"""(["'`])((?:\\.|(?!\1)[^\\\n])*)\1""", script)}


def outbox_words() -> set[str]:
    """The sentences the outbox says, in English: the data attributes of _outbox.html."""
    template = Path(settings.BASE_DIR) / "templates" / "scorebook" / "_outbox.html"
    return set(re.findall(r"\{% translate '([^']+)' %\}", template.read_text(encoding="utf-8")))


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.name)
def test_no_script_spells_a_status_word_or_a_sentence_of_the_outbox(script):
    literals = string_literals(script.read_text(encoding="utf-8"))
    assert literals & set(STATUS_WORDS.values()) == set()
    assert literals & outbox_words() == set()


def test_the_outbox_sentences_are_found_in_their_template():
    """What the test above looks for is there to find: an empty list would pass it."""
    words = outbox_words()
    assert "Saved on this phone — waiting to be sent." in words
    assert "Record it again" in words


def test_the_views_answer_the_outbox_with_the_words_of_its_one_home():
    views = Path(settings.BASE_DIR) / "scorebook" / "views"
    spelled = [
        f"{path.name}:{node.lineno} {node.value!r}"
        for path in sorted(views.glob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant) and node.value in STATUS_WORDS.values()
    ]
    assert spelled == []
