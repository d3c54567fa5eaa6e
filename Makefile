# Admiralty — the two commands of the README, plus the pieces they are made of.
SHELL := /bin/bash
PY := .venv/bin/python
REQUIREMENTS_HASH := $(shell cat requirements.txt requirements-dev.txt | sha1sum | cut -c1-12)
VENV_STAMP := .venv/.installed-$(REQUIREMENTS_HASH)
TEST_ENV := DJANGO_SETTINGS_MODULE=config.settings.test
# This machine's environment sets PYTHONDONTWRITEBYTECODE: every process then compiles our modules
# again, and pytest rewrites the asserts of the test modules and its plugins' packages (550 modules)
# in every xdist process — 11.5 s of CPU per collection instead of 5.2 s once cached.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run test checks lint typecheck contracts layout schema migrations-check pytest bench services venv clean

## A fresh clone links .venv to a virtualenv shared by this machine's clones (scripts/venv_ensure.sh).
$(VENV_STAMP): requirements.txt requirements-dev.txt
	@bash scripts/venv_ensure.sh $(REQUIREMENTS_HASH)

venv: $(VENV_STAMP)

## make run — migrate, load the demo campaign once, create demo accounts, serve with worker and beat.
run: venv
	@bash scripts/run_dev.sh

services:
	@bash scripts/ensure_services.sh

lint: venv
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

## mypy's cache is kept per user, not per checkout: its entries are checked by each file's hash, so a
## fresh clone (as CI's) reuses what any checkout on this machine already checked — 17 s -> 2 s.
MYPY_CACHE := $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/admiralty/mypy
typecheck: venv
	$(TEST_ENV) $(PY) -m mypy --cache-dir "$(MYPY_CACHE)" .

contracts: venv
	.venv/bin/lint-imports

## The layout's rules: modules of at most 500 lines, functions of at most 80, no name prefixed by a sibling's.
layout: venv
	$(PY) scripts/layout_check.py

schema: venv
	$(TEST_ENV) $(PY) manage.py spectacular --validate --fail-on-warn --file /dev/null

migrations-check: venv services
	$(TEST_ENV) $(PY) manage.py makemigrations --check --dry-run

## Three test processes on two cores: tests spend much of their time waiting on Celery workers,
## SMTP and Chromium. Each process has its own test database and Celery queue (config/settings/test.py).
## --maxschedchunk 2: xdist hands tests out two at a time. By default its first hand-out is a quarter
## of each process's share in one block, so the process that got the block of long tests (sorted
## first, tests/conftest.py) ran them all while the others finished early: 640 s instead of 330 s.
pytest: venv services
	$(TEST_ENV) $(PY) -m pytest -n $(or $(PYTEST_PROCESSES),3) --maxschedchunk 2

## The static checks, one after another (about 25 s of one core, most of it mypy).
checks: lint typecheck contracts layout schema migrations-check

## make test — everything CI runs. The checks run beside the tests rather than before them (the suite
## waits on workers, browsers and the database much of its time); each part's output is printed whole
## when it ends, and make test fails if either fails.
test: venv services
	@$(MAKE) --no-print-directory -j 2 --output-sync=target checks pytest

## make bench — speed and memory figures (ratios, medians, query counts).
bench: venv services
	$(TEST_ENV) $(PY) -m bench

clean:
	rm -rf var staticfiles .mypy_cache .ruff_cache .pytest_cache
