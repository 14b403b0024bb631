//! The classifier against its acceptance data: the golden seed cases, colour
//! symmetry over real puzzles, and random legal lines. Builds without
//! Parquet (`cargo test --no-default-features --test classifier`).

use std::collections::BTreeMap;
use std::io::Read;
use std::path::PathBuf;

use koga::label::Family;
use koga::{classify, Fire, Line, LineForm};
use proptest::prelude::*;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position, Square};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[derive(serde::Deserialize)]
struct Case {
    id: String,
    fen: String,
    moves: String,
    judged_ply: u16,
    expect: Vec<String>,
    absent: Vec<String>,
    roles: BTreeMap<String, String>,
}

fn describe(fires: &[Fire]) -> String {
    fires.iter().map(koga::explain::describe).collect::<Vec<_>>().join("; ")
}

/// Every golden case: each `expect` label fires on the judged ply, no
/// `absent` label does, and for positive cases one expected fire carries
/// every role the case gives.
#[test]
fn golden_seed_cases() {
    let text = std::fs::read_to_string(root().join("tests/data/seed_cases.jsonl")).unwrap();
    let mut failures = Vec::new();
    let mut count = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: Case = serde_json::from_str(line).unwrap();
        count += 1;
        let parsed = Line::parse(&case.fen, &case.moves, LineForm::Puzzle).unwrap();
        let fires: Vec<Fire> = classify(&parsed).into_iter().filter(|f| f.ply == case.judged_ply).collect();
        let names: Vec<&str> = fires.iter().map(|f| f.label.name()).collect();
        for label in &case.expect {
            if !names.contains(&label.as_str()) {
                failures.push(format!("{}: expected {label}, got [{}]", case.id, describe(&fires)));
            }
        }
        for label in &case.absent {
            if names.contains(&label.as_str()) {
                failures.push(format!("{}: {label} must not fire, got [{}]", case.id, describe(&fires)));
            }
        }
        let roles_ok = |f: &Fire| {
            case.roles.iter().all(|(role, square)| {
                f.roles.iter().any(|(name, sq)| name == role && sq.map(|s| s.to_string()).as_deref() == Some(square))
            })
        };
        if !case.expect.is_empty() && !case.roles.is_empty() {
            let carried = fires.iter().any(|f| case.expect.iter().any(|l| l == f.label.name()) && roles_ok(f));
            if !carried {
                failures.push(format!(
                    "{}: no expected fire carries roles {:?}: [{}]",
                    case.id,
                    case.roles,
                    describe(&fires)
                ));
            }
        }
    }
    assert_eq!(count, 49, "the golden file holds 49 cases");
    assert!(failures.is_empty(), "{} golden failures:\n{}", failures.len(), failures.join("\n"));
}

fn puzzle_labels(line: &Line) -> Vec<&'static str> {
    koga::tactics::puzzle_labels(line).iter().map(|l| l.name()).collect()
}

fn mirror_square(sq: Square) -> Square {
    sq.flip_vertical()
}

fn mirror_uci(uci: &str) -> String {
    let m: UciMove = uci.parse().unwrap();
    match m {
        UciMove::Normal { from, to, promotion } => {
            UciMove::Normal { from: mirror_square(from), to: mirror_square(to), promotion }.to_string()
        }
        other => other.to_string(),
    }
}

fn mirror_fen(fen: &str) -> String {
    let fen: Fen = fen.parse().unwrap();
    let pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
    let setup = pos.to_setup(EnPassantMode::Legal).into_mirrored();
    Fen::try_from_setup(setup).unwrap().to_string()
}

type Key = (u16, &'static str, Vec<(&'static str, Option<Square>)>, Option<i16>, bool);

fn keys(fires: &[Fire], mirrored: bool) -> Vec<Key> {
    let mut keys: Vec<Key> = fires
        .iter()
        .map(|f| {
            let roles = f.roles.iter().map(|(n, s)| (n, if mirrored { s.map(mirror_square) } else { s })).collect();
            (f.ply, f.label.name(), roles, f.gain, f.follow_up)
        })
        .collect();
    keys.sort();
    keys
}

fn dev_rows() -> Vec<(String, String, String)> {
    let file = std::fs::File::open(root().join("tests/data/lichess_puzzles_dev.csv.zst")).unwrap();
    let mut text = String::new();
    zstd::Decoder::new(file).unwrap().read_to_string(&mut text).unwrap();
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            (r[0].to_owned(), r[1].to_owned(), r[2].to_owned())
        })
        .collect()
}

