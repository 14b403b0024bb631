//! End-to-end tests of the pipeline: real runs on the embedded sample and on
//! fixtures, written Parquet read back and checked against `schemas/`.

mod common;

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::{dtype_name, tree};
use koga::input::InputSpec;
use koga::pipeline::Options;
use polars::prelude::*;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fixture(name: &str) -> PathBuf {
    root().join("tests/fixtures").join(name)
}

fn koga() -> Command {
    Command::new(env!("CARGO_BIN_EXE_koga"))
}

fn read(path: &Path) -> DataFrame {
    ParquetReader::new(File::open(path).unwrap()).finish().unwrap()
}

fn options(input: PathBuf) -> Options {
    let mut options = Options::new(InputSpec::Path(input));
    options.progress = false;
    options
}

/// Checks a written table against its schema file: same columns, in order,
/// with the documented types, and no nulls where the schema says not nullable.
fn check_against_schema(df: &DataFrame, schema_file: &str) {
    let text = std::fs::read_to_string(root().join("schemas").join(schema_file)).unwrap();
    let schema: serde_json::Value = serde_json::from_str(&text).unwrap();
    let documented: Vec<(String, String, bool)> = schema["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            assert!(!c["description"].as_str().unwrap().is_empty());
            (
                c["name"].as_str().unwrap().to_owned(),
                c["type"].as_str().unwrap().to_owned(),
                c["nullable"].as_bool().unwrap(),
            )
        })
        .collect();
    let written: Vec<(String, String)> =
        df.columns().iter().map(|c| (c.name().to_string(), dtype_name(c.dtype()))).collect();
    let expected: Vec<(String, String)> = documented.iter().map(|(n, t, _)| (n.clone(), t.clone())).collect();
    assert_eq!(written, expected, "{schema_file} does not match the written file");
    for (name, _, nullable) in &documented {
        if !nullable {
            assert_eq!(df.column(name).unwrap().null_count(), 0, "{schema_file}: {name} has nulls");
        }
    }
}

fn strings(df: &DataFrame, column: &str) -> Vec<Option<String>> {
    let ca = df.column(column).unwrap().str().unwrap().clone();
    (0..ca.len()).map(|i| ca.get(i).map(str::to_owned)).collect()
}

fn string_lists(df: &DataFrame, column: &str) -> Vec<Vec<String>> {
    let list = df.column(column).unwrap().list().unwrap().clone();
    (0..list.len())
        .map(|i| match list.get_as_series(i) {
            None => vec![],
            Some(s) => {
                let s = s.str().unwrap().clone();
                (0..s.len()).map(|j| s.get(j).unwrap().to_owned()).collect()
            }
        })
        .collect()
}

