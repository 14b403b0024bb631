//! Makes a large benchmark input: the dev set repeated under new puzzle ids
//! until N rows, zstd-compressed like the real database.
//!
//! cargo run --release --example repeat_input -- N OUT.csv.zst [SOURCE.csv.zst]

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: repeat_input N OUT.csv.zst [SOURCE.csv.zst]");
        std::process::exit(2);
    }
    let rows: u64 = args[1].parse()?;
    let source = args.get(3).map(String::as_str).unwrap_or("tests/data/lichess_puzzles_dev.csv.zst");
    let mut lines = Vec::new();
    let mut header = String::new();
    let mut reader = BufReader::new(zstd::Decoder::new(File::open(source)?)?);
    reader.read_line(&mut header)?;
    for line in reader.lines() {
        lines.push(line?);
    }
    let out = File::create(&args[2])?;
    let mut encoder = zstd::Encoder::new(BufWriter::new(out), 3)?;
    encoder.write_all(header.as_bytes())?;
    let mut written = 0u64;
    'outer: for copy in 0.. {
        for line in &lines {
            if written == rows {
                break 'outer;
            }
            let (id, rest) = line.split_once(',').ok_or("row without a comma")?;
            writeln!(encoder, "{id}r{copy},{rest}")?;
            written += 1;
        }
    }
    encoder.finish()?.flush()?;
    eprintln!("wrote {written} rows to {}", args[2]);
    Ok(())
}
