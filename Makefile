# Two commands matter: `make run` and `make test`. Everything else serves them.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST := $(BIN)/python -m pytest

.PHONY: run test test-fast smoke test-browser test-postgres test-scale lint system-deps gettext messages compile-messages benchmark benchmark-scale benchmark-evening clean screenshots lock

# What runs is what was tested: the exact versions in requirements.lock.
$(BIN)/.installed: pyproject.toml requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -r requirements.lock
	touch $@

# requirements.lock again from pyproject.toml's ranges, each at its newest version, with
# pip-tools from a throwaway venv. Then `make test`; tests/server/test_pins.py names what
# to re-check in blades/server for each upgraded package the server leans on.
lock:
	tools=$$(mktemp -d) && $(PYTHON) -m venv $$tools \
	  && $$tools/bin/pip install --quiet pip-tools \
	  && $$tools/bin/pip-compile --quiet --upgrade --extra test --strip-extras \
	    --no-emit-index-url --no-emit-find-links --output-file requirements.lock pyproject.toml; \
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
	      $(SUDO) apt-get install -y -qq gettext >/dev/null)

run: $(BIN)/.installed .secret_key compile-messages
	SECRET_KEY="$$(cat .secret_key)" $(BIN)/python manage.py migrate --no-input
	SECRET_KEY="$$(cat .secret_key)" $(BIN)/python manage.py demo
	@echo "Serving Blades Table on http://$(HOST):$(PORT)/"
	SECRET_KEY="$$(cat .secret_key)" $(BIN)/daphne -b $(HOST) -p $(PORT) \
	  --websocket_connect_timeout 30 blades.serve:application

# Debian's Chromium for the browser tests; PostgreSQL and Redis for the scale tests;
# gettext for the translations.
system-deps:
	@command -v chromium >/dev/null && command -v redis-server >/dev/null \
	  && command -v msgfmt >/dev/null && ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 \
	  || ($(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	      $(SUDO) apt-get install -y -qq chromium postgresql redis-server gettext >/dev/null)

test: $(BIN)/.installed system-deps
	$(MAKE) lint
	$(MAKE) test-fast
	$(MAKE) smoke
	$(MAKE) test-postgres
	$(MAKE) test-browser
	$(MAKE) test-scale

# Rules, actions, views and consumers on the embedded default (SQLite, in-memory layer).
test-fast: $(BIN)/.installed compile-messages
	$(PYTEST) tests --ignore=tests/browser --ignore=tests/scale

# `make run` as a newcomer types it, then a login as the demo GM: slow, and it writes
# into the checkout (.secret_key), so it is not part of the fast suite.
smoke: $(BIN)/.installed compile-messages
	$(PYTEST) tests/smoke -m smoke

# The same database-backed tests once more on PostgreSQL with Redis as the channel layer.
test-postgres: $(BIN)/.installed system-deps compile-messages
	$(BIN)/python -m tests.services -- $(PYTEST) tests --ignore=tests/browser --ignore=tests/scale --ignore=tests/rules

# Browser tests run in their own process: Playwright's event loop breaks pytest-asyncio after it.
# They and the scale tests keep their written order (each test is long; no shuffling).
test-browser: $(BIN)/.installed system-deps compile-messages
	$(PYTEST) tests/browser -p no:randomly

# PNGs of the main pages of a seeded demo table (GM and player, 1280 and 390 px wide).
screenshots: $(BIN)/.installed system-deps compile-messages
	$(PYTEST) tests/browser/screenshots.py

test-scale: $(BIN)/.installed system-deps compile-messages
	$(BIN)/python -m tests.services -- $(PYTEST) tests/scale -p no:randomly

# The load benchmark (tests/bench/loadtest.py): the app against bare Channels in one run,
# 4-6 minutes; its last line is a JSON object. A quick look:
# make benchmark ARGS="--tables 10 --seconds 3 --storms 1 --saturation-seconds 2"
benchmark: $(BIN)/.installed compile-messages
	$(BIN)/python -m tests.bench.loadtest $(ARGS)

# The same on two daphne processes, throwaway PostgreSQL and Redis.
benchmark-scale: $(BIN)/.installed system-deps compile-messages
	$(BIN)/python -m tests.bench.loadtest --processes 2 $(ARGS)

# The evening benchmark (tests/bench/evening.py): tables played step by step at a real
# table's pace, against bare Channels replaying the same frames; its last line is JSON.
# Compressed: make benchmark-evening ARGS="--tables 10 --pace 20 --seconds 60"
benchmark-evening: $(BIN)/.installed system-deps compile-messages
	$(BIN)/python -m tests.bench.evening $(ARGS)

lint: $(BIN)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	SECRET_KEY=lint $(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/lint-imports

clean:
	rm -rf $(VENV) staticfiles .test-db.sqlite3* locale/*/LC_MESSAGES/*.mo
