# The two commands a new user runs: `make demo` and `make test`. Each builds .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck pytest bench clean dashboards docs reliability

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/observable-harness demo

test: lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/lint-imports

typecheck: $(STAMP)
	$(BIN)/pyright

pytest: $(STAMP)
	$(BIN)/python -m pytest -n 2 $(PYTEST_ARGS)

dashboards: $(STAMP)
	$(BIN)/python -m observable_harness.ops.assets dashboards .

docs: $(STAMP)
	$(BIN)/python -m observable_harness.ops.snapshot docs/dashboard.png

bench:
	bash bench/setup_env.sh >/dev/null
	bench/.venv/bin/python bench/run_all.py

# The tests of tests/reliability with >= 10,000 hypothesis examples per property (docs/reliability.md).
reliability: $(STAMP)
	$(BIN)/python bench/reliability.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
