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

.PHONY: help install run seed-demo test bench lint clean

help:
	@echo "make run    start the app on $(URL)/ (SQLite, in-process live updates, eager Celery)"
	@echo "make test   install what is needed and run the whole test suite"
	@echo "make bench  run the benchmarks in tests/benchmarks/"
	@echo "make lint   ruff and mypy"
	@echo "make clean  remove the venv, caches and collected static files (keeps db.sqlite3)"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(INSTALLED): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --quiet -e '.[dev]'
	@touch $@

install: $(INSTALLED)

# Collect static files again only when something under static/ changed.
staticfiles/.collected: $(shell find static -type f 2>/dev/null) | $(INSTALLED)
	$(BIN)/python manage.py collectstatic --noinput -v 0
	@touch $@

run: $(INSTALLED) staticfiles/.collected
	$(BIN)/python manage.py migrate --noinput -v 0
	@$(MAKE) --no-print-directory seed-demo
	@echo
	@echo "  Dust Devils is starting. Open $(URL)/ and log in at $(URL)/accounts/login/"
	@echo "  (Ctrl-C stops it.)"
	@echo
	exec $(BIN)/uvicorn dustdevils.asgi:application --host $(HOST) --port $(PORT) --lifespan off

# Hook for the demo data step: once `manage.py seed_demo` exists, `make run` calls it (it must
# be idempotent). Until then this only says how to make an account. PORT is passed on so the
# printed login URL matches `make run PORT=9000` too (make does not export its variables).
seed-demo: $(INSTALLED)
	@if $(BIN)/python manage.py help seed_demo >/dev/null 2>&1; then \
		PORT=$(PORT) $(BIN)/python manage.py seed_demo; \
	else \
		echo "  No demo accounts yet: make one with $(BIN)/python manage.py createsuperuser"; \
	fi

test: $(INSTALLED)
	$(BIN)/pytest $(PYTEST_ARGS)

bench: $(INSTALLED)
	$(BIN)/python -m tests.benchmarks $(BENCH)

lint: $(INSTALLED)
	$(BIN)/ruff check .
	$(BIN)/mypy

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .mypy_cache .ruff_cache .hypothesis tests/e2e/artifacts *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
