# Two commands matter: `make run` and `make test`. Everything else serves them.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST := $(BIN)/python -m pytest
# pytest-xdist workers for the long suites: one per core (each has a database of its own,
# and its servers on free ports).
WORKERS ?= auto
# Each stage ends with its slowest tests: where a stage's minutes go, read off every run.
DURATIONS ?= --durations=15

.PHONY: run run-group test test-fast smoke test-browser test-postgres test-scale lint system-deps gettext messages compile-messages benchmark benchmark-scale benchmark-evening clean screenshots lock

# What runs is what was tested: the exact versions in requirements.lock, the app's own
# packages only. The tests' tools (pytest, Playwright, ruff...) come on top from
# requirements-test.lock, which pins the same versions of everything the app runs on.
$(BIN)/.installed: pyproject.toml requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -r requirements.lock
	touch $@

$(BIN)/.installed-test: $(BIN)/.installed requirements-test.lock
	$(BIN)/pip install --quiet -r requirements-test.lock
	touch $@

# Both locks again from pyproject.toml's ranges, each package at its newest version, with
# pip-tools from a throwaway venv: the runtime first, then the test extras constrained by
# it, so the two agree on every package they share. Then `make test`;
# tests/server/test_pins.py names what to re-check in blades/server for each upgraded
# package the server leans on.
LOCK_OPTIONS := --quiet --upgrade --strip-extras --no-emit-index-url --no-emit-find-links
lock:
	tools=$$(mktemp -d) && $(PYTHON) -m venv $$tools \
	  && $$tools/bin/pip install --quiet pip-tools \
	  && $$tools/bin/pip-compile $(LOCK_OPTIONS) --output-file requirements.lock pyproject.toml \
	  && $$tools/bin/pip-compile $(LOCK_OPTIONS) --extra test --constraint requirements.lock \
	    --output-file requirements-test.lock pyproject.toml; \
	  status=$$?; rm -rf $$tools; exit $$status

.secret_key:
	$(BIN)/python -c "import secrets; print(secrets.token_urlsafe(50))" > $@

# The translations: `make messages` gathers the marked strings of the Python code and the
# templates into locale/<language>/LC_MESSAGES/django.po, for a translator to fill in;
# `make compile-messages` builds the .mo files Django reads. The .mo files are never
# committed (.gitignore): every target that serves or tests the app builds them first.
MESSAGE_LANGUAGES := es
LOCALE_IGNORE := --ignore=.venv --ignore=staticfiles --ignore=static --ignore=tests --ignore=build \
  --ignore=docs --ignore=README.md

messages: $(BIN)/.installed gettext
	SECRET_KEY=messages $(BIN)/python manage.py makemessages --no-obsolete --add-location file \
	  --extension html,txt,md,py $(LOCALE_IGNORE) $(addprefix -l ,$(MESSAGE_LANGUAGES))

compile-messages: $(BIN)/.installed gettext
	SECRET_KEY=messages $(BIN)/python manage.py compilemessages $(LOCALE_IGNORE)

