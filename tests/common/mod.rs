//! What the integration tests share: the repository's root, the dev set's
//! rows, the verdicts of Lichess's tagger test suite, and a directory's
//! files with their bytes.
#![allow(dead_code)] // each test crate uses its own part

use std::io::Read;
use std::path::{Path, PathBuf};

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// One dev puzzle as the CSV gives it.
pub struct DevRow {
    pub id: String,
    pub fen: String,
    pub moves: String,
    /// Lichess's published `Themes`.
    pub themes: String,
}

/// Every row of the 20,002-puzzle dev set.
pub fn dev_rows() -> Vec<DevRow> {
    let file = std::fs::File::open(root().join("tests/data/lichess_puzzles_dev.csv.zst")).unwrap();
    let mut text = String::new();
    zstd::Decoder::new(file).unwrap().read_to_string(&mut text).unwrap();
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            DevRow { id: r[0].to_owned(), fen: r[1].to_owned(), moves: r[2].to_owned(), themes: r[7].to_owned() }
        })
        .collect()
}

/// One assertion of Lichess's tagger test suite
/// (`tests/data/lichess_verdicts.jsonl`, described beside it).
#[derive(serde::Deserialize)]
pub struct Verdict {
    pub id: String,
    pub fen: String,
    pub moves: String,
    pub function: String,
    pub theme: String,
    pub verdict: bool,
    pub active: bool,
}

/// Every verdict, in the suite's order.
pub fn verdicts() -> Vec<Verdict> {
    let text = std::fs::read_to_string(root().join("tests/data/lichess_verdicts.jsonl")).unwrap();
    text.lines().filter(|l| !l.trim().is_empty()).map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// Every file under `dir`, by relative path, with its bytes.
pub fn tree(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut files = std::collections::BTreeMap::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let name = path.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
                files.insert(name, std::fs::read(&path).unwrap());
            }
        }
    }
    files
}

/// A column type as `schemas/*.json` spells it.
pub fn dtype_name(dtype: &polars::prelude::DataType) -> String {
    use polars::prelude::DataType;
    match dtype {
        DataType::Int64 => "int64".into(),
        DataType::Int32 => "int32".into(),
        DataType::Boolean => "bool".into(),
        DataType::String => "string".into(),
        DataType::List(inner) => format!("list<{}>", dtype_name(inner)),
        other => format!("{other:?}"),
    }
}
