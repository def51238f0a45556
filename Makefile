# The two commands of the README, plus what they are made of.
#   make serve   create .venv, install Meja, run the server (embedded store)
#   make test    create .venv with the test extras, install system test services, run every test
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
ARGS   ?=
# Parallel test workers (pytest-xdist): most tests wait on sockets, subprocesses and bots'
# pauses, so more workers than cores pay; 0 runs a suite in one process.
JOBS         ?= 4
BROWSER_JOBS ?= 2

.PHONY: serve test test-core test-browser lint deps clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $@ $(VENV)/.installed

serve: $(VENV)/.installed
	$(BIN)/meja serve $(ARGS)

# System packages the tests use (redis-server; chromium for the browser tests),
# installed with apt-get only where they are missing.
deps:
	@bash tools/ensure-deps.sh

test: $(VENV)/.installed-test deps
	$(BIN)/python -m pytest -q -n $(JOBS) --dist worksteal tests --ignore=tests/browser $(ARGS)
	@if [ -d tests/browser ]; then $(BIN)/python -m pytest -q -n $(BROWSER_JOBS) --dist worksteal -p no:asyncio tests/browser $(ARGS); fi

# The page's JavaScript type check (TypeScript, a development tool only: the browser loads the
# plain modules, no build step); npm installs the pinned compiler into node_modules once.
node_modules/.installed: package.json package-lock.json
	@command -v npm >/dev/null 2>&1 || bash tools/ensure-deps.sh
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

lint: $(VENV)/.installed-test node_modules/.installed
	$(BIN)/ruff check server/
	$(BIN)/ruff format --check server/
	$(BIN)/mypy --strict server/meja
	node_modules/.bin/tsc -p jsconfig.json

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache node_modules
