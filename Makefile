# Koga — make targets. `make annotate` and `make test` are all a new user needs.
CARGO     ?= cargo
PYTHON    ?= python3
PIPELINE  ?= pipelines/sample.toml
## The one build everything uses: the optimized binary every example calls.
## `make test` runs the tests on the same build (`cargo test --release`), so
## a fresh machine compiles each dependency once (Cargo.toml says how).
KOGA      := target/release/koga
BENCH_ROWS    ?= 1000000
BENCH_THREADS ?= 0
LICHESS_URL   := https://database.lichess.org/lichess_db_puzzle.csv.zst

.PHONY: all build annotate notebook lab figures gallery python test test-rust test-python test-browser \
	test-cluster lint ci docs bench bench-e2e bench-instructions bench-scale bench-python download clean

all: build

build:
	$(CARGO) build --release --locked

## Annotate the pipeline's input (default: the embedded sample in data/),
## replacing the tables of an earlier run.
annotate: build
	$(KOGA) run --force $(PIPELINE)

## Every test: Rust unit, golden and end-to-end tests, then the Parquet
## read back by DuckDB, polars, pyarrow and pandas, the Python package, the
## README's examples, the gallery and the notebook (tests/python), then the
## gallery and a label doc in a real browser (tests/browser; skipped, saying
## so, where Node.js is missing).
test: test-rust test-python test-browser

test-rust:
	@command -v stockfish >/dev/null || test -x /usr/games/stockfish || test -n "$$STOCKFISH" || \
		echo "make test: no Stockfish (apt-get install stockfish): the engine tests that need one are skipped"
	$(CARGO) test --release --locked

## What CI adds for contributors: formatting, clippy, and the Python package
## on Ray and Spark (tests/python/test_engines.py with tests/cluster's
## requirements; Spark where Java is installed).
ci: test lint test-cluster

lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --locked --all-targets -- -D warnings
	$(CARGO) clippy --locked -p koga-python -- -D warnings

## The project's own Python environment: the pinned readers and pytest, and
## what the notebook needs (Jupyter's runner, matplotlib, python-chess).
PYENV := target/pyenv
$(PYENV)/installed: tests/python/requirements.txt notebooks/requirements.txt
	$(PYTHON) -m venv $(PYENV)
	$(PYENV)/bin/python -m pip install --quiet --disable-pip-version-check \
		-r tests/python/requirements.txt -r notebooks/requirements.txt
	touch $@

## Ray and PySpark, for the cluster recipes' tests (make test-cluster).
$(PYENV)/cluster-installed: $(PYENV)/installed tests/cluster/requirements.txt
	$(PYENV)/bin/python -m pip install --quiet --disable-pip-version-check -r tests/cluster/requirements.txt
	touch $@

## A static gallery of the sample's labels: out/gallery/index.html, one page
## per label with real puzzles drawn at the judged move. GALLERY_OUT reads
## another output directory.
GALLERY_OUT ?= out/sample
gallery: annotate $(PYENV)/installed
	$(PYENV)/bin/python scripts/gallery.py $(GALLERY_OUT) --koga $(KOGA) --out out/gallery

## Run the tour notebook headless on the sample's output: out/tour.html.
## NOTEBOOK_OUT reads another output. Tracked files stay as they are.
NOTEBOOK_OUT ?= out/sample
NBCONVERT = $(PYENV)/bin/jupyter nbconvert --to html --template offline \
	--TemplateExporter.extra_template_basedirs=notebooks
notebook: annotate $(PYENV)/installed
	KOGA=$(KOGA) KOGA_OUT=$(NOTEBOOK_OUT) $(NBCONVERT) --execute notebooks/tour.ipynb --output-dir out --output tour.html

## Work in the notebook: JupyterLab, installed into target/pyenv on first use.
lab: annotate $(PYENV)/installed
	$(PYENV)/bin/python -m pip install --quiet --disable-pip-version-check jupyterlab==4.6.6
	KOGA=$(KOGA) $(PYENV)/bin/jupyter lab notebooks/tour.ipynb

