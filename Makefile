# Dust Devils table. GNU make; `make help` lists the targets.

SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Re-install only when pyproject.toml changes (or the venv is new).
INSTALLED := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
URL := http://$(HOST):$(PORT)
# The proxies whose X-Forwarded-For uvicorn (and the login lockout, settings.py) believes:
# comma-separated addresses or networks. None by default: `make run` faces the browser itself,
# and a forged header must not change who the client is.
FORWARDED_ALLOW_IPS ?=
export FORWARDED_ALLOW_IPS

.PHONY: help install messages run seed-demo test bench lint clean

help:
	@echo "make run    start the app on $(URL)/ (SQLite, in-process live updates, eager Celery)"
	@echo "make test   install what is needed and run the whole test suite"
	@echo "make bench  run the benchmarks in tests/benchmarks/"
	@echo "make lint   ruff and mypy"
	@echo "make clean  remove the venv, caches and collected static files (keeps db.sqlite3)"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# --no-compile: pip would compile every file of every package (a fresh venv's install: 15 CPU-s
# with it, 9 without); Python writes the bytecode of what is imported when it is first imported
# (unless PYTHONDONTWRITEBYTECODE is set: then each run compiles what it imports, ~1 CPU-s).
$(INSTALLED): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --quiet --no-compile -e '.[dev]'
	@touch $@

# The translations (locale/<language>/LC_MESSAGES/django.po, issue 39) compiled into the .mo
# files Django reads, each again only when its .po changed: with GNU gettext's msgfmt where it is
# installed, else with polib (dustdevils/catalogues.py). The .mo files are never committed.
PO_FILES := $(wildcard locale/*/LC_MESSAGES/*.po)
MO_FILES := $(PO_FILES:.po=.mo)
$(MO_FILES): %.mo: %.po | $(INSTALLED)
	$(BIN)/python -m dustdevils.catalogues
messages: $(MO_FILES)

install: $(INSTALLED) $(MO_FILES)

# Collect static files again only when something under static/ changed.
staticfiles/.collected: $(shell find static -type f 2>/dev/null) | $(INSTALLED)
	$(BIN)/python manage.py collectstatic --noinput -v 0
	@touch $@

run: $(INSTALLED) $(MO_FILES) staticfiles/.collected
	$(BIN)/python manage.py migrate --noinput -v 0
	@$(MAKE) --no-print-directory seed-demo
	@echo
	@echo "  Dust Devils is starting. Open $(URL)/ and log in at $(URL)/accounts/login/"
	@echo "  (Ctrl-C stops it.)"
	@echo
	exec $(BIN)/uvicorn dustdevils.asgi:application --host $(HOST) --port $(PORT) --lifespan off \
	  --forwarded-allow-ips '$(FORWARDED_ALLOW_IPS)'

# On a fresh database: a demo Dealer and four players seated in The Hanged Man, their random
# passwords printed once. Idempotent: on a database with users it says so and does nothing.
# PORT is passed on so the printed login URL matches `make run PORT=9000` too.
seed-demo: $(INSTALLED)
	@PORT=$(PORT) $(BIN)/python manage.py seed_demo

# The suite in parallel: pytest-xdist, one worker per core (PYTEST_WORKERS=0: one process), each
# with its own test database and Redis namespace (tests/settings.py), given whole files, longest
# first (tests/conftest.py). Property tests run at a tenth of their depth unless
# HYPOTHESIS_PROFILE=ci (CI's; docs/testing.md). Without DATABASE_URL, REDIS_URL and E2E=1 the
# tests of those services skip; .ci/run is the deep run (all of them, CI's depth). pytest's exit
# code 5 (no test ran) fails, saying so.
PYTEST_WORKERS ?= auto
HYPOTHESIS_SHOWN = $(or $(HYPOTHESIS_PROFILE),$(if $(filter-out 0 false False no,$(CI)),ci,dev))
test: $(INSTALLED) $(MO_FILES)
	@echo "make test: pytest -n $(PYTEST_WORKERS); Hypothesis profile $(HYPOTHESIS_SHOWN)$(if $(filter dev,$(HYPOTHESIS_SHOWN)), (HYPOTHESIS_PROFILE=ci make test runs the property tests as deep as CI))"
	@echo "make test: the deep run (PostgreSQL, Redis, Chromium, nginx, Hypothesis at CI depth) is .ci/run (docs/testing.md)"
	@status=0; $(BIN)/pytest -n $(PYTEST_WORKERS) --dist loadfile --no-loadscope-reorder $(PYTEST_ARGS) || status=$$?; \
	  if [ $$status -eq 5 ]; then echo "make test: no test ran (pytest exit code 5)" >&2; fi; \
	  exit $$status

bench: $(INSTALLED)
	$(BIN)/python -m tests.benchmarks $(BENCH)

lint: $(INSTALLED)
	$(BIN)/ruff check .
	$(BIN)/mypy

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .mypy_cache .ruff_cache .hypothesis tests/e2e/artifacts *.egg-info $(MO_FILES)
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
