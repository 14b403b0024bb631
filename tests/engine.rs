//! The engine stage end to end (`koga annotate --engine`): a fake UCI
//! engine (`tests/fixtures/fake_uci.sh`) covers the protocol, timeouts,
//! crashes and paths that are not engines on every machine; the tests
//! that need a real Stockfish skip, saying so, where none is installed.

mod common;

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{dtype_name, tree};
use polars::prelude::*;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn koga() -> Command {
    Command::new(env!("CARGO_BIN_EXE_koga"))
}

fn read(path: &Path) -> DataFrame {
    ParquetReader::new(File::open(path).unwrap()).finish().unwrap()
}

/// The fake engine under `name` (which chooses its behaviour) in `dir`.
fn fake(dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::copy(root().join("tests/fixtures/fake_uci.sh"), &path).unwrap();
    path
}

/// A position where the fake's answers (a1a2, a1a3) are legal at every
/// solver move: White Ra1, Nb1, Kh1 against Nb8, Kh8; the knights go out
/// and back. `rows` such puzzles, then one row that is not a puzzle.
fn input(dir: &Path, rows: usize) -> PathBuf {
    let mut csv = String::from("PuzzleId,FEN,Moves,Rating,Themes\n");
    for i in 0..rows {
        csv.push_str(&format!("p{i:03},1n5k/8/8/8/8/8/8/RN5K b - - 0 1,b8c6 b1c3 c6b8 c3b1,1500,crushing\n"));
    }
    csv.push_str("bad,1n5k/8/8/8/8/8/8/RN5K b - - 0 1,b8c6 a1h8,1500,\n");
    let path = dir.join("fake.csv");
    std::fs::write(&path, csv).unwrap();
    path
}

fn annotate(input: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    koga()
        .args(["annotate", input.to_str().unwrap(), "--out", out.to_str().unwrap(), "--no-progress"])
        .args(extra)
        .output()
        .unwrap()
}

fn strings(df: &DataFrame, column: &str) -> Vec<Option<String>> {
    df.column(column).unwrap().str().unwrap().iter().map(|v| v.map(str::to_owned)).collect()
}

fn ints(df: &DataFrame, column: &str) -> Vec<Option<i32>> {
    df.column(column).unwrap().i32().unwrap().iter().collect()
}

fn bools(df: &DataFrame, column: &str) -> Vec<Option<bool>> {
    df.column(column).unwrap().bool().unwrap().iter().collect()
}

fn int_lists(df: &DataFrame, column: &str) -> Vec<Option<Vec<Option<i32>>>> {
    let list = df.column(column).unwrap().list().unwrap().clone();
    (0..list.len()).map(|i| list.get_as_series(i).map(|s| s.i32().unwrap().iter().collect())).collect()
}

/// Lichess's engine themes: only `--engine` gives them.
const ENGINE_THEMES: [&str; 4] = ["advantage", "crushing", "equality", "zugzwang"];

/// How many of crushing, advantage and equality `themes` holds.
fn scale_themes(themes: &[String]) -> usize {
    themes.iter().filter(|t| ["crushing", "advantage", "equality"].contains(&t.as_str())).count()
}

fn string_lists(df: &DataFrame, column: &str) -> Vec<Option<Vec<String>>> {
    let list = df.column(column).unwrap().list().unwrap().clone();
    (0..list.len())
        .map(|i| {
            list.get_as_series(i).map(|s| {
                let s = s.str().unwrap().clone();
                (0..s.len()).map(|j| s.get(j).unwrap_or("").to_owned()).collect()
            })
        })
        .collect()
}

/// `schemas/puzzles.json` documents the engine's columns (`engine_columns`)
/// after the others, with the types written.
fn check_engine_schema(puzzles: &DataFrame) {
    let text = std::fs::read_to_string(root().join("schemas/puzzles.json")).unwrap();
    let schema: serde_json::Value = serde_json::from_str(&text).unwrap();
    let documented: Vec<(String, String)> = ["columns", "engine_columns"]
        .iter()
        .flat_map(|key| schema[key].as_array().unwrap().clone())
        .map(|c| (c["name"].as_str().unwrap().to_owned(), c["type"].as_str().unwrap().to_owned()))
        .collect();
    let written: Vec<(String, String)> =
        puzzles.columns().iter().map(|c| (c.name().to_string(), dtype_name(c.dtype()))).collect();
    assert_eq!(written, documented, "schemas/puzzles.json does not match an --engine run");
}

