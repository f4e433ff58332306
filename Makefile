# Two commands for a fresh machine: `make run` (the main job) and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench setup setup-core clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

# torch is installed first and pinned exactly, so no later package can pull a multi-GB CUDA build.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q 'torch==2.13.0'
	$(BIN)/pip install -q -e '.[dev,rl,render]'
	touch $(STAMP)

setup: $(STAMP)

# The engine and NPR controllers alone (no torch): what a GM who only automates NPRs needs.
setup-core: | $(BIN)/python
	$(BIN)/pip install -q -e .

run: setup
	$(BIN)/regent serve

test: setup
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -n 2 -m "not slow and not training"

bench: setup
	$(BIN)/pip install -q -e '.[dev,bench]'
	$(BIN)/python -m benchmarks.protectors_vs_diplomacy

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
