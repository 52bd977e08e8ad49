# The two commands: `make run` and `make test`. Both create .venv when missing and
# reinstall only when pyproject.toml changed since the last install.
PYTHON ?= python3
# `make run CONFIG=configs/openai.toml` runs another golem.
CONFIG ?= configs/golem.toml
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck pytest chromium docs bench bench-quick clean

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

pytest: $(STAMP) chromium
	$(BIN)/pytest -q

# The dashboard's browser tests drive the machine's Chromium (Debian's package, never a
# browser Playwright downloads). Installed here when missing and possible (root with
# apt-get); otherwise those tests skip, saying why.
chromium:
	@[ -x /usr/bin/chromium ] || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "chromium: installing Debian's package for the browser tests"; \
	    (apt-get update -qq && apt-get install -y -qq chromium >/dev/null) \
	      || echo "chromium: could not be installed; the browser tests will skip"; \
	  else \
	    echo "chromium: missing (apt-get install chromium, as root); the browser tests will skip"; \
	  fi; }

# The documentation under docs/, built strictly (a broken link or anchor, a page missing from
# the nav, fails) into site/ (gitignored). No plugin fetches anything: it builds offline.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet --site-dir site

test: lint typecheck pytest docs bench-quick

# Every benchmark, full size (`make bench`), or small so none rots (`make bench-quick`, part
# of `make test`; its figures are labelled "(quick)" and no goal is judged). PYTHONPATH makes
# the scripts import this checkout's golem. benchmarks/economics.py (issue 37's acceptance
# run, hours at full size, so not in `make bench`) runs its --quick mode here too (~20 s).
bench: $(STAMP)
	@for b in benchmarks/bench_*.py; do echo "== $$b"; PYTHONPATH=$(CURDIR) $(BIN)/python $$b || exit 1; done

bench-quick: $(STAMP)
	@for b in benchmarks/bench_*.py benchmarks/economics.py; do echo "== $$b --quick"; PYTHONPATH=$(CURDIR) $(BIN)/python $$b --quick || exit 1; done

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache site