#[test]
fn sample_run_writes_both_tables_matching_the_schemas() {
    let out = tempfile::tempdir().unwrap();
    let summary = koga::annotate_to_parquet(&options(root().join("data/sample.csv.zst")), out.path()).unwrap();
    assert_eq!(summary.rows_read, 2001);
    assert_eq!(summary.ok, 2001);
    assert_eq!(summary.errors, 0);
    let puzzles = read(&out.path().join("puzzles.parquet"));
    let fires = read(&out.path().join("fires.parquet"));
    check_against_schema(&puzzles, "puzzles.json");
    check_against_schema(&fires, "fires.json");
    assert_eq!(puzzles.height(), 2001);
    assert_eq!(fires.height() as u64, summary.fires);
    // Input order is kept.
    let rows: Vec<i64> = puzzles.column("row_number").unwrap().i64().unwrap().into_no_null_iter().collect();
    assert_eq!(rows, (1..=2001).collect::<Vec<i64>>());
    assert_eq!(strings(&puzzles, "puzzle_id")[0].as_deref(), Some("00008"));
    // Nothing is left under temporary names.
    let names: Vec<String> =
        std::fs::read_dir(out.path()).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

#[test]
fn output_is_byte_identical_whatever_the_thread_count() {
    let mut bytes = Vec::new();
    for threads in [1, 2, 3] {
        let out = tempfile::tempdir().unwrap();
        let mut opts = options(root().join("data/sample.csv.zst"));
        opts.threads = threads;
        opts.batch_rows = 300; // several batches and row groups
        koga::annotate_to_parquet(&opts, out.path()).unwrap();
        bytes.push((
            std::fs::read(out.path().join("puzzles.parquet")).unwrap(),
            std::fs::read(out.path().join("fires.parquet")).unwrap(),
        ));
    }
    assert!(bytes[0] == bytes[1], "--threads 1 and --threads 2 differ");
    assert!(bytes[0] == bytes[2], "--threads 1 and --threads 3 differ");
}

#[test]
fn bad_rows_become_error_rows_and_the_run_goes_on() {
    let out = tempfile::tempdir().unwrap();
    let status = koga()
        .args(["annotate", fixture("bad_rows.csv").to_str().unwrap(), "--out", out.path().to_str().unwrap()])
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert!(status.status.success());
    let stderr = String::from_utf8(status.stderr).unwrap();
    assert!(stderr.contains("12 rows read, 2 ok, 10 errors"), "{stderr}");
    let puzzles = read(&out.path().join("puzzles.parquet"));
    check_against_schema(&puzzles, "puzzles.json");
    let errors = strings(&puzzles, "error");
    let expected = [
        None,
        Some("unparsable FEN \"not a fen at all\": invalid board part in fen"),
        Some("impossible position: illegal position: empty board, missing king"),
        Some("malformed UCI move \"e6x7\" at ply 1"),
        Some("illegal move b3b5 at ply 3"),
        Some("empty Moves"),
        Some("no solver move: Moves holds only the opponent's setup move"),
        Some("missing field Moves"),
        Some("missing field PuzzleId"),
        Some("field Rating is not an integer: \"fifteen\""),
        None,
        // A 100,000-character FEN: the message quotes its first 60 characters.
        Some(
            "unparsable FEN \"rnbqkbnrrnbqkbnrrnbqkbnrrnbqkbnrrnbqkbnrrnbqkbnrrnbqkbnrrnbq\" \
             (cut: the first 60 of 100000 characters): invalid board part in fen",
        ),
    ];
    assert_eq!(errors, expected.map(|e| e.map(str::to_owned)).to_vec());
    let status = strings(&puzzles, "status");
    assert_eq!(status.iter().filter(|s| s.as_deref() == Some("error")).count(), 10);
    let ids = strings(&puzzles, "puzzle_id");
    assert_eq!(ids[8], None);
    assert_eq!(ids[10].as_deref(), Some("0000D"));
}

#[test]
fn fatal_inputs_exit_non_zero_with_one_line_and_leave_no_tables() {
    let cases = [
        ("missing.csv", "cannot open"),
        ("empty.csv", "empty input"),
        ("missing_column.csv", "header has no Moves column"),
        ("truncated.csv.zst", "truncated zstd stream after 169 data rows"),
        ("corrupt.csv.zst", "corrupt zstd stream"),
        ("garbage.bin", "not a puzzle CSV"),
    ];
    for (name, message) in cases {
        let out = tempfile::tempdir().unwrap();
        let target = out.path().join("run");
        let result = koga()
            .args(["annotate", fixture(name).to_str().unwrap(), "--out", target.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(!result.status.success(), "{name} should fail");
        let stderr = String::from_utf8(result.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{name}: {stderr}");
        assert!(stderr.contains(name) && stderr.contains(message), "{name}: {stderr}");
        for table in ["puzzles.parquet", "fires.parquet"] {
            assert!(!target.join(table).exists(), "{name} left {table} behind");
        }
        if target.exists() {
            assert_eq!(std::fs::read_dir(&target).unwrap().count(), 0, "{name} left files behind");
        }
    }
}

#[test]
fn crlf_bom_and_unknown_columns_are_read() {
    let out = tempfile::tempdir().unwrap();
    koga::annotate_to_parquet(&options(fixture("crlf_bom_daily.csv")), out.path()).unwrap();
    let puzzles = read(&out.path().join("puzzles.parquet"));
    assert_eq!(strings(&puzzles, "puzzle_id"), vec![Some("000Zo".to_owned())]);
    assert_eq!(strings(&puzzles, "status"), vec![Some("ok".to_owned())]);
    assert_eq!(string_lists(&puzzles, "key_labels"), vec![vec!["mateIn2".to_owned()]]);
    assert_eq!(string_lists(&puzzles, "lichess_themes")[0], ["endgame", "mate", "mateIn2", "operaMate", "short"]);
    let fires = read(&out.path().join("fires.parquet"));
    // mateIn2 on the key move; mate and the Opera mate on the mating move.
    assert_eq!(strings(&fires, "san"), vec![Some("Re1+".to_owned()), Some("Rf1#".to_owned()), Some("Rf1#".to_owned())]);
}

#[test]
fn stdin_and_lines_form() {
    let out = tempfile::tempdir().unwrap();
    let input = std::fs::read(fixture("lines.csv")).unwrap();
    let mut child = koga()
        .args(["annotate", "-", "--lines", "--no-progress", "--out", out.path().to_str().unwrap()])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let result = child.wait_with_output().unwrap();
    assert!(result.status.success(), "{}", String::from_utf8_lossy(&result.stderr));
    let fires = read(&out.path().join("fires.parquet"));
    let labels = strings(&fires, "label");
    assert_eq!(labels, vec![Some("mateIn2".to_owned()), Some("mate".to_owned()), Some("operaMate".to_owned())]);
    let plies: Vec<i32> = fires.column("ply").unwrap().i32().unwrap().into_no_null_iter().collect();
    assert_eq!(plies, vec![0, 2, 2]);
}

#[test]
fn pipeline_file_with_filter_and_limit() {
    let out = tempfile::tempdir().unwrap();
    let pipeline = out.path().join("p.toml");
    let target = out.path().join("run");
    std::fs::write(
        &pipeline,
        format!(
            "input = {:?}\noutput = {:?}\nthreads = 2\nrow_group_rows = 100\nlimit = 500\n[filter]\nmin_rating = 1500\nmax_rating = 1999\n",
            root().join("data/sample.csv.zst"),
            target
        ),
    )
    .unwrap();
    let result = koga().args(["run", pipeline.to_str().unwrap()]).output().unwrap();
    let stderr = String::from_utf8(result.stderr).unwrap();
    assert!(result.status.success(), "{stderr}");
    assert!(stderr.contains("500 rows read"), "{stderr}");
    let puzzles = read(&target.join("puzzles.parquet"));
    let ratings: Vec<i32> = puzzles.column("rating").unwrap().i32().unwrap().into_no_null_iter().collect();
    assert!(!ratings.is_empty() && ratings.len() < 500);
    assert!(ratings.iter().all(|r| (1500..=1999).contains(r)), "{ratings:?}");
    assert!(stderr.contains(&format!("{} filtered out", 500 - ratings.len())), "{stderr}");
}

#[test]
fn cli_rejects_bad_arguments_and_pipeline_files() {
    let result = koga().args(["annotate", "x.csv"]).output().unwrap();
    assert!(!result.status.success());
    assert!(String::from_utf8_lossy(&result.stderr).contains("--out"));
    let dir = tempfile::tempdir().unwrap();
    let pipeline = dir.path().join("bad.toml");
    std::fs::write(&pipeline, "input = \"x\"\noutptu = \"y\"\n").unwrap();
    let result = koga().args(["run", pipeline.to_str().unwrap()]).output().unwrap();
    assert!(!result.status.success());
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(stderr.contains("bad.toml") && stderr.contains("outptu"), "{stderr}");
}

/// The labels that need no tactical judgement must agree with Lichess's own
/// themes on every real puzzle of the dev set.
#[test]
fn simple_labels_agree_with_lichess_themes_on_the_dev_set() {
    let out = tempfile::tempdir().unwrap();
    let summary =
        koga::annotate_to_parquet(&options(root().join("tests/data/lichess_puzzles_dev.csv.zst")), out.path()).unwrap();
    assert_eq!((summary.rows_read, summary.ok), (20_002, 20_002));
    let puzzles = read(&out.path().join("puzzles.parquet"));
    let themes = string_lists(&puzzles, "lichess_themes");
    let key = string_lists(&puzzles, "key_labels");
    let follow = string_lists(&puzzles, "follow_up_labels");
    let length = string_lists(&puzzles, "puzzle_labels");
    let checked = [
        "mate",
        "mateIn1",
        "mateIn2",
        "mateIn3",
        "mateIn4",
        "mateIn5",
        "promotion",
        "underPromotion",
        "castling",
        "enPassant",
        "oneMove",
        "short",
        "long",
        "veryLong",
    ];
    let lengths = ["oneMove", "short", "long", "veryLong"];
    let mut disagreements = Vec::new();
    for i in 0..puzzles.height() {
        // A few older puzzles carry only a phase theme (no length, no
        // motifs at all): Lichess never tagged them, so there is nothing to
        // agree with.
        if !themes[i].iter().any(|t| lengths.contains(&t.as_str())) {
            continue;
        }
        for label in checked {
            let ours = key[i].iter().chain(&follow[i]).chain(&length[i]).any(|l| l == label);
            let theirs = themes[i].iter().any(|t| t == label);
            if ours != theirs {
                disagreements.push((i + 1, label, ours));
            }
        }
    }
    assert!(
        disagreements.is_empty(),
        "{} disagreements, first: {:?}",
        disagreements.len(),
        &disagreements[..disagreements.len().min(10)]
    );
}

#[test]
fn part_files_hold_every_row_once() {
    let out = tempfile::tempdir().unwrap();
    let mut opts = options(root().join("data/sample.csv.zst"));
    opts.batch_rows = 250;
    opts.part_rows = Some(500);
    let summary = koga::annotate_to_parquet(&opts, out.path()).unwrap();
    let dir = out.path().join("puzzles.parquet");
    assert!(dir.is_dir());
    let mut parts: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    parts.sort();
    assert_eq!(parts.len(), 5, "{parts:?}"); // 2001 rows in parts of 500
    assert!(parts[0].ends_with("part-00000.parquet"));
    let mut rows = Vec::new();
    for part in &parts {
        let df = read(part);
        check_against_schema(&df, "puzzles.json");
        rows.extend(df.column("row_number").unwrap().i64().unwrap().into_no_null_iter());
    }
    assert_eq!(rows, (1..=2001).collect::<Vec<i64>>());
    let fire_rows: usize =
        std::fs::read_dir(out.path().join("fires.parquet")).unwrap().map(|e| read(&e.unwrap().path()).height()).sum();
    assert_eq!(fire_rows as u64, summary.fires);
    // Nothing left under temporary names; the manifest marks the run complete.
    assert_eq!(std::fs::read_dir(out.path()).unwrap().count(), 3);
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.path().join("koga-manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["complete"], true);
    let parts = manifest["parts"].as_array().unwrap();
    assert_eq!(parts.len(), 5);
    assert_eq!(parts.iter().map(|p| p["input_rows"].as_u64().unwrap()).sum::<u64>(), 2001);
    assert_eq!(parts.iter().map(|p| p["fires_rows"].as_u64().unwrap()).sum::<u64>(), summary.fires);
}

fn stdout_json(args: &[&str]) -> serde_json::Value {
    let out = koga().args(args).output().unwrap();
    assert!(out.status.success(), "koga {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// `koga labels --format json`: every label with its declared fields, and a
/// doc that exists.
#[test]
fn labels_json_lists_the_vocabulary() {
    let labels = stdout_json(&["labels", "--format", "json"]);
    let labels = labels.as_array().unwrap();
    assert_eq!(labels.len(), koga::label::LABELS.len());
    for (entry, info) in labels.iter().zip(koga::label::LABELS) {
        assert_eq!(entry["name"], info.name);
        assert_eq!(entry["kind"], info.kind.name());
        assert_eq!(entry["family"], info.family.name());
        assert_eq!(entry["lichess"], info.lichess);
        assert_eq!(entry["payoff"], info.payoff);
        let implies: Vec<&str> = info.label.implies().map(koga::Label::name).collect();
        assert_eq!(entry["implies"], serde_json::json!(implies));
        assert_eq!(entry["roles"].as_array().unwrap().len(), info.roles.len());
        assert!(!entry["description"].as_str().unwrap().is_empty());
        let doc = entry["doc"].as_str().unwrap();
        assert!(root().join(doc).is_file(), "{doc} is missing");
    }
    let mate = labels.iter().find(|e| e["name"] == "mate").unwrap();
    assert_eq!(mate["kind"], "line");
    let one = |name: &str| serde_json::json!({"name": name, "holds": "one"});
    assert_eq!(mate["roles"], serde_json::json!([one("mated"), one("moved")]));
    let pinned_defender = labels.iter().find(|e| e["name"] == "pinnedDefender").unwrap();
    assert_eq!(pinned_defender["implies"], serde_json::json!(["pin"]));
    let fork = labels.iter().find(|e| e["name"] == "fork").unwrap();
    assert!(fork["roles"].as_array().unwrap().contains(&serde_json::json!({"name": "targets", "holds": "many"})));
}

/// `schemas/fires.json` documents every role as the vocabulary declares it:
/// one square (a nullable string) or several (a list, `holds: many`).
#[test]
fn the_fires_schema_documents_each_role_as_declared() {
    let text = std::fs::read_to_string(root().join("schemas/fires.json")).unwrap();
    let schema: serde_json::Value = serde_json::from_str(&text).unwrap();
    let columns = schema["columns"].as_array().unwrap();
    for &role in koga::RoleName::ALL {
        let column = columns.iter().find(|c| c["name"] == role.name()).unwrap_or_else(|| panic!("{}", role.name()));
        let (holds, kind) = match role.arity() {
            koga::Arity::One => ("one", "string"),
            koga::Arity::Many => ("many", "list<string>"),
        };
        assert_eq!((column["holds"].as_str(), column["type"].as_str()), (Some(holds), Some(kind)), "{}", role.name());
        assert!(column["description"].as_str().unwrap().starts_with("Role. "), "{}", role.name());
    }
}

/// `koga compare` on the sample: the JSON fields, figures that hold
/// together, and the same report from the CSV and from the Parquet that
/// `koga annotate` wrote of it.
#[test]
fn compare_json_from_csv_and_from_output() {
    let sample = root().join("data/sample.csv.zst");
    let sample = sample.to_str().unwrap();
    let report = stdout_json(&["compare", sample, "--format", "json", "--examples", "fork"]);
    assert_eq!(report["rows"], 2001);
    let tagged = report["tagged"].as_u64().unwrap();
    assert!(tagged > 1900 && tagged <= 2001, "{tagged}");
    let labels = report["labels"].as_array().unwrap();
    assert!(labels.iter().all(|a| koga::Label::from_name(a["label"].as_str().unwrap()).unwrap().info().lichess));
    for a in labels {
        let (l, k, b) = (a["lichess"].as_u64().unwrap(), a["koga"].as_u64().unwrap(), a["both"].as_u64().unwrap());
        assert!(b <= l.min(k), "{a}");
        if k > 0 {
            assert!((a["precision"].as_f64().unwrap() - b as f64 / k as f64).abs() < 1e-9, "{a}");
        }
    }
    let length: u64 = ["oneMove", "short", "long", "veryLong"]
        .iter()
        .map(|n| labels.iter().find(|a| a["label"] == *n).unwrap()["both"].as_u64().unwrap())
        .sum();
    assert_eq!(length, tagged, "every tagged row has exactly one length label, on both sides");
    let fork = labels.iter().find(|a| a["label"] == "fork").unwrap();
    assert!(fork["f1"].as_f64().unwrap() > 0.7, "{fork}");
    let examples = &report["examples"];
    assert_eq!(examples["label"], "fork");
    assert!(!examples["both"].as_array().unwrap().is_empty());

    let out = tempfile::tempdir().unwrap();
    let status =
        koga().args(["annotate", sample, "--no-progress", "--part-rows", "700", "--out"]).arg(out.path()).status();
    assert!(status.unwrap().success());
    let from_parquet =
        stdout_json(&["compare", out.path().to_str().unwrap(), "--format", "json", "--examples", "fork"]);
    assert_eq!(from_parquet, report);

    // Lichess's themes, exactly: the same report from the CSV and from the
    // `themes` column of the Parquet; the rows that differ list their ids.
    let exact = stdout_json(&["compare", sample, "--exact", "--format", "json", "--examples"]);
    let exact_parquet =
        stdout_json(&["compare", out.path().to_str().unwrap(), "--exact", "--format", "json", "--examples"]);
    assert_eq!(exact, exact_parquet);
    assert_eq!(exact["tagged"], report["tagged"]);
    assert!(exact["share"].as_f64().unwrap() >= 0.995, "{exact}");
    let causes = exact["causes"].as_array().unwrap();
    assert!(causes.iter().all(|c| !c["examples"].as_array().unwrap().is_empty()), "{exact}");

    // Without payoff fires: the same from the CSV and from the Parquet, and
    // Koga counts a capture label on fewer puzzles, the Lichess side unchanged.
    let lean = stdout_json(&["compare", sample, "--format", "json", "--without-payoffs"]);
    let lean_parquet = stdout_json(&["compare", out.path().to_str().unwrap(), "--format", "json", "--without-payoffs"]);
    assert_eq!(lean, lean_parquet);
    assert_eq!(
        (&lean["without_payoffs"], &report["without_payoffs"]),
        (&serde_json::json!(true), &serde_json::json!(false))
    );
    let koga_count = |r: &serde_json::Value, label: &str| {
        let a = r["labels"].as_array().unwrap().iter().find(|a| a["label"] == label).unwrap().clone();
        (a["lichess"].as_u64().unwrap(), a["koga"].as_u64().unwrap())
    };
    let (with, without) = (koga_count(&report, "hangingPiece"), koga_count(&lean, "hangingPiece"));
    assert!(with.0 == without.0 && without.1 < with.1, "{with:?} {without:?}");
    assert_eq!(koga_count(&report, "fork"), koga_count(&lean, "fork"));

    let csv = koga().args(["compare", sample, "--format", "csv"]).output().unwrap();
    let text = String::from_utf8(csv.stdout).unwrap();
    assert!(text.starts_with("label,family,lichess,koga,both,precision,recall,f1\n"));
    assert_eq!(text.lines().count(), labels.len() + 1);
    let refused = koga().args(["compare", sample, "--examples", "pinnedDefender"]).output().unwrap();
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("not a Koga label that Lichess also has"));
}

/// A CSV of `rows` puzzles: the embedded sample repeated under new ids.
fn generated_input(dir: &Path, rows: usize) -> PathBuf {
    use std::io::{BufRead, BufReader, Write};
    let sample = zstd::Decoder::new(File::open(root().join("data/sample.csv.zst")).unwrap()).unwrap();
    let mut lines = BufReader::new(sample).lines().map(Result::unwrap);
    let header = lines.next().unwrap();
    let body: Vec<String> = lines.collect();
    let path = dir.join("generated.csv");
    let mut out = std::io::BufWriter::new(File::create(&path).unwrap());
    writeln!(out, "{header}").unwrap();
    for i in 0..rows {
        let line = &body[i % body.len()];
        let rest = &line[line.find(',').unwrap()..];
        writeln!(out, "g{i:07}{rest}").unwrap();
    }
    out.flush().unwrap();
    path
}

/// `koga annotate INPUT --out OUT` started, once it is writing (its
/// temporary files exist): mid-run, for a signal.
fn writing_run(input: &Path, out: &Path, options: &[&str]) -> std::process::Child {
    let child = koga()
        .args(["annotate", input.to_str().unwrap(), "--out", out.to_str().unwrap(), "--no-progress"])
        .args(options)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let tmp = out.join(format!(".puzzles.parquet.tmp-{}", child.id()));
    let started = std::time::Instant::now();
    while !tmp.exists() {
        assert!(started.elapsed().as_secs() < 60, "the run never started writing");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child
}

/// SIGINT and SIGTERM mid-run: the process stops with 130 / 143, says so in
/// one line, and leaves neither temporary nor partial files behind.
#[test]
fn a_signal_stops_the_run_and_leaves_nothing_behind() {
    let work = tempfile::tempdir().unwrap();
    let input = generated_input(work.path(), 200_000);
    for (signal, code, name) in [("-INT", 130, "SIGINT"), ("-TERM", 143, "SIGTERM")] {
        let out = work.path().join(format!("out{signal}"));
        let child = writing_run(&input, &out, &[]);
        std::thread::sleep(std::time::Duration::from_millis(300));
        let sent = Command::new("kill").args([signal, &child.id().to_string()]).status().unwrap();
        assert!(sent.success());
        let result = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&result.stderr);
        assert_eq!(result.status.code(), Some(code), "{name}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{name}: one line: {stderr}");
        assert!(stderr.starts_with(&format!("koga: interrupted by {name} after ")), "{stderr}");
        assert!(stderr.contains("nothing was kept"), "{stderr}");
        let left: Vec<_> = std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert!(left.is_empty(), "{name}: left behind {left:?}");
    }
}

/// Two SIGINTs in a row (an impatient Ctrl-C, or `timeout -s INT`): the
/// second stops the run at once, and neither stop leaves a temporary file,
/// over twenty runs stopped at different moments.
#[test]
fn two_signals_stop_the_run_at_once_and_leave_no_temporary_file() {
    let work = tempfile::tempdir().unwrap();
    let input = generated_input(work.path(), 100_000);
    for run in 0..20u64 {
        let out = work.path().join(format!("out{run}"));
        let child = writing_run(&input, &out, &["--threads", "1"]);
        std::thread::sleep(std::time::Duration::from_millis(run * 7));
        for _ in 0..2 {
            assert!(Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap().success());
        }
        let result = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&result.stderr);
        assert_eq!(result.status.code(), Some(130), "run {run}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "run {run}: one line: {stderr}");
        let left: Vec<_> = std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert!(left.is_empty(), "run {run}: left behind {left:?} ({stderr})");
    }
}

/// An output directory with an earlier run's tables is refused untouched,
/// in one line naming it; `--force` replaces the tables.
#[test]
fn a_non_empty_output_directory_is_refused_unless_forced() {
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("out");
    let sample = root().join("data/sample.csv.zst");
    let annotate = |extra: &[&str]| {
        koga()
            .args(["annotate", sample.to_str().unwrap(), "--out", out.to_str().unwrap(), "--no-progress"])
            .args(["--limit", "50"])
            .args(extra)
            .output()
            .unwrap()
    };
    assert!(annotate(&[]).status.success());
    let before = tree(&out);
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    let refused = annotate(&["--batch-rows", "7"]);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success());
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains(out.to_str().unwrap()) && stderr.contains("--force"), "{stderr}");
    let mut after = tree(&out);
    assert_eq!(after.remove("notes.txt").as_deref(), Some(&b"mine"[..]));
    assert_eq!(after, before, "the refused run changed the old tables");
    let forced = annotate(&["--force"]);
    assert!(forced.status.success(), "{}", String::from_utf8_lossy(&forced.stderr));
}

/// A part-file run stopped by SIGINT keeps its completed parts; `--resume`
/// finishes it, and the directory is byte for byte what an uninterrupted run
/// writes. Resuming against another input, other options or another Koga
/// version is refused.
#[test]
fn an_interrupted_part_run_resumes_to_the_same_bytes() {
    let work = tempfile::tempdir().unwrap();
    let input = generated_input(work.path(), 60_000);
    let args = |out: &Path| {
        vec![
            "annotate".to_owned(),
            input.to_str().unwrap().to_owned(),
            "--out".to_owned(),
            out.to_str().unwrap().to_owned(),
            "--part-rows".to_owned(),
            "4096".to_owned(),
            "--batch-rows".to_owned(),
            "1024".to_owned(),
            "--no-progress".to_owned(),
        ]
    };
    let whole = work.path().join("whole");
    let status = koga().args(args(&whole)).stderr(Stdio::null()).status().unwrap();
    assert!(status.success());

    let stopped = work.path().join("stopped");
    let child = koga().args(args(&stopped)).stderr(Stdio::piped()).spawn().unwrap();
    let staging = stopped.join(".koga-run").join("puzzles.parquet");
    let started = std::time::Instant::now();
    while !staging.join("part-00001.parquet").exists() {
        assert!(started.elapsed().as_secs() < 120, "no part completed");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap().success());
    let result = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert_eq!(result.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("completed parts") && stderr.contains("--resume"), "{stderr}");
    let kept = tree(&stopped);
    assert!(kept.keys().all(|k| k.starts_with(".koga-run/") && !k.ends_with(".tmp")), "{:?}", kept.keys());
    assert!(!kept.contains_key("koga-manifest.json"));

    // Refused: other options, another input, another Koga version.
    let mut other = args(&stopped);
    other[5] = "8192".to_owned();
    other.push("--resume".to_owned());
    let refused = koga().args(&other).output().unwrap();
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("cannot resume: the options differ"));
    let copy = work.path().join("copy.csv");
    let mut bytes = std::fs::read(&input).unwrap();
    bytes.extend_from_slice(b"extra,8/8/8/8/8/8/8/8 w - - 0 1,e2e4 e7e5,,,,,,,\n");
    std::fs::write(&copy, bytes).unwrap();
    let mut moved = args(&stopped);
    moved[1] = copy.to_str().unwrap().to_owned();
    moved.push("--resume".to_owned());
    let refused = koga().args(&moved).output().unwrap();
    assert!(String::from_utf8_lossy(&refused.stderr).contains("cannot resume: the input differs"));
    let manifest_path = stopped.join(".koga-run").join("manifest.json");
    let original = std::fs::read_to_string(&manifest_path).unwrap();
    std::fs::write(&manifest_path, original.replace(env!("CARGO_PKG_VERSION"), "0.0.0-other")).unwrap();
    let mut resume = args(&stopped);
    resume.push("--resume".to_owned());
    let refused = koga().args(&resume).output().unwrap();
    assert!(String::from_utf8_lossy(&refused.stderr).contains("cannot resume: the Koga version differs"));
    std::fs::write(&manifest_path, original).unwrap();
    let nothing = work.path().join("nothing");
    let refused = koga().args(args(&nothing)).arg("--resume").output().unwrap();
    assert!(String::from_utf8_lossy(&refused.stderr).contains("cannot resume: no interrupted run"));
    // The refusals left the stopped run as it was.
    assert_eq!(tree(&stopped), kept);

    let resumed = koga().args(&resume).output().unwrap();
    assert!(resumed.status.success(), "{}", String::from_utf8_lossy(&resumed.stderr));
    let (a, b) = (tree(&whole), tree(&stopped));
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    for (name, bytes) in &a {
        assert!(b[name] == *bytes, "{name} differs after resuming");
    }
}

/// Counts and ratings: thousands of distinct common values in a row group,
/// then rare large ones (a popular puzzle's plays), written and read back
/// unchanged. The integer dictionary once hung here, rehashing the common
/// values into a table too small for them.
#[test]
fn many_distinct_counts_then_large_ones_are_written() {
    use std::io::{BufRead, BufReader, Write};
    let dir = tempfile::tempdir().unwrap();
    let sample = zstd::Decoder::new(File::open(root().join("data/sample.csv.zst")).unwrap()).unwrap();
    let mut lines = BufReader::new(sample).lines().map(Result::unwrap);
    let header = lines.next().unwrap();
    let body: Vec<String> = lines.collect();
    let plays = |i: i64| if i < 3000 { i } else { 100_000 + i };
    let input = dir.path().join("counts.csv");
    let mut out = std::io::BufWriter::new(File::create(&input).unwrap());
    writeln!(out, "{header}").unwrap();
    for i in 0..4000i64 {
        // PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,...
        let fields: Vec<&str> = body[i as usize % body.len()].splitn(8, ',').collect();
        let rating = if i == 3000 { 9000 } else { 400 + i };
        let (id, fen, moves, deviation, popularity, rest) =
            (fields[0], fields[1], fields[2], fields[4], fields[5], fields[7]);
        writeln!(out, "c{i:05}{id},{fen},{moves},{rating},{deviation},{popularity},{},{rest}", plays(i)).unwrap();
    }
    out.flush().unwrap();
    drop(out);

    let dest = dir.path().join("out");
    let mut child = koga()
        .args(["annotate", input.to_str().unwrap(), "--out", dest.to_str().unwrap(), "--no-progress", "--threads", "1"])
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed().as_secs() > 120 {
            child.kill().unwrap();
            panic!("the run did not finish in 120 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert!(status.success());

    let puzzles = read(&dest.join("puzzles.parquet"));
    let column = |name: &str| -> Vec<Option<i64>> {
        puzzles.column(name).unwrap().cast(&DataType::Int64).unwrap().i64().unwrap().iter().collect()
    };
    let expected_plays: Vec<Option<i64>> = (0..4000).map(|i| Some(plays(i))).collect();
    let expected_ratings: Vec<Option<i64>> = (0..4000).map(|i| Some(if i == 3000 { 9000 } else { 400 + i })).collect();
    assert_eq!(column("nb_plays"), expected_plays);
    assert_eq!(column("rating"), expected_ratings);
}