/// Colour symmetry: the mirrored puzzle (board flipped, colours swapped)
/// gets the mirrored fires, roles and gains included, and the same puzzle
/// labels.
#[test]
fn mirrored_puzzles_get_mirrored_fires() {
    let rows = dev_rows();
    let mut checked = 0;
    let mut failures = Vec::new();
    for (id, fen, moves) in rows.iter().step_by(4) {
        let line = Line::parse(fen, moves, LineForm::Puzzle).unwrap();
        let mirrored_moves: Vec<String> = moves.split(' ').map(mirror_uci).collect();
        let mirrored = Line::parse(&mirror_fen(fen), &mirrored_moves.join(" "), LineForm::Puzzle).unwrap();
        let (a, b) = (keys(&classify(&line), true), keys(&classify(&mirrored), false));
        if a != b {
            failures.push(format!("{id}: {a:?}\n   mirrored: {b:?}"));
        }
        let (a, b) = (puzzle_labels(&line), puzzle_labels(&mirrored));
        if a != b {
            failures.push(format!("{id}: puzzle labels {a:?}\n   mirrored: {b:?}"));
        }
        checked += 1;
    }
    assert!(checked >= 5000, "checked {checked}");
    assert!(
        failures.is_empty(),
        "{} asymmetric puzzles, first:\n{}",
        failures.len(),
        failures[..failures.len().min(3)].join("\n")
    );
}

/// Every label fires somewhere on the dev set: a detector that never fires
/// on 20,000 real puzzles is broken.
#[test]
fn every_tactic_fires_on_real_puzzles() {
    let rows = dev_rows();
    let mut seen = std::collections::BTreeSet::new();
    for (_, fen, moves) in &rows {
        let line = Line::parse(fen, moves, LineForm::Puzzle).unwrap();
        seen.extend(classify(&line).into_iter().map(|f| f.label.name()));
        seen.extend(koga::tactics::puzzle_labels(&line).iter().map(|l| l.name()));
    }
    for label in koga::Label::ALL {
        if matches!(label.family(), Family::Seed | Family::Motif) {
            assert!(seen.contains(label.name()), "{} never fires on the dev set", label.name());
        }
    }
}

/// The vocabulary's `lichess` flag says which labels `koga compare` can
/// measure: exactly the labels whose name appears in the dev set's Themes.
#[test]
fn lichess_flag_matches_the_themes_vocabulary() {
    let file = std::fs::File::open(root().join("tests/data/lichess_puzzles_dev.csv.zst")).unwrap();
    let mut reader = csv::Reader::from_reader(zstd::Decoder::new(file).unwrap());
    let mut themes = std::collections::BTreeSet::new();
    for record in reader.records() {
        themes.extend(record.unwrap()[7].split(' ').map(str::to_owned));
    }
    for info in koga::label::LABELS {
        assert_eq!(info.lichess, themes.contains(info.name), "{}: lichess flag", info.name);
    }
}

/// `docs/arbitration.md` and the README's table of labels are generated from
/// the code (the arbitration table, the vocabulary). `KOGA_BLESS=1`
/// rewrites them; `make docs` does.
#[test]
fn generated_docs_are_current() {
    let bless = std::env::var_os("KOGA_BLESS").is_some();
    let mut stale = Vec::new();
    let arbitration = root().join("docs/arbitration.md");
    let text = koga::arbitrate::markdown();
    if std::fs::read_to_string(&arbitration).ok().as_deref() != Some(text.as_str()) {
        if bless {
            std::fs::write(&arbitration, &text).unwrap();
        } else {
            stale.push("docs/arbitration.md");
        }
    }
    let readme_path = root().join("README.md");
    let readme = std::fs::read_to_string(&readme_path).unwrap();
    let (begin, end) = ("<!-- labels:begin (generated by `make docs`) -->\n", "<!-- labels:end -->");
    let start = readme.find(begin).expect("README has the labels markers") + begin.len();
    let stop = readme[start..].find(end).expect("README has the labels end marker") + start;
    let table = koga::label::vocabulary_markdown();
    if readme[start..stop] != table {
        if bless {
            std::fs::write(&readme_path, format!("{}{}{}", &readme[..start], table, &readme[stop..])).unwrap();
        } else {
            stale.push("README.md (table of labels)");
        }
    }
    assert!(stale.is_empty(), "out of date, run `make docs`: {stale:?}");
}

fn random_line(seed: u64, plies: usize) -> (String, String) {
    // A small deterministic generator: every move legal by construction.
    let mut state = seed | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut pos = Chess::default();
    // Random opening moves first, so lines start from varied positions.
    let warmup = (next() % 30) as usize;
    for _ in 0..warmup {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[(next() % moves.len() as u64) as usize];
        pos.play_unchecked(m);
    }
    let fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
    let mut ucis = Vec::new();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[(next() % moves.len() as u64) as usize];
        ucis.push(m.to_uci(CastlingMode::Standard).to_string());
        pos.play_unchecked(m);
    }
    (fen, ucis.join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 100_000, failure_persistence: None, ..ProptestConfig::default() })]

    /// No panic on random legal lines, in both input forms, and fires only
    /// ever on solver plies.
    #[test]
    fn random_legal_lines_never_panic(seed in any::<u64>(), plies in 1usize..12) {
        let (fen, moves) = random_line(seed, plies);
        for form in [LineForm::Puzzle, LineForm::Line] {
            if let Ok(line) = Line::parse(&fen, &moves, form) {
                for fire in classify(&line) {
                    prop_assert!((fire.ply as usize) >= line.key_ply && (fire.ply as usize - line.key_ply).is_multiple_of(2));
                    prop_assert_eq!(fire.follow_up, fire.ply as usize > line.key_ply);
                }
            }
        }
    }
}