## Refresh the README's pictures in docs/img/ from the notebook.
figures: annotate $(PYENV)/installed
	mkdir -p docs/img
	KOGA=$(KOGA) KOGA_OUT=out/sample KOGA_SAVE_FIGURES=1 $(NBCONVERT) --execute notebooks/tour.ipynb \
		--output-dir out --output tour.html

## The Python package (python/): built with maturin, optimized, on the same
## build settings as the binary, and installed into target/pyenv.
python: $(PYENV)/installed
	VIRTUAL_ENV=$(abspath $(PYENV)) $(PYENV)/bin/maturin develop --locked --quiet --release -m python/Cargo.toml

test-python: build python
	KOGA=$(KOGA) $(PYENV)/bin/python -m pytest -q -p no:cacheprovider tests/python
	$(PYENV)/bin/python scripts/gen_tactic_docs.py --koga $(KOGA) --check

test-cluster: build python $(PYENV)/cluster-installed
	KOGA=$(KOGA) KOGA_CLUSTER_TESTS=1 $(PYENV)/bin/python -m pytest -q -p no:cacheprovider tests/python/test_engines.py

## The gallery and one label doc open in headless Chromium: every board
## loads, no console error; screenshots in target/browser/shots/.
test-browser: build $(PYENV)/installed
	KOGA=$(KOGA) scripts/test_browser.sh

## Regenerate what is generated from the code: docs/tactics/ (the vocabulary,
## the detectors' rules and test positions), docs/arbitration.md (the
## arbitration table) and the README's table of labels.
docs: build $(PYENV)/installed
	$(PYENV)/bin/python scripts/gen_tactic_docs.py --koga $(KOGA)
	KOGA_BLESS=1 $(CARGO) test --release --locked --quiet --test classifier generated_docs

## Benchmarks: criterion (reading, replay, classify), then end-to-end.
bench:
	$(CARGO) bench --locked --bench pipeline
	$(MAKE) bench-e2e

bench-e2e:
	scripts/bench.sh $(BENCH_ROWS) $(BENCH_THREADS)

## Instructions per puzzle on the dev set at --threads 1, in total and per
## stage (read, replay, labels, themes, write, allocator), counted by
## cachegrind: deterministic, unlike wall time. Needs valgrind.
BENCH_INSTRUCTIONS_INPUT ?= tests/data/lichess_puzzles_dev.csv.zst
bench-instructions: build
	$(PYTHON) scripts/bench_instructions.py $(KOGA) $(BENCH_INSTRUCTIONS_INPUT) --top $(or $(TOP),0)

## Scaling: puzzles/s at 1, 2 and all cores, CPU seconds per thread kind,
## and the rate each serial stage (reader, writer) caps a run at.
BENCH_SCALE_THREADS ?=
bench-scale: build
	$(CARGO) build --release --locked --quiet --example repeat_input
	mkdir -p target/bench
	[ -f target/bench/input-$(BENCH_ROWS).csv.zst ] || target/release/examples/repeat_input $(BENCH_ROWS) target/bench/input-$(BENCH_ROWS).csv.zst
	$(PYTHON) scripts/bench_scale.py target/release/koga target/bench/input-$(BENCH_ROWS).csv.zst $(BENCH_SCALE_THREADS)

## The Python package against the CLI on the same puzzles (release builds).
BENCH_PYTHON_ROWS ?= 100000
bench-python: python
	$(CARGO) build --release --locked --quiet --bin koga --example repeat_input
	$(PYENV)/bin/python scripts/bench_python.py $(BENCH_PYTHON_ROWS) $(BENCH_THREADS)

## Fetch the full Lichess puzzle database (~300 MB) for pipelines/lichess.toml.
download:
	curl -fL --progress-bar -o lichess_db_puzzle.csv.zst.part $(LICHESS_URL)
	mv lichess_db_puzzle.csv.zst.part lichess_db_puzzle.csv.zst

clean:
	$(CARGO) clean
	rm -rf out
