//! Criterion benches of the stages: reading (zstd + CSV), replay (FEN, legality,
//! SAN) and classification, over real puzzles of the dev set.

use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use koga::input::{InputSpec, PuzzleReader};
use koga::{Line, LineForm};

fn dev_set() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/lichess_puzzles_dev.csv.zst")
}

fn puzzles() -> Vec<(String, String)> {
    let mut reader = PuzzleReader::open(&InputSpec::Path(dev_set())).unwrap();
    let columns = reader.columns().clone();
    let mut out = Vec::new();
    loop {
        let batch = reader.next_batch(4096).unwrap();
        if batch.is_empty() {
            return out;
        }
        for row in batch.rows() {
            out.push((
                row.required(columns.fen, "FEN").unwrap().to_owned(),
                row.required(columns.moves, "Moves").unwrap().to_owned(),
            ));
        }
    }
}

fn bench(c: &mut Criterion) {
    let puzzles = puzzles();
    let n = puzzles.len() as u64;

    let mut group = c.benchmark_group("stages");
    group.sample_size(10);
    group.throughput(Throughput::Elements(n));
    group.bench_function("read_dev_set", |b| {
        b.iter(|| {
            let mut reader = PuzzleReader::open(&InputSpec::Path(dev_set())).unwrap();
            let mut rows = 0;
            loop {
                let batch = reader.next_batch(8192).unwrap();
                if batch.is_empty() {
                    break rows;
                }
                rows += batch.len();
            }
        })
    });
    group.bench_function("replay_dev_set", |b| {
        b.iter(|| {
            puzzles.iter().map(|(fen, moves)| Line::parse(fen, moves, LineForm::Puzzle).unwrap().plies()).sum::<usize>()
        })
    });
    let lines: Vec<Line> =
        puzzles.iter().map(|(fen, moves)| Line::parse(fen, moves, LineForm::Puzzle).unwrap()).collect();
    group.bench_function("classify_dev_set", |b| {
        b.iter(|| lines.iter().map(|line| koga::classify(line).len()).sum::<usize>())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
