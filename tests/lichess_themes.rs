//! Lichess's themes by Lichess's rules (`koga::lichess`) against Lichess's
//! own data: the published `Themes` of the dev set, and the verdicts of
//! Lichess's tagger test suite. Builds without Parquet.

mod common;

use common::{dev_rows, verdicts};
use koga::compare::Render;
use koga::lichess::{self, Theme};
use koga::{Line, LineForm};
use proptest::prelude::*;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Position};

fn theme_names(line: &Line) -> Vec<&'static str> {
    lichess::themes(line).unwrap().iter().map(|t| t.theme.name()).collect()
}

/// The themes equal Lichess's published `Themes`, over the themes the
/// tagger emits, on at least 99.85 % of the tagged dev puzzles (19,905 of
/// 19,925 when written). The rest are Lichess's votes and its game
/// divider, which reads the whole game (see `koga compare --exact`).
#[test]
fn themes_equal_the_published_themes_on_the_dev_set() {
    let mut report = koga::compare::ExactTally::new(true);
    for row in dev_rows() {
        let line = Line::parse(&row.fen, &row.moves, LineForm::Puzzle).unwrap();
        report.add(&row.id, &row.themes, Some(theme_names(&line).into_iter()));
    }
    let report = report.finish();
    assert!(report.tagged >= 19_900, "{}", report.tagged);
    assert!(report.equal * 10_000 >= report.tagged * 9_985, "{}", report.to_text());
    // No theme is off by more than six puzzles either way.
    for counts in &report.themes {
        assert!(counts.extra + counts.missing <= 6, "{}: {counts:?}\n{}", counts.theme.name(), report.to_text());
    }
}

/// Random legal lines, each with the themes Lichess's own tagger code gives
/// it (`tests/data/lichess_tagger_random.README.md`): the port answers the
/// same on every one, rule for rule, where no published data can tell.
#[test]
fn the_port_gives_the_taggers_answer_on_random_lines() {
    let file = std::fs::File::open(common::root().join("tests/data/lichess_tagger_random.csv.zst")).unwrap();
    let mut reader = csv::Reader::from_reader(zstd::Decoder::new(file).unwrap());
    let mut failures = Vec::new();
    let mut rows = 0;
    for record in reader.records() {
        let r = record.unwrap();
        let line = Line::parse(&r[1], &r[2], LineForm::Puzzle).unwrap();
        let ours = theme_names(&line).join(" ");
        if ours != r[3] {
            failures.push(format!("{} {} {:?}: tagger {:?}, port {ours:?}", &r[0], &r[1], &r[2], &r[3]));
        }
        rows += 1;
    }
    assert_eq!(rows, 2_500);
    assert!(failures.is_empty(), "{} lines differ:\n{}", failures.len(), failures.join("\n"));
}

/// Lichess's tagger on the verdicts its suite comments out, as its own code
/// (run with python-chess) answers: (puzzle id, function, answer).
const TAGGER_ON_INACTIVE: &[(&str, &str, bool)] = &[
    ("q0ot7", "fork", false),
    ("RBAaK", "trapped_piece", true),
    ("RArZa", "trapped_piece", true),
    ("MB3gB", "overloading", false),
    ("iq12Z", "clearance", false),
    ("spQRx", "pin_prevents_attack", false),
    ("6h1wj", "cook", true),
    ("nAZo8", "queenside_attack", false),
];

