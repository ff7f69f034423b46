# Everything goes through a virtual environment in .venv, created on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test test-pythons lint bench clean

$(STAMP): pyproject.toml
	@$(PYTHON) -m venv --help >/dev/null 2>&1 || (apt-get update && apt-get install -y python3-venv)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/binscrabble play

lint: $(STAMP)
	$(BIN)/ruff check src tests bench scripts
	$(BIN)/ruff format --check src tests bench scripts
	$(BIN)/mypy --strict src

test: lint
	$(BIN)/pytest

# The test suite under every CPython 3.11+ on the machine, each in .venvs/ (see the script).
test-pythons:
	sh scripts/test_pythons.sh

bench: $(STAMP)
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) .venvs .pytest_cache .mypy_cache .ruff_cache