fn footer(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap();
    String::from_utf8_lossy(&bytes).into_owned()
}

#[test]
fn the_fake_engine_fills_the_engine_columns() {
    let dir = tempfile::tempdir().unwrap();
    let engine = fake(dir.path(), "fake-uci");
    let out = dir.path().join("out");
    let run = annotate(&input(dir.path(), 3), &out, &["--engine", engine.to_str().unwrap()]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let puzzles = read(&out.join("puzzles.parquet"));
    check_engine_schema(&puzzles);
    let names: Vec<&str> = puzzles.get_column_names().iter().map(|n| n.as_str()).collect();
    assert_eq!(
        names[names.len() - 9..],
        [
            "engine_cp",
            "engine_mate",
            "sound",
            "alt_moves",
            "alt_cp",
            "alt_mate",
            "move_cp",
            "move_mate",
            "engine_error"
        ]
    );
    assert_eq!(ints(&puzzles, "engine_cp"), [Some(900), Some(900), Some(900), None]);
    // +900 before the last solver move: crushing, in `themes` beside the
    // themes from the moves, with no ply.
    let (themes, plies) = (string_lists(&puzzles, "themes"), int_lists(&puzzles, "theme_plies"));
    for row in 0..3 {
        let themes = themes[row].as_ref().unwrap();
        assert_eq!(scale_themes(themes), 1, "{themes:?}");
        let crushing = themes.iter().position(|t| t == "crushing").expect("crushing");
        assert_eq!(plies[row].as_ref().unwrap()[crushing], None);
        assert!(themes.windows(2).all(|w| w[0] < w[1]), "sorted by name: {themes:?}");
    }
    assert_eq!(themes[3], None, "a row in error gets no engine verdict");
    // The engine prefers a1a2 to the puzzle's knight moves: not sound, and
    // a1a2 is the best alternative at both solver moves.
    assert_eq!(bools(&puzzles, "sound"), [Some(false), Some(false), Some(false), None]);
    assert_eq!(string_lists(&puzzles, "alt_moves")[0], Some(vec!["a1a2".to_owned(), "a1a2".to_owned()]));
    assert_eq!(strings(&puzzles, "engine_error"), [None, None, None, None]);
    assert_eq!(strings(&puzzles, "status")[3].as_deref(), Some("error"));
    let meta = footer(&out.join("puzzles.parquet"));
    assert!(meta.contains("koga.engine") && meta.contains("name=Fake UCI 1.0 nodes=100000"), "provenance");
}

/// A solver move that fails the only-move test at the budget is searched
/// again at `--engine-verify-nodes` (ten times the budget by default), and
/// the deeper search decides: the fake puts the puzzle's a1a2 at +300 and
/// a1a3 at +250 at 1,000 nodes or fewer (no single winning move), +900
/// against 0 deeper. `engine_cp` and the themes keep the budgeted score.
#[test]
fn a_move_that_fails_the_only_move_test_gets_a_second_look() {
    let dir = tempfile::tempdir().unwrap();
    let engine = fake(dir.path(), "fake-uci-deep");
    let csv = dir.path().join("rook.csv");
    std::fs::write(&csv, "PuzzleId,FEN,Moves\nrook,1n5k/8/8/8/8/8/8/RN5K b - - 0 1,b8c6 a1a2\n").unwrap();
    let run = |name: &str, extra: &[&str]| {
        let out = dir.path().join(name);
        let mut args = vec!["--engine", engine.to_str().unwrap(), "--engine-nodes", "1000"];
        args.extend_from_slice(extra);
        let run = annotate(&csv, &out, &args);
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
        out
    };
    let (second_look, budget_only) = (run("second", &[]), run("budget", &["--engine-verify-nodes", "0"]));
    let (verified, plain) = (read(&second_look.join("puzzles.parquet")), read(&budget_only.join("puzzles.parquet")));
    assert_eq!(bools(&plain, "sound"), [Some(false)]);
    assert_eq!(int_lists(&plain, "alt_cp"), [Some(vec![Some(250)])]);
    assert_eq!(bools(&verified, "sound"), [Some(true)]);
    assert_eq!(int_lists(&verified, "alt_cp"), [Some(vec![Some(0)])]);
    assert_eq!(int_lists(&verified, "move_cp"), [Some(vec![Some(900)])]);
    assert_eq!(
        (ints(&verified, "engine_cp"), ints(&plain, "engine_cp")),
        (vec![Some(300)], vec![Some(300)]),
        "engine_cp is the budget's"
    );
    // +300 at the budget: advantage by the fitted cuts (400 / 80), not the deeper +900's crushing.
    let themes = string_lists(&verified, "themes")[0].clone().unwrap();
    assert!(themes.contains(&"advantage".to_owned()) && scale_themes(&themes) == 1, "{themes:?}");
    assert!(footer(&second_look.join("puzzles.parquet")).contains("nodes=1000 verify_nodes=10000"), "provenance");
    assert!(footer(&budget_only.join("puzzles.parquet")).contains("nodes=1000 verify_nodes=0"), "provenance");
    // A second look no deeper than the first would never be made: refused.
    let args = ["--engine", engine.to_str().unwrap(), "--engine-nodes", "1000", "--engine-verify-nodes", "1000"];
    let shallow = annotate(&csv, &dir.path().join("shallow"), &args);
    let stderr = String::from_utf8_lossy(&shallow.stderr);
    assert!(!shallow.status.success() && stderr.contains("--engine-verify-nodes must be 0"), "{stderr}");
}

#[test]
fn without_the_engine_nothing_changes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let run = annotate(&input(dir.path(), 3), &out, &[]);
    assert!(run.status.success());
    let puzzles = read(&out.join("puzzles.parquet"));
    assert_eq!(puzzles.width(), koga::table::PUZZLES_COLUMNS.len());
    assert!(!footer(&out.join("puzzles.parquet")).contains("koga.engine"));
    assert!(!footer(&out.join("puzzles.parquet")).contains("engine_nodes"));
}