/// Lichess's own tagger tests (`tagger/test.py`), carried over as data
/// (`tests/data/lichess_verdicts.jsonl`): each function of Koga's port
/// gives every active verdict, and on the commented-out ones the answer
/// Lichess's tagger gives — that is what exact means.
#[test]
fn the_tagger_test_suite_verdicts_hold() {
    let mut failures = Vec::new();
    let (mut checked, mut inactive) = (0, 0);
    for v in verdicts() {
        let puzzle = Line::parse(&v.fen, &v.moves, LineForm::Puzzle).unwrap();
        let answer = match v.function.as_str() {
            // The whole tagger, or the endgame rule it calls once per kind.
            "cook" | "piece_endgame" => theme_names(&puzzle).contains(&v.theme.as_str()),
            // The tagger's rule is switched off: it always answers no.
            "overloading" => false,
            name => lichess::rule_function(name).unwrap_or_else(|| panic!("no tagger function {name}"))(&puzzle),
        };
        let expected = if v.active {
            v.verdict
        } else {
            inactive += 1;
            let found = TAGGER_ON_INACTIVE.iter().find(|(id, f, _)| *id == v.id && *f == v.function);
            found.unwrap_or_else(|| panic!("{} {}: no recorded answer", v.id, v.function)).2
        };
        checked += 1;
        if answer != expected {
            failures
                .push(format!("{} {} ({}): Koga's port says {answer}, expected {expected}", v.id, v.theme, v.function));
        }
    }
    assert_eq!(inactive, TAGGER_ON_INACTIVE.len());
    assert!(checked >= 120, "checked {checked}");
    assert!(failures.is_empty(), "{} verdicts fail:\n{}", failures.len(), failures.join("\n"));
}

/// Each theme sits where its kind says: a move theme on a solver ply, the
/// mate patterns and `mate` on the last ply, `mateInN` on the key move, a
/// puzzle theme nowhere.
#[test]
fn themes_sit_on_the_plies_their_kind_names() {
    for row in dev_rows().into_iter().step_by(7) {
        let (id, line) = (&row.id, Line::parse(&row.fen, &row.moves, LineForm::Puzzle).unwrap());
        let themes = lichess::themes(&line).unwrap();
        let names: Vec<&str> = themes.iter().map(|t| t.theme.name()).collect();
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(names, sorted, "{id}: sorted by name");
        for t in themes {
            let ply = t.ply.map(usize::from);
            match t.theme.sits() {
                lichess::Sits::Move => {
                    assert!(ply.is_some_and(|p| p % 2 == 1 && p < line.plies()), "{id}: {t:?}")
                }
                lichess::Sits::MatingMove => assert_eq!(ply, Some(line.plies() - 1), "{id}: {t:?}"),
                lichess::Sits::KeyMove => assert_eq!(ply, Some(1), "{id}: {t:?}"),
                lichess::Sits::Puzzle => assert_eq!(ply, None, "{id}: {t:?}"),
            }
        }
    }
}

/// Plain lines (no setup move) get no themes: Lichess's rules read the
/// setup move.
#[test]
fn plain_lines_get_no_themes() {
    let line =
        Line::parse("4r3/1k6/pp3r2/1b2P2p/3R1p2/P1R2P2/1P4PP/6K1 w - - 0 35", "e5f6 e8e1", LineForm::Line).unwrap();
    assert_eq!(lichess::themes(&line), None);
    assert!(Theme::ALL.iter().all(|t| Theme::from_name(t.name()) == Some(*t)));
}

/// A random legal line from `start`, `plies` long (shorter where the game
/// ends), each move chosen by `picks`.
fn random_line(start: &Chess, picks: &[u16]) -> Option<String> {
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for &pick in picks {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[usize::from(pick) % legal.len()];
        moves.push(UciMove::from_standard(m).to_string());
        pos.play_unchecked(m);
    }
    (moves.len() >= 2).then(|| moves.join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// No legal line makes the port panic, and every theme it gives sits
    /// on a ply of the line.
    #[test]
    fn random_legal_lines_never_panic(picks in proptest::collection::vec(any::<u16>(), 2..14), start in 0usize..4) {
        let starts = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
            "8/2k5/8/3P4/8/8/5K2/8 w - - 0 1",
            "r3k2r/ppp2ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPP2PPP/R3K2R w KQkq - 0 1",
        ];
        let pos: Chess = starts[start].parse::<shakmaty::fen::Fen>().unwrap()
            .into_position(shakmaty::CastlingMode::Standard).unwrap();
        if let Some(moves) = random_line(&pos, &picks) {
            let line = Line::parse(starts[start], &moves, LineForm::Puzzle).unwrap();
            for t in lichess::themes(&line).unwrap() {
                prop_assert!(t.ply.is_none_or(|p| usize::from(p) < line.plies()));
            }
        }
    }
}
