//! How Koga's labels compare with Lichess's themes on a puzzle CSV: for each
//! label that is also a Lichess theme, puzzles Lichess tags, puzzles Koga
//! fires on (any solver ply), both, and Koga's precision and recall against
//! Lichess. With `--examples LABEL`, lists puzzles for that label: where both
//! agree, and where only one side says it.
//!
//! cargo run --release --example agreement -- tests/data/lichess_puzzles_dev.csv.zst [--examples fork]

use std::collections::{BTreeMap, BTreeSet};

use koga::input::{InputSpec, PuzzleReader};
use koga::{classify, Line, LineForm};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).map(String::as_str).unwrap_or("tests/data/lichess_puzzles_dev.csv.zst");
    let examples = args.iter().position(|a| a == "--examples").and_then(|i| args.get(i + 1)).cloned();
    let mut reader = PuzzleReader::open(&InputSpec::from_arg(path))?;
    let c = reader.columns().clone();
    let themes_col = c.themes.ok_or("the CSV has no Themes column")?;
    let mut counts: BTreeMap<&'static str, [u32; 3]> = BTreeMap::new();
    let mut listed: [Vec<String>; 3] = Default::default();
    loop {
        let batch = reader.next_batch(4096)?;
        if batch.is_empty() {
            break;
        }
        for row in batch.into_iter().map(koga::input::TextRow::from_raw) {
            let (Ok(id), Ok(fen), Ok(moves)) =
                (row.required(c.puzzle_id, "PuzzleId"), row.required(c.fen, "FEN"), row.required(c.moves, "Moves"))
            else {
                continue;
            };
            let themes: BTreeSet<&str> = row.optional(Some(themes_col), "Themes")?.unwrap_or("").split(' ').collect();
            if !themes.iter().any(|t| matches!(*t, "short" | "long" | "veryLong" | "oneMove")) {
                continue; // never tagged by Lichess
            }
            let Ok(line) = Line::parse(fen, moves, LineForm::Puzzle) else { continue };
            let fires = classify(&line);
            let ours: BTreeSet<&str> = fires.iter().map(|f| f.label.name()).collect();
            for label in koga::Label::ALL.iter().map(|l| l.name()) {
                let (o, t) = (ours.contains(label), themes.contains(label));
                let entry = counts.entry(label).or_default();
                entry[0] += t as u32;
                entry[1] += o as u32;
                entry[2] += (o && t) as u32;
                if examples.as_deref() == Some(label) {
                    let slot = match (o, t) {
                        (true, true) => 0,
                        (true, false) => 1,
                        (false, true) => 2,
                        _ => continue,
                    };
                    if listed[slot].len() < 15 {
                        let plies: Vec<u16> = fires.iter().filter(|f| f.label.name() == label).map(|f| f.ply).collect();
                        listed[slot].push(format!("{id},{fen},{moves} plies={plies:?} themes={}", themes.iter().copied().collect::<Vec<_>>().join(" ")));
                    }
                }
            }
        }
    }
    println!("{:<24} {:>8} {:>8} {:>8} {:>10} {:>8}", "label", "lichess", "koga", "both", "precision", "recall");
    for (label, [theirs, ours, both]) in &counts {
        if *theirs == 0 && *ours == 0 {
            continue;
        }
        let p = if *ours > 0 { *both as f64 / *ours as f64 } else { f64::NAN };
        let r = if *theirs > 0 { *both as f64 / *theirs as f64 } else { f64::NAN };
        println!("{label:<24} {theirs:>8} {ours:>8} {both:>8} {p:>10.2} {r:>8.2}");
    }
    for (title, list) in ["both", "koga only", "lichess only"].iter().zip(&listed) {
        if !list.is_empty() {
            println!("\n{title}:");
            for l in list {
                println!("  {l}");
            }
        }
    }
    Ok(())
}