/// A puzzle the fake's answers (a1a2, a1a3) suit that ends in mate: Black's
/// knight goes out and White's queen mates on the back rank.
const MATE: &str = "mate,1n4k1/5ppp/8/8/8/8/8/R3Q2K b - - 0 1,b8c6 e1e8";
/// The knights go out and back (+900 for the fake: crushing).
const SHUFFLE: &str = "shuffle,1n5k/8/8/8/8/8/8/RN5K b - - 0 1,b8c6 b1c3 c6b8 c3b1";

/// `themes` holds the engine's themes with `--engine` (one of crushing,
/// advantage and equality where the line does not end in mate, none where
/// it does) and none of them without; `koga compare --exact` compares them
/// only where the engine judged, and `koga select --theme crushing` reads
/// them from `themes`, or says it cannot.
#[test]
fn the_engines_themes_are_in_themes_with_the_engine_only() {
    let dir = tempfile::tempdir().unwrap();
    let engine = fake(dir.path(), "fake-uci");
    // Lichess's Themes as the moves give them, advantage where the fake
    // says crushing.
    let csv = dir.path().join("themes.csv");
    std::fs::write(
        &csv,
        format!(
            "PuzzleId,FEN,Moves,Themes\n{SHUFFLE},advantage defensiveMove endgame quietMove short\n\
             {MATE},endgame mate mateIn1 oneMove\n"
        ),
    )
    .unwrap();
    let (with, without) = (dir.path().join("with"), dir.path().join("without"));
    assert!(annotate(&csv, &with, &["--engine", engine.to_str().unwrap()]).status.success());
    assert!(annotate(&csv, &without, &[]).status.success());

    let themes = string_lists(&read(&with.join("puzzles.parquet")), "themes");
    let (shuffle, mate) = (themes[0].as_ref().unwrap(), themes[1].as_ref().unwrap());
    assert_eq!(shuffle, &["crushing", "defensiveMove", "endgame", "quietMove", "short"]);
    assert_eq!(scale_themes(mate), 0, "{mate:?}");
    assert!(mate.contains(&"mateIn1".to_owned()), "{mate:?}");
    let plain = string_lists(&read(&without.join("puzzles.parquet")), "themes");
    for themes in plain.iter().flatten() {
        assert!(themes.iter().all(|t| !ENGINE_THEMES.contains(&t.as_str())), "without --engine: {themes:?}");
    }
    assert_eq!(plain[1], themes[1], "a mate gets no engine theme");

    let compare = |dir: &Path| {
        let run = koga().args(["compare", dir.to_str().unwrap(), "--exact", "--format", "csv"]).output().unwrap();
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
        String::from_utf8(run.stdout).unwrap()
    };
    let judged = compare(&with);
    assert!(judged.contains("\nadvantage,1,0,0,1\n") && judged.contains("\ncrushing,0,1,1,0\n"), "{judged}");
    let unjudged = compare(&without);
    assert!(ENGINE_THEMES.iter().all(|t| !unjudged.contains(t)), "not compared without the engine: {unjudged}");

    // Without published Themes, select reads them from `themes`: from an
    // --engine run only.
    let bare = dir.path().join("bare.csv");
    std::fs::write(&bare, format!("PuzzleId,FEN,Moves\n{SHUFFLE}\n{MATE}\n")).unwrap();
    let (with, without) = (dir.path().join("bare-with"), dir.path().join("bare-without"));
    assert!(annotate(&bare, &with, &["--engine", engine.to_str().unwrap()]).status.success());
    assert!(annotate(&bare, &without, &[]).status.success());
    let select = |dir: &Path, flag: &str| {
        let args = ["select", dir.to_str().unwrap(), flag, "crushing", "--format", "csv"];
        koga().args(args).output().unwrap()
    };
    let picked = select(&with, "--theme");
    assert!(picked.status.success(), "{}", String::from_utf8_lossy(&picked.stderr));
    let ids: Vec<String> = String::from_utf8(picked.stdout)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap().to_owned())
        .collect();
    assert_eq!(ids, ["shuffle"]);
    for flag in ["--theme", "--without-theme"] {
        for input in [without.as_path(), bare.as_path()] {
            let refused = select(input, flag);
            let stderr = String::from_utf8_lossy(&refused.stderr);
            assert!(!refused.status.success(), "{input:?} {flag}");
            assert!(stderr.contains(&format!("{flag} crushing")) && stderr.contains("--engine"), "{stderr}");
        }
    }
}

