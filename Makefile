# Two commands for a fresh machine: `make run` (the main job) and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-compiled lint bench bench-pure fast fast-clean setup setup-core clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

# torch is installed first and pinned exactly, so no later package can pull a multi-GB CUDA build.
# Ray (no torch of its own) comes too, so the 2-worker Ray smoke test runs in CI (docs/training.md);
# so does discord.py (light: aiohttp), so the Discord adapter tests run (docs/discord.md).
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q 'torch==2.13.0'
	$(BIN)/pip install -q -e '.[dev,rl,render,ray,discord]'
	touch $(STAMP)

setup: $(STAMP)

# The engine and NPR controllers alone (no torch): what a GM who only automates NPRs needs.
setup-core: | $(BIN)/python
	$(BIN)/pip install -q -e .

run: setup
	$(BIN)/regent serve

# mypy's check of what the compiled stage builds comes first: a type error fails in seconds, not after pytest.
test: setup
	$(BIN)/ruff check .
	$(BIN)/pip install -q -e '.[fast]'
	$(BIN)/python tools/build_fast.py --typecheck
	$(BIN)/python -m pytest -n 2 -m "not slow and not training"
	$(MAKE) --no-print-directory test-compiled

# The optional compiled build (make fast) must give the same games as the sources: build it, play the
# compiled engine and observation/action spaces against a source-only child process, then go back to pure Python.
test-compiled: setup
	$(BIN)/pip install -q -e '.[fast]'
	$(BIN)/python tools/build_fast.py
	$(BIN)/python -m pytest -n 2 tests/protectors/test_compiled.py tests/protectors/test_clone.py tests/protectors/test_pickle.py tests/envs/test_compiled_envs.py; \
	rc=$$?; $(BIN)/python tools/build_fast.py --clean; exit $$rc

# Optional: the engine compiled with mypyc (needs a C compiler; ~40 s on two cores). Same results bit for bit,
# a turn ~2.7x faster, an env step ~2.3x; `make fast-clean` goes back to pure Python (docs/benchmarks.md).
fast: setup
	$(BIN)/pip install -q -e '.[fast]'
	$(BIN)/python tools/build_fast.py

fast-clean:
	$(BIN)/python tools/build_fast.py --clean

# The adjudication benchmark on the compiled engine (the figure docs/benchmarks.md reports) ...
bench: fast
	$(BIN)/pip install -q -e '.[dev,bench]'
	$(BIN)/python -m benchmarks.protectors_vs_diplomacy

# ... and on the pure-Python engine.
bench-pure: setup fast-clean
	$(BIN)/pip install -q -e '.[dev,bench]'
	$(BIN)/python -m benchmarks.protectors_vs_diplomacy

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache engine/protectors/*.so agents/spaces/*.so