# Django's compilemessages runs msgfmt, from Debian's gettext.
gettext:
	@command -v msgfmt >/dev/null \
	  || ($(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	      $(SUDO) apt-get install -y -qq --no-install-recommends gettext >/dev/null)

# `make run` serves this machine alone, on 127.0.0.1. `make run-group` serves a group on
# your network (the same as HOST=0.0.0.0, or HOST=<one of the machine's addresses>): it
# answers to the machine's addresses and names, and the invite links it hands out are
# made from the address friends reach (PUBLIC_URL, blades/group.py), with no demo player.
GROUP = $(filter-out 127.0.0.1 localhost ::1,$(HOST))
run: $(BIN)/.installed .secret_key compile-messages
	SECRET_KEY="$$(cat .secret_key)" $(BIN)/python manage.py migrate --no-input
	$(if $(GROUP),group="$$($(BIN)/python -m blades.group $(HOST) $(PORT))" && eval "$$group" &&) \
	  export SECRET_KEY="$$(cat .secret_key)" \
	  && $(BIN)/python manage.py demo $(if $(GROUP),--group) \
	  && echo "Serving Blades Table on $${PUBLIC_URL:-http://$(HOST):$(PORT)}/" \
	  && exec $(BIN)/daphne -b $(HOST) -p $(PORT) \
	    --websocket_connect_timeout 30 blades.serve:application

run-group:
	@$(MAKE) --no-print-directory run HOST=0.0.0.0

# Debian's Chromium for the browser tests, with the fonts it would recommend (only those:
# the other recommends pull in about a hundred packages); PostgreSQL and Redis for the
# scale tests; gettext for the translations.
system-deps:
	@command -v chromium >/dev/null && command -v redis-server >/dev/null \
	  && [ -d /usr/share/fonts/truetype/liberation ] \
	  && command -v msgfmt >/dev/null && ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 \
	  || ($(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	      $(SUDO) apt-get install -y -qq --no-install-recommends \
	        chromium fonts-liberation postgresql redis-server gettext >/dev/null)

# Each stage prints its wall time, and the whole run its total.
TEST_STAGES := lint test-fast smoke test-postgres test-browser test-scale
test: $(BIN)/.installed-test system-deps compile-messages
	@start=$$(date +%s); \
	for stage in $(TEST_STAGES); do \
	  began=$$(date +%s); \
	  $(MAKE) --no-print-directory $$stage || exit 1; \
	  echo "== $$stage: $$(( $$(date +%s) - began )) s"; \
	done; \
	echo "== make test: $$(( $$(date +%s) - start )) s after the install"

# Rules, actions, views and consumers on the embedded default (SQLite, in-memory layer).
test-fast: $(BIN)/.installed-test compile-messages
	$(PYTEST) tests --ignore=tests/browser --ignore=tests/scale -n $(WORKERS) --dist worksteal $(DURATIONS)

# `make run` as a newcomer types it, then a login as the demo GM: slow, and it writes
# into the checkout (.secret_key), so it is not part of the fast suite.
smoke: $(BIN)/.installed-test compile-messages
	$(PYTEST) tests/smoke -m smoke $(DURATIONS)

# The tests that reach the database or the channel layer (marked `database` by
# tests/conftest.py) once more, on PostgreSQL with Redis as the channel layer.
test-postgres: $(BIN)/.installed-test system-deps compile-messages
	$(BIN)/python -m tests.services -- $(PYTEST) tests --ignore=tests/browser --ignore=tests/scale \
	  -m "database and not smoke" -n $(WORKERS) --dist worksteal $(DURATIONS)

# Browser tests run in their own process: Playwright's event loop breaks pytest-asyncio after it.
# They and the scale tests are not shuffled (each test is long); the browser tests share
# both cores (each worker its own daphne and database), the scale tests run one by one.
test-browser: $(BIN)/.installed-test system-deps compile-messages
	$(PYTEST) tests/browser -p no:randomly -n $(WORKERS) --dist worksteal $(DURATIONS)

# PNGs of the main pages of a seeded demo table (GM and player, 1280 and 390 px wide).
screenshots: $(BIN)/.installed-test system-deps compile-messages
	$(PYTEST) tests/browser/screenshots.py

test-scale: $(BIN)/.installed-test system-deps compile-messages
	$(BIN)/python -m tests.services -- $(PYTEST) tests/scale -p no:randomly

# The load benchmark (tests/bench/loadtest.py): the app against bare Channels in one run,
# 4-6 minutes; its last line is a JSON object. A quick look:
# make benchmark ARGS="--tables 10 --seconds 3 --storms 1 --saturation-seconds 2"
benchmark: $(BIN)/.installed-test compile-messages
	$(BIN)/python -m tests.bench.loadtest $(ARGS)

# The same on two daphne processes, throwaway PostgreSQL and Redis.
benchmark-scale: $(BIN)/.installed-test system-deps compile-messages
	$(BIN)/python -m tests.bench.loadtest --processes 2 $(ARGS)

# The evening benchmark (tests/bench/evening.py): tables played step by step at a real
# table's pace, against bare Channels replaying the same frames; its last line is JSON.
# Compressed: make benchmark-evening ARGS="--tables 10 --pace 20 --seconds 60"
benchmark-evening: $(BIN)/.installed-test system-deps compile-messages
	$(BIN)/python -m tests.bench.evening $(ARGS)

lint: $(BIN)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	SECRET_KEY=lint $(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/lint-imports

clean:
	rm -rf $(VENV) staticfiles .test-db.sqlite3* locale/*/LC_MESSAGES/*.mo