#[test]
fn a_path_that_is_not_an_engine_is_refused_in_one_line_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("hello.sh");
    std::fs::write(&script, "#!/bin/sh\necho hello\n").unwrap();
    let text = dir.path().join("notes.txt");
    std::fs::write(&text, "not a program").unwrap();
    for path in [script, text, dir.path().join("missing"), dir.path().to_owned()] {
        let out = dir.path().join("out");
        let run = annotate(&input(dir.path(), 1), &out, &["--engine", path.to_str().unwrap(), "--engine-timeout", "2"]);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(!run.status.success(), "{path:?}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains("not a UCI engine"), "{stderr}");
        assert!(!out.exists(), "{path:?}: the output directory was created");
    }
}

/// A pipeline file's `[engine]` section runs the stage as `--engine` does:
/// the same tables; and a path that is no engine is refused the same way.
#[test]
fn a_pipeline_file_runs_the_engine_stage() {
    let dir = tempfile::tempdir().unwrap();
    let engine = fake(dir.path(), "fake-uci");
    let csv = input(dir.path(), 3);
    let by_flag = dir.path().join("by-flag");
    assert!(annotate(&csv, &by_flag, &["--engine", engine.to_str().unwrap(), "--engine-nodes", "5000"])
        .status
        .success());
    let pipeline = |name: &str, engine: &Path| {
        let path = dir.path().join(format!("{name}.toml"));
        let text = format!(
            "input = {:?}\noutput = {:?}\nthreads = 1\n[engine]\npath = {:?}\nnodes = 5000\n",
            csv.to_str().unwrap(),
            dir.path().join(name).to_str().unwrap(),
            engine.to_str().unwrap()
        );
        std::fs::write(&path, text).unwrap();
        koga().args(["run", path.to_str().unwrap(), "--no-progress"]).output().unwrap()
    };
    let run = pipeline("by-file", &engine);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    for table in ["puzzles.parquet", "fires.parquet"] {
        let (flag, file) = (read(&by_flag.join(table)), read(&dir.path().join("by-file").join(table)));
        assert!(flag.equals_missing(&file), "{table} differs");
    }
    assert!(footer(&dir.path().join("by-file/puzzles.parquet")).contains("Fake UCI 1.0"));
    let notes = dir.path().join("notes.txt");
    std::fs::write(&notes, "not a program").unwrap();
    let run = pipeline("refused", &notes);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success() && stderr.lines().count() == 1 && stderr.contains("not a UCI engine"), "{stderr}");
    assert!(!dir.path().join("refused").exists());
}

