//! Fuzzes the classifier through its public entry: any bytes become a FEN
//! and a move line (split at the first newline); whatever parses must
//! classify and explain without panicking.
//!
//!     cargo +nightly fuzz run classify
#![no_main]

use koga::{classify, Line, LineForm};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (fen, moves) = text.split_once('\n').unwrap_or((text, ""));
    for form in [LineForm::Puzzle, LineForm::Line] {
        if let Ok(line) = Line::parse(fen, moves, form) {
            let fires = classify(&line);
            for fire in &fires {
                assert!((fire.ply as usize) < line.plies());
            }
            let _ = koga::explain::explain(&line);
        }
    }
});
