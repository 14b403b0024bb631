# Koga — make targets. `make annotate` and `make test` are all a new user needs.
CARGO     ?= cargo
PYTHON    ?= python3
PIPELINE  ?= pipelines/sample.toml
## The build `make annotate` uses. The embedded sample runs on the
## unoptimized build that `make test` shares (the first run on a fresh
## machine is the shortest there); any other pipeline (the whole database)
## on the optimized release build. `make annotate KOGA_PROFILE=release` forces it.
KOGA_PROFILE ?= $(if $(filter pipelines/sample.toml,$(PIPELINE)),dev,release)
KOGA         := target/$(if $(filter dev,$(KOGA_PROFILE)),debug,$(KOGA_PROFILE))/koga
BENCH_ROWS    ?= 1000000
BENCH_THREADS ?= 0
LICHESS_URL   := https://database.lichess.org/lichess_db_puzzle.csv.zst

.PHONY: all build annotate notebook gallery python test test-rust test-python test-browser docs bench bench-e2e bench-scale bench-python download clean

all: build

build:
	$(CARGO) build --locked --profile $(KOGA_PROFILE)

## Annotate the pipeline's input (default: the embedded sample in data/).
annotate: build
	$(KOGA) run $(PIPELINE)

## Every test: Rust unit, golden and end-to-end tests, then the Parquet
## read back by DuckDB, polars, pyarrow and pandas, and the Python package
## on Ray and Spark (tests/python), then the gallery and a label doc in a
## real browser (tests/browser; skipped, saying so, where Node.js is missing).
test: test-rust test-python test-browser

test-rust:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --locked --all-targets -- -D warnings
	$(CARGO) clippy --locked -p koga-python -- -D warnings
	$(CARGO) test --locked

## The project's own Python environment: the pinned readers and pytest, and
## what the notebook needs (Jupyter's runner, matplotlib, python-chess).
PYENV := target/pyenv
$(PYENV)/installed: tests/python/requirements.txt notebooks/requirements.txt
	$(PYTHON) -m venv $(PYENV)
	$(PYENV)/bin/python -m pip install --quiet --disable-pip-version-check \
		-r tests/python/requirements.txt -r notebooks/requirements.txt
	touch $@

## A static gallery of the sample's labels: out/gallery/index.html, one page
## per label with real puzzles drawn at the judged move. GALLERY_OUT reads
## another output directory.
GALLERY_OUT ?= out/sample
gallery: annotate $(PYENV)/installed
	$(PYENV)/bin/python scripts/gallery.py $(GALLERY_OUT) --koga $(KOGA) --out out/gallery

## Run the tour notebook headless on the sample's output: out/tour.html, and
## the README's pictures in docs/img/. NOTEBOOK_OUT reads another output.
NOTEBOOK_OUT ?= out/sample
notebook: annotate $(PYENV)/installed
	mkdir -p docs/img
	KOGA=$(KOGA) KOGA_OUT=$(NOTEBOOK_OUT) KOGA_SAVE_FIGURES=1 $(PYENV)/bin/jupyter nbconvert --to html \
		--execute notebooks/tour.ipynb --output-dir out --output tour.html

## The Python package (python/): built with maturin and installed into the
## project's environment, target/pyenv. Optimized by default; `make test`
## installs the unoptimized build (PYTHON_PROFILE=dev), which compiles in a
## fraction of the time and shares the other tests' dependencies.
PYTHON_PROFILE ?= release
python: $(PYENV)/installed
	VIRTUAL_ENV=$(abspath $(PYENV)) $(PYENV)/bin/maturin develop --locked --quiet \
		$(if $(filter release,$(PYTHON_PROFILE)),--release) -m python/Cargo.toml

test-python: $(PYENV)/installed
	$(CARGO) build --locked --quiet
	$(MAKE) --no-print-directory python PYTHON_PROFILE=dev
	KOGA=target/debug/koga $(PYENV)/bin/python -m pytest -q -p no:cacheprovider tests/python
	$(PYENV)/bin/python scripts/gen_tactic_docs.py --koga target/debug/koga --check

## The gallery and one label doc open in headless Chromium: every board
## loads, no console error; screenshots in target/browser/shots/.
test-browser: $(PYENV)/installed
	$(CARGO) build --locked --quiet
	scripts/test_browser.sh

## Regenerate what is generated from the code: docs/tactics/ (the vocabulary,
## the detectors' rules and test positions), docs/arbitration.md (the
## arbitration table) and the README's table of labels.
docs: $(PYENV)/installed
	$(CARGO) build --locked --quiet
	$(PYENV)/bin/python scripts/gen_tactic_docs.py --koga target/debug/koga
	KOGA_BLESS=1 $(CARGO) test --locked --quiet --no-default-features --test classifier generated_docs

## Benchmarks: criterion (reading, replay, classify), then end-to-end.
bench:
	$(CARGO) bench --locked --bench pipeline
	$(MAKE) bench-e2e

bench-e2e:
	scripts/bench.sh $(BENCH_ROWS) $(BENCH_THREADS)

## Scaling: puzzles/s at 1, 2 and all cores, CPU seconds per thread kind,
## and the rate each serial stage (reader, writer) caps a run at.
BENCH_SCALE_THREADS ?=
bench-scale:
	$(CARGO) build --release --locked --quiet
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
