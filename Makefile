# Everything goes through a virtual environment in .venv, created on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test test-pythons lint bench clean compiled

$(STAMP): pyproject.toml
	@$(PYTHON) -m venv --help >/dev/null 2>&1 || (apt-get update && apt-get install -y python3-venv)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The move generator compiled with mypyc (scripts/build_compiled.py; docs/movegen.md, "The
# compiled generator"): built when its source changed, about a minute; needs a C compiler
# and the interpreter's headers, installed here when missing.
compiled: $(STAMP)
	@command -v cc >/dev/null 2>&1 || command -v gcc >/dev/null 2>&1 || (apt-get update && apt-get install -y gcc)
	@test -f "$$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_paths()["include"])')/Python.h" || (apt-get update && apt-get install -y python3-dev)
	$(BIN)/python scripts/build_compiled.py

play: compiled
	$(BIN)/binscrabble play

lint: $(STAMP)
	$(BIN)/ruff check src tests bench scripts
	$(BIN)/ruff format --check src tests bench scripts
	$(BIN)/mypy --strict src

test: lint compiled
	$(BIN)/pytest

# The test suite under every CPython 3.11+ on the machine, each in .venvs/ (see the script).
test-pythons:
	sh scripts/test_pythons.sh

bench: compiled
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) .venvs .pytest_cache .mypy_cache .ruff_cache
	rm -f src/binscrabble/*.so src/binscrabble/*.so.sha256
