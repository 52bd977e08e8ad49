# The two commands: `make run` and `make test`. Both create .venv when missing and
# reinstall only when pyproject.toml changed since the last install.
PYTHON ?= python3
# `make run CONFIG=configs/openai.toml` runs another golem.
CONFIG ?= configs/golem.toml
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck pytest bench bench-quick clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev,local,local-server]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/golem run $(CONFIG)

lint: $(STAMP)
	$(BIN)/ruff check golem tests benchmarks
	$(BIN)/ruff format --check golem tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy --strict golem

pytest: $(STAMP)
	$(BIN)/pytest -q

test: lint typecheck pytest bench-quick

# Every benchmark, full size (`make bench`), or small so none rots (`make bench-quick`, part
# of `make test`; its figures are labelled "(quick)" and no goal is judged). PYTHONPATH makes
# the scripts import this checkout's golem.
bench: $(STAMP)
	@for b in benchmarks/bench_*.py; do echo "== $$b"; PYTHONPATH=$(CURDIR) $(BIN)/python $$b || exit 1; done

bench-quick: $(STAMP)
	@for b in benchmarks/bench_*.py; do echo "== $$b --quick"; PYTHONPATH=$(CURDIR) $(BIN)/python $$b --quick || exit 1; done

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