#[test]
fn an_engine_that_hangs_is_killed_and_the_puzzle_kept_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let engine = fake(dir.path(), "fake-uci-hang");
    let out = dir.path().join("out");
    let started = std::time::Instant::now();
    let run = annotate(
        &input(dir.path(), 2),
        &out,
        &["--engine", engine.to_str().unwrap(), "--engine-timeout", "0.3", "--threads", "1"],
    );
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert!(started.elapsed().as_secs() < 30, "the timeout did not bound the wait");
    let puzzles = read(&out.join("puzzles.parquet"));
    let errors = strings(&puzzles, "engine_error");
    assert_eq!(errors[0].as_deref(), Some("engine no bestmove within 0.3 s (twice)"));
    assert_eq!(strings(&puzzles, "status")[..2], [Some("ok".to_owned()), Some("ok".to_owned())]);
    let key_labels = puzzles.column("key_labels").unwrap().list().unwrap().len();
    assert_eq!(key_labels, 3, "the classification is kept");
}

#[test]
fn an_engine_that_crashes_is_restarted_and_the_puzzle_retried() {
    let dir = tempfile::tempdir().unwrap();
    let once = fake(dir.path(), "fake-uci-crash-once");
    let out = dir.path().join("once");
    let run = annotate(&input(dir.path(), 4), &out, &["--engine", once.to_str().unwrap(), "--threads", "1"]);
    assert!(run.status.success());
    assert!(dir.path().join("fake-uci-crash-once.crashed").exists(), "the fake never crashed");
    let puzzles = read(&out.join("puzzles.parquet"));
    assert_eq!(strings(&puzzles, "engine_error"), [None, None, None, None, None]);

    let always = fake(dir.path(), "fake-uci-crash");
    let out = dir.path().join("always");
    let run = annotate(&input(dir.path(), 2), &out, &["--engine", always.to_str().unwrap()]);
    assert!(run.status.success());
    let errors = strings(&read(&out.join("puzzles.parquet")), "engine_error");
    assert_eq!(errors[0].as_deref(), Some("engine exited while Koga waited for bestmove (twice)"));

    let garbage = fake(dir.path(), "fake-uci-garbage");
    let out = dir.path().join("garbage");
    let run = annotate(&input(dir.path(), 1), &out, &["--engine", garbage.to_str().unwrap()]);
    assert!(run.status.success());
    let errors = strings(&read(&out.join("puzzles.parquet")), "engine_error");
    assert!(errors[0].as_deref().unwrap().starts_with("engine unreadable info line"), "{errors:?}");
}

#[test]
fn illegal_answers_are_errors_not_verdicts() {
    // On real puzzles the fake's a1a2 is illegal: each puzzle is kept, with
    // the reason.
    let dir = tempfile::tempdir().unwrap();
    let engine = fake(dir.path(), "fake-uci");
    let out = dir.path().join("out");
    let sample = root().join("data/sample.csv.zst");
    let run = annotate(&sample, &out, &["--engine", engine.to_str().unwrap(), "--limit", "5"]);
    assert!(run.status.success());
    let puzzles = read(&out.join("puzzles.parquet"));
    for (error, mv) in strings(&puzzles, "engine_error").iter().zip(strings(&puzzles, "moves")) {
        let error = error.as_deref().unwrap();
        assert!(error.contains("illegal move a1a") && error.ends_with("(twice)"), "{mv:?}: {error}");
    }
}

#[test]
fn the_same_bytes_at_any_thread_count_with_the_fake() {
    let dir = tempfile::tempdir().unwrap();
    let engine = fake(dir.path(), "fake-uci");
    let input = input(dir.path(), 40);
    let mut runs = Vec::new();
    for threads in ["1", "3"] {
        let out = dir.path().join(format!("t{threads}"));
        let run =
            annotate(&input, &out, &["--engine", engine.to_str().unwrap(), "--threads", threads, "--batch-rows", "7"]);
        assert!(run.status.success());
        runs.push(tree(&out));
    }
    assert!(runs[0] == runs[1], "--threads 1 and 3 differ");
}

