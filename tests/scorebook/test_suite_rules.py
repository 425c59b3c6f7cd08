"""How the suite runs: a bare skip fails the run under pytest-xdist as without it, a browser
test is marked e2e (`make test-fast` leaves those out), each worker has a test database of its
own, and no script of ours reads the screen's size (which lets tests/e2e/test_every_page.py
resize a page instead of loading it again)."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

A_PASS_AND_A_SKIP = """import pytest


def test_passes():
    pass


def test_skips():
    pytest.skip({reason!r})
"""


def run_pytest(folder: Path, *args: str) -> subprocess.CompletedProcess:
    # Nothing of this run's own (its options, its worker's name, its Django settings), and of
    # the plugins installed only xdist, which the workers load too: a quicker start.
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("PYTEST_") and k != "DJANGO_SETTINGS_MODULE"
    }
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "xdist.plugin", "-p", "no:cacheprovider", *args],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


@pytest.mark.parametrize(
    "workers", [["-n", "2"], ["-p", "no:xdist"]], ids=["two-workers", "one-process"]
)
@pytest.mark.parametrize(
    "reason, status",
    [("not today", 1), ("CI-ACCEPTED: the printer is away", 0)],
    ids=["bare-skip-fails", "accepted-skip-passes"],
)
def test_a_skip_fails_the_run_unless_accepted_with_or_without_workers(
    tmp_path, workers, reason, status
):
    # The suite's own conftest, as it is: the rule under test is the one the suite runs by.
    shutil.copy(ROOT / "tests" / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "test_tiny.py").write_text(A_PASS_AND_A_SKIP.format(reason=reason))
    result = run_pytest(tmp_path, *workers, "test_tiny.py")
    out = result.stdout
    assert result.returncode == status, out + result.stderr
    if status:
        assert "FAILED: 1 test(s) skipped without a 'CI-ACCEPTED:' reason" in out
        # A worker's report of the skip reads "Skipped: not today"; the rule reads it all the same.
        assert re.search(r"test_tiny\.py::test_skips: (Skipped: )?not today", out), out
    else:
        assert "skipped without" not in out
    # Pytest's own closing line, workers or not.
    assert re.search(r"=+ 1 passed, 1 skipped in [\d.]+s", out.splitlines()[-1]), out
    if workers[0] == "-n":
        assert "2 workers" in out


A_BROWSER_TEST = """import pytest


@pytest.fixture
def browser():
    return "chromium"


{mark}def test_drives_a_browser(browser):
    pass
"""


@pytest.mark.parametrize(
    "mark, status", [("", 4), ("@pytest.mark.e2e\n", 0)], ids=["unmarked", "e2e"]
)
def test_a_browser_test_must_be_marked_e2e_for_test_fast_to_leave_it_out(tmp_path, mark, status):
    shutil.copy(ROOT / "tests" / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "pytest.ini").write_text("[pytest]\nmarkers = e2e\n")
    (tmp_path / "test_tiny.py").write_text(A_BROWSER_TEST.format(mark=mark))
    result = run_pytest(tmp_path, "test_tiny.py")
    assert result.returncode == status, result.stdout + result.stderr
    if status:
        assert "A browser test must be marked e2e" in result.stderr
        assert "test_tiny.py::test_drives_a_browser" in result.stderr


def test_each_xdist_worker_has_a_test_database_of_its_own(db):
    from django.db import connection

    name = str(connection.settings_dict["NAME"])
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker:
        # pytest-django adds the worker's name, to a PostgreSQL name as to SQLite's file.
        assert name.endswith(f"_{worker}"), name
    else:
        assert not re.search(r"_gw\d+$", name), name


# What a page's script would read to know the screen's size, at load or later.
READS_SIZE = re.compile(
    r"innerWidth|innerHeight|outerWidth|outerHeight|clientWidth|clientHeight|offsetWidth"
    r"|offsetHeight|getBoundingClientRect|matchMedia|visualViewport|screen\.|orientation"
    r"|ResizeObserver|IntersectionObserver|devicePixelRatio"
)


def test_no_script_of_ours_reads_the_screen_size():
    """test_every_page measures a page at 360 px, resizes it to 412 and measures again without
    loading it anew: a script that read the size as the page loaded would be measured at the
    wrong one. htmx's `revealed` and `intersect` triggers do, and test_every_page loads a page
    with one again at each size; a script of ours that needs the size must be added there too."""
    scripts = sorted((ROOT / "static" / "scorebook").glob("*.js"))
    assert scripts
    readers = {
        script.name: sorted(set(READS_SIZE.findall(script.read_text(encoding="utf-8"))))
        for script in scripts
    }
    assert {name: found for name, found in readers.items() if found} == {}
