# Everything goes through a virtual environment in .venv, created on first use. Nothing here
# needs root: as root, missing Debian packages are installed (see `deps`); as anyone else,
# one line names them and the rest goes on.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# Debian packages the project uses beyond Python, each PACKAGE or PACKAGE:COMMAND (with a
# command, the package counts as present when the command is on PATH; without, when dpkg
# lists it). The C compiler is not one of them: without it the move generator runs from
# its source (see `compiled`). libcairo2: CairoSVG draws the PNG pictures with it;
# fonts-dejavu-core: the font every PDF embeds (both for the print extra, binscrabble.print).
# chromium: the browser tests (tests/test_web_browser.py), skipped, saying why, without it.
# librsvg2-bin: rsvg-convert, the second of the three renderers the board pictures are
# compared in (tests/test_svg_renderers.py, with CairoSVG and Chromium).
# postgresql: the server the storage and web API suites also run on (tests/postgres_server.py
# starts its own in a temporary folder); without it those tests fail saying how to get it.
# nginx: the load balancer in front of several server processes in their tests (docs/deploy.md).
DEBIAN_PACKAGES := libcairo2 fonts-dejavu-core chromium:chromium librsvg2-bin:rsvg-convert \
	postgresql nginx

.PHONY: play play-terminal test test-full test-pythons lint bench clean compiled deps dist fuzz messages

deps:
	@sh scripts/debian_packages.sh $(DEBIAN_PACKAGES)

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import ensurepip, venv' 2>/dev/null || sh scripts/debian_packages.sh python3-venv
	@$(PYTHON) -c 'import ensurepip, venv' 2>/dev/null || { echo "$(PYTHON) cannot create a virtual environment: install Debian's python3-venv (as root), or run make with PYTHON= an interpreter that has venv and ensurepip"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,print,web]'
	@# The cluster extra (Ray, for selfplay --cluster) only where Ray has a wheel for this Python.
	@$(BIN)/python -m pip install --quiet -e '.[cluster]' 2>/dev/null \
		|| echo "Ray could not be installed for this Python (no wheel for it, or no network): selfplay --cluster says how to get it"
	touch $(STAMP)

# The move generator compiled with mypyc (scripts/build_compiled.py; docs/movegen.md,
# "Compiled or source"): built when its source changed, about a minute. It needs a C compiler
# and the interpreter's headers; without them the same module runs from its source, slower,
# and one line says so.
HAVE_C_COMPILER = { command -v "$${CC:-cc}" || command -v gcc; } >/dev/null 2>&1
HAVE_PYTHON_HEADERS = $(BIN)/python -c 'import os, sys, sysconfig; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'
compiled: $(STAMP)
	@if $(HAVE_C_COMPILER) && $(HAVE_PYTHON_HEADERS); then \
		$(BIN)/python scripts/build_compiled.py; \
	else \
		echo "no C compiler or no Python headers (Debian: gcc, python3-dev): the move generator runs from its source, slower"; \
	fi

# The web app on the SQLite file binscrabble.db here, on port PORT of this machine (another:
# make play PORT=8001; 0: any free port); it prints the address to open.
PORT ?= 8000
play: compiled
	$(BIN)/binscrabble serve --port $(PORT)

# The terminal game.
play-terminal: compiled
	$(BIN)/binscrabble play

lint: $(STAMP)
	$(BIN)/ruff check src tests bench scripts
	$(BIN)/ruff format --check src tests bench scripts
	$(BIN)/mypy --strict src
	MYPYPATH=tests $(BIN)/mypy --strict bench

# The message catalogues (docs/languages.md): the template from the sources (babel.cfg),
# each language's .po brought up to it, and every .mo compiled from its .po. Run it after
# adding or changing a message, translate what it left empty, and run it again.
LOCALE := src/binscrabble/locale
messages: $(STAMP)
	$(BIN)/pybabel --quiet extract -F babel.cfg -k pgettext:1c,2 --no-location --sort-output \
		--no-wrap --project binscrabble -o $(LOCALE)/binscrabble.pot .
	@# A fixed date: the catalogues change when their messages do, not on every run.
	sed -i 's/^"POT-Creation-Date: .*/"POT-Creation-Date: 2026-12-07 00:00+0000\\n"/' \
		$(LOCALE)/binscrabble.pot
	$(BIN)/pybabel --quiet update -i $(LOCALE)/binscrabble.pot -d $(LOCALE) -D binscrabble \
		--no-wrap --no-fuzzy-matching --ignore-obsolete
	$(BIN)/pybabel --quiet compile -d $(LOCALE) -D binscrabble --statistics

# Two processes (pytest-xdist): most of the suite's time is spent waiting (browsers, servers,
# real clocks), so two overlap their waits on two cores; `--dist loadfile` keeps each file's
# tests, and so its shared servers and pages, in one process. TEST_WORKERS=0 runs one process.
TEST_WORKERS ?= 2
test: deps lint compiled
	$(BIN)/pytest -n $(TEST_WORKERS) --dist loadfile

# What `make test` leaves out to stay within its time: the PostgreSQL runs of the heaviest
# suites, the repeats of the heaviest browser scenarios and the runs on Ray (tests marked `full`;
# docs/deploy.md, "Tests"). .ci/run runs it after `make test`.
test-full: deps compiled
	$(BIN)/pytest -m full

# The fuzzing suite (tests/test_fuzz_*.py) with thousands of random examples a test, round
# after round for FUZZ_MINUTES minutes; `make test` runs it with a short fixed budget.
FUZZ_MINUTES ?= 10
fuzz: compiled
	@end=$$(( $$(date +%s) + 60 * $(FUZZ_MINUTES) )); round=0; \
	while [ $$(date +%s) -lt $$end ]; do \
		round=$$((round + 1)); echo "fuzz round $$round"; \
		BINSCRABBLE_FUZZ=long $(BIN)/pytest -q -p no:cacheprovider tests/test_fuzz_*.py \
			|| exit 1; \
	done

# The test suite under every CPython 3.11+ on the machine, each in .venvs/ (see the script).
test-pythons:
	sh scripts/test_pythons.sh

bench: compiled
	$(BIN)/python bench/run.py

# A wheel and a source archive in dist/, as `pip install` would build them.
dist: $(STAMP)
	$(BIN)/python -m build --no-isolation --outdir dist .

clean:
	rm -rf $(VENV) .venvs .pytest_cache .mypy_cache .ruff_cache dist
	rm -f src/binscrabble/movegen/compiled/*.so src/binscrabble/movegen/compiled/*.sha256
