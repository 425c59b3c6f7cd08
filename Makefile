# Two commands: `make run` and `make test`. Everything else is a helper for them.
PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
PIP_QUIET := --quiet --disable-pip-version-check

.PHONY: run test lint demo clean

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

run: $(VENV)/.install-run
	DEBUG=1 $(PY) manage.py migrate --noinput
	DEBUG=1 $(PY) manage.py demo
	DEBUG=1 $(PY) manage.py runserver 127.0.0.1:8000

test: $(VENV)/.install-test
	$(PY) -m pytest

lint: $(VENV)/.install-test
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

clean:
	rm -rf $(VENV) staticfiles test-db.sqlite3*
