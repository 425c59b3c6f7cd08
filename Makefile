# Two commands: `make run` and `make test`. Everything else is a helper for them; `make test-fast`
# is `make test` without the browser tests, in under a minute, for the loop between edits.
PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
PIP_QUIET := --quiet --disable-pip-version-check
PORT ?= 8000

.PHONY: run port-free demo demo-reset test test-fast lint messages css clean
# One step after another: `make run` checks the port before it installs or migrates anything.
.NOTPARALLEL:

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install $(PIP_QUIET) --upgrade pip

# Reinstall only when pyproject.toml changes (the stamp remembers the last install).
$(VENV)/.install-run: pyproject.toml | $(PY)
	$(PY) -m pip install $(PIP_QUIET) -e .
	touch $@

$(VENV)/.install-test: pyproject.toml | $(PY)
	$(PY) -m pip install $(PIP_QUIET) -e '.[test]'
	touch $@ $(VENV)/.install-run

# Serve the demo club at http://127.0.0.1:$(PORT) (`make run PORT=8001` for another port).
run: port-free $(VENV)/.install-run
	DEBUG=1 $(PY) manage.py migrate --noinput
	DEBUG=1 $(PY) manage.py demo --port $(PORT)
	DEBUG=1 $(PY) manage.py runserver 127.0.0.1:$(PORT)

# Is 127.0.0.1:$(PORT) free to serve on? One line and a failure if not. The python that makes
# the venv runs it, so it needs nothing installed. SO_REUSEADDR as runserver binds: a port
# left in TIME_WAIT by the last run counts as free, one that something listens on does not.
define PORT_FREE
import socket, sys
port = sys.argv[1]
if not port.isdigit() or not 0 < int(port) < 65536:
    sys.exit(f"PORT={port} is not a port: give a number from 1 to 65535.")
with socket.socket() as s:
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        s.bind(("127.0.0.1", int(port)))
    except OSError:
        sys.exit(f"Port {port} is in use on 127.0.0.1: stop what serves there, or run make run PORT={int(port) + 1}.")
endef
export PORT_FREE

port-free:
	@$(PYTHON) -c "$$PORT_FREE" '$(PORT)'

# Load the demo club (safe to run again) without serving; `demo-reset` gives its admin a new
# password (kept in .demo-login, which git ignores).
demo: $(VENV)/.install-run
	DEBUG=1 $(PY) manage.py migrate --noinput
	DEBUG=1 $(PY) manage.py demo --port $(PORT)

demo-reset: $(VENV)/.install-run
	DEBUG=1 $(PY) manage.py migrate --noinput
	DEBUG=1 $(PY) manage.py demo --reset --port $(PORT)

# The whole suite on every core (pytest-xdist: a worker each, with its own test database, live
# server and browser; a group of tests that share work stays on one worker), then the ten
# slowest tests. `.venv/bin/python -m pytest -p no:xdist` runs it in one process.
test: $(VENV)/.install-test
	$(PY) -m pytest -n auto --dist loadgroup --durations=10

# Everything but the browser tests (marked e2e): a minute at most, for the loop between edits.
# `make test` before a commit runs them too.
test-fast: $(VENV)/.install-test
	$(PY) -m pytest -n auto --dist loadgroup -m "not e2e"

lint: $(VENV)/.install-test
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# After changing a marked string: the catalogues take it (then translate it in each
# locale/*/LC_MESSAGES/django.po) and the compiled .mo files, which git keeps, follow.
# Needs GNU gettext (apt-get install gettext); running Scorebook does not.
messages: $(VENV)/.install-test
	DEBUG=1 $(PY) manage.py makemessages -l sl -l cs -l de -l fr --no-location --ignore '.venv/*' --ignore 'tests/*' --ignore 'bench/*'
	DEBUG=1 $(PY) manage.py compilemessages --ignore '.venv/*'

# After editing a stylesheet: join Pico and ours into static/scorebook/site.css, which git keeps
# (scorebook/stylesheet.py; a test fails while it differs from its parts).
css: $(VENV)/.install-run
	DEBUG=1 $(PY) manage.py stylesheet

clean:
	rm -rf $(VENV) staticfiles test-db.sqlite3*
