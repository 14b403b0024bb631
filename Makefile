# Koga — make targets. `make annotate` and `make test` are all a new user needs.
CARGO     ?= cargo
PYTHON    ?= python3
PIPELINE  ?= pipelines/sample.toml
KOGA      := target/release/koga
BENCH_ROWS    ?= 1000000
BENCH_THREADS ?= 0
LICHESS_URL   := https://database.lichess.org/lichess_db_puzzle.csv.zst

.PHONY: all build annotate test test-rust test-python docs bench bench-e2e download clean

all: build

build:
	$(CARGO) build --release --locked

## Annotate the pipeline's input (default: the embedded sample in data/).
annotate: build
	$(KOGA) run $(PIPELINE)

## Every test: Rust unit, golden and end-to-end tests, then the Parquet
## files read back by Python polars and pyarrow.
test: test-rust test-python

test-rust:
	$(CARGO) test --locked

test-python:
	$(CARGO) build --locked --quiet
	$(PYTHON) scripts/check_parquet.py target/debug/koga
	$(PYTHON) scripts/gen_tactic_docs.py --check

## Regenerate docs/tactics/ from the detectors' rules and test positions.
docs:
	$(PYTHON) scripts/gen_tactic_docs.py

## Benchmarks: criterion (reading, replay, classify), then end-to-end.
bench:
	$(CARGO) bench --locked --bench pipeline
	$(MAKE) bench-e2e

bench-e2e:
	scripts/bench.sh $(BENCH_ROWS) $(BENCH_THREADS)

## Fetch the full Lichess puzzle database (~300 MB) for pipelines/lichess.toml.
download:
	curl -fL --progress-bar -o lichess_db_puzzle.csv.zst.part $(LICHESS_URL)
	mv lichess_db_puzzle.csv.zst.part lichess_db_puzzle.csv.zst

clean:
	$(CARGO) clean
	rm -rf out
