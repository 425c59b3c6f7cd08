"""`make run`'s start-up: the port check before anything changes, and the port it serves on."""

import os
import re
import socket
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def make(*args: str) -> subprocess.CompletedProcess:
    # As a newcomer types it, not as a sub-make of `make test` (which would say "make[1]").
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")}
    return subprocess.run(
        ["make", "--no-print-directory", "-s", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )


def own_lines(text: str) -> list[str]:
    """What the check said, without make's own report of a failed step."""
    return [line for line in text.splitlines() if not re.match(r"make(\[\d+\])?: \*\*\*", line)]


def test_a_port_in_use_fails_the_check_in_one_line():
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        result = make("port-free", f"PORT={port}")
    assert result.returncode != 0
    said = own_lines(result.stdout + result.stderr)
    assert len(said) == 1, said
    assert f"Port {port} is in use" in said[0] and f"PORT={port + 1}" in said[0]


def test_a_free_port_passes_the_check_silently():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = make("port-free", f"PORT={port}")
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_a_port_that_is_not_a_number_is_refused_in_one_line():
    result = make("port-free", "PORT=eighty")
    assert result.returncode != 0
    assert own_lines(result.stderr) == ["PORT=eighty is not a port: give a number from 1 to 65535."]


def test_run_checks_the_port_before_it_migrates_and_serves_on_it():
    steps = make("-n", "run", "PORT=8001").stdout.splitlines()
    check = next(i for i, step in enumerate(steps) if "PORT_FREE" in step)
    migrate = next(i for i, step in enumerate(steps) if "manage.py migrate" in step)
    assert check < migrate
    assert any("manage.py demo --port 8001" in step for step in steps)
    assert steps[-1].endswith("manage.py runserver 127.0.0.1:8001")
    assert not any("pip install" in step for step in steps[:check])


def test_demo_loads_without_serving_and_demo_reset_makes_a_new_password():
    demo = make("-n", "demo").stdout
    assert "manage.py demo" in demo and "runserver" not in demo
    assert "manage.py demo --reset" in make("-n", "demo-reset").stdout


def test_the_kept_login_is_ignored_by_git():
    assert "/.demo-login" in (ROOT / ".gitignore").read_text().splitlines()


def test_test_runs_the_whole_suite_on_every_core_and_names_the_slowest():
    header = (ROOT / "Makefile").read_text().splitlines()[:2]
    assert "`make run` and `make test`" in header[0]
    step = make("-n", "test").stdout.splitlines()[-1]
    assert step.endswith("-m pytest -n auto --dist loadgroup --durations=10"), step


def test_test_fast_runs_everything_but_the_browser_tests():
    assert any(
        "`make test-fast`" in line for line in (ROOT / "Makefile").read_text().splitlines()[:2]
    )
    step = make("-n", "test-fast").stdout.splitlines()[-1]
    assert step.endswith('-m pytest -n auto --dist loadgroup -m "not e2e"'), step
    # Browser tests are the ones marked e2e: tests/conftest.py refuses an unmarked one.
    assert "make test-fast" in (ROOT / "README.md").read_text()