#[test]
fn an_interrupted_engine_run_resumes_to_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let input = input(dir.path(), 60);
    let args = |out: &Path, engine: &Path| {
        let mut args: Vec<String> = ["annotate", input.to_str().unwrap(), "--out", out.to_str().unwrap()]
            .iter()
            .map(|s| s.to_string())
            .collect();
        for a in ["--part-rows", "10", "--batch-rows", "5", "--threads", "1", "--no-progress", "--engine"] {
            args.push(a.to_owned());
        }
        args.push(engine.to_str().unwrap().to_owned());
        args
    };
    let whole = dir.path().join("whole");
    let fast = fake(dir.path(), "fake-uci");
    assert!(koga().args(args(&whole, &fast)).status().unwrap().success());

    // The same answers, slowly: stopped once a part is complete.
    let slow = fake(dir.path(), "fake-uci-slow");
    let stopped = dir.path().join("stopped");
    let child = koga().args(args(&stopped, &slow)).stderr(std::process::Stdio::piped()).spawn().unwrap();
    let first = stopped.join(".koga-run/puzzles.parquet/part-00000.parquet");
    let started = std::time::Instant::now();
    while !first.exists() {
        assert!(started.elapsed().as_secs() < 120, "no part completed");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert!(Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap().success());
    let result = child.wait_with_output().unwrap();
    assert_eq!(result.status.code(), Some(130), "{}", String::from_utf8_lossy(&result.stderr));
    assert!(!stopped.join("koga-manifest.json").exists(), "the run finished before the signal");

    let mut resume = args(&stopped, &fast);
    resume.push("--resume".to_owned());
    let resumed = koga().args(&resume).output().unwrap();
    assert!(resumed.status.success(), "{}", String::from_utf8_lossy(&resumed.stderr));
    assert!(tree(&whole) == tree(&stopped), "the resumed run differs from the whole one");

    // Another budget is another run: refused.
    let other = dir.path().join("other");
    let child = koga().args(args(&other, &slow)).stderr(std::process::Stdio::null()).spawn().unwrap();
    while !other.join(".koga-run/puzzles.parquet/part-00000.parquet").exists() {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    child.wait_with_output().unwrap();
    let mut refused = args(&other, &fast);
    refused.extend(["--resume".to_owned(), "--engine-nodes".to_owned(), "5000".to_owned()]);
    let refused = koga().args(&refused).output().unwrap();
    assert!(String::from_utf8_lossy(&refused.stderr).contains("cannot resume: the options differ"));
}

/// Stockfish where it is installed: `STOCKFISH`, else `stockfish` on the
/// `PATH` or in `/usr/games` (where Debian's package puts it).
fn stockfish() -> Option<PathBuf> {
    let candidates: Vec<PathBuf> = match std::env::var_os("STOCKFISH") {
        Some(path) => vec![path.into()],
        None => std::env::var_os("PATH")
            .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
            .unwrap_or_default()
            .into_iter()
            .chain([PathBuf::from("/usr/games")])
            .map(|dir| dir.join("stockfish"))
            .collect(),
    };
    let found = candidates.into_iter().find(|p| p.is_file());
    if found.is_none() {
        eprintln!("skipped: no Stockfish (apt-get install stockfish, or set STOCKFISH to its path)");
    }
    found
}

#[test]
fn stockfish_gives_the_same_bytes_at_any_thread_count_and_judges_real_puzzles() {
    let Some(stockfish) = stockfish() else { return };
    let dir = tempfile::tempdir().unwrap();
    let sample = root().join("data/sample.csv.zst");
    let mut runs = Vec::new();
    for threads in ["1", "2"] {
        let out = dir.path().join(format!("t{threads}"));
        let run = annotate(
            &sample,
            &out,
            &[
                "--engine",
                stockfish.to_str().unwrap(),
                "--engine-nodes",
                "5000",
                "--limit",
                "12",
                "--threads",
                threads,
                "--batch-rows",
                "5",
            ],
        );
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
        runs.push(tree(&out));
    }
    assert!(runs[0] == runs[1], "--threads 1 and 2 differ with Stockfish");
    let puzzles = read(&dir.path().join("t1/puzzles.parquet"));
    assert_eq!(strings(&puzzles, "engine_error"), vec![None; 12]);
    // A puzzle that ends in mate has no crushing/advantage/equality; every
    // other one has exactly one of them.
    let themes = string_lists(&puzzles, "lichess_themes");
    for (row, computed) in string_lists(&puzzles, "themes").iter().enumerate() {
        let computed = computed.as_ref().unwrap();
        let mates = themes[row].as_ref().unwrap().iter().any(|t| t == "mate");
        assert_eq!(scale_themes(computed), usize::from(!mates), "row {row}: {computed:?}");
    }
}
