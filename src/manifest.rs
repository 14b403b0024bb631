//! The manifest of a part-file run (`--part-rows`): what was asked for and
//! which parts are complete, so that an interrupted run can be resumed
//! (`--resume`) and a finished one is marked as such.
//!
//! While a run is going, its parts and its manifest live in
//! `DIR/.koga-run/`; a stopped run leaves its completed parts there. When the
//! run finishes, the tables move to `DIR/puzzles.parquet/` and
//! `DIR/fires.parquet/`, and `DIR/koga-manifest.json` says `"complete": true`:
//! the marker a downstream job waits for.

use std::fmt;
use std::fs;
use std::io::{self, Read};
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::fingerprint::Fnv1a;

/// Where a part-file run keeps its parts until it finishes, inside the
/// output directory.
pub const STAGING_DIR: &str = ".koga-run";
/// The manifest's name, in the staging directory while the run goes on.
pub const MANIFEST_FILE: &str = "manifest.json";
/// The finished run's manifest, in the output directory.
pub const FINISHED_MANIFEST_FILE: &str = "koga-manifest.json";

/// How much of the input the fingerprint reads.
const FINGERPRINT_BYTES: u64 = 1 << 20;

/// Which input a run read: enough to refuse resuming against another one.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputIdentity {
    /// The file name (`-` for standard input).
    pub name: String,
    pub size: u64,
    /// FNV-1a (64 bits) of the first MiB, in hex.
    pub fingerprint: String,
}

impl InputIdentity {
    pub fn of_file(path: &Path) -> io::Result<InputIdentity> {
        let size = fs::metadata(path)?.len();
        let mut head = Vec::new();
        fs::File::open(path)?.take(FINGERPRINT_BYTES).read_to_end(&mut head)?;
        let mut hash = Fnv1a::default();
        hash.write(&head);
        let name = path.file_name().unwrap_or(path.as_os_str()).to_string_lossy().into_owned();
        Ok(InputIdentity { name, size, fingerprint: hash.hex() })
    }

    /// Standard input: it cannot be read twice, so a run on it cannot resume.
    pub fn stdin() -> InputIdentity {
        InputIdentity { name: "-".to_owned(), size: 0, fingerprint: String::new() }
    }
}

/// One completed part: the same input rows in both tables.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartRecord {
    /// Its number: `part-{part:05}.parquet` in each table.
    pub part: usize,
    /// The `row_number` of its first input row (1-based).
    pub first_row: u64,
    /// Input rows it covers (filtered rows included).
    pub input_rows: u64,
    pub puzzles_rows: u64,
    pub fires_rows: u64,
}

/// A part-file run's manifest.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    pub koga_version: String,
    pub vocabulary: String,
    /// Both tables' columns, by name: parts of a build that writes other
    /// columns cannot make one table with this one's (a manifest from
    /// before this field reads as none, and is refused so).
    #[serde(default)]
    pub columns: String,
    pub input: InputIdentity,
    /// The options that shape the output, as the Parquet files record them.
    pub options: String,
    /// The completed parts, in order.
    pub parts: Vec<PartRecord>,
    /// The run finished: every input row is in a part.
    pub complete: bool,
}

/// Why a run cannot be resumed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResumeRefused(pub String);

impl fmt::Display for ResumeRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot resume: {}", self.0)
    }
}

impl std::error::Error for ResumeRefused {}

impl Manifest {
    /// Input rows the completed parts cover.
    pub fn rows_done(&self) -> u64 {
        self.parts.iter().map(|p| p.input_rows).sum()
    }

    /// Whether the interrupted run `self` may be finished by a run that
    /// would write `fresh` (same Koga, vocabulary, input and options).
    pub fn check_resumable(&self, fresh: &Manifest) -> Result<(), ResumeRefused> {
        let refuse = |what: &str, then: &str, now: &str| {
            Err(ResumeRefused(format!("the {what} differs from the interrupted run's ({then} then, {now} now)")))
        };
        if fresh.input.name == "-" {
            return Err(ResumeRefused("standard input cannot be read again; resume needs a file".to_owned()));
        }
        if self.complete {
            return Err(ResumeRefused("the run is already complete".to_owned()));
        }
        if self.koga_version != fresh.koga_version {
            return refuse("Koga version", &self.koga_version, &fresh.koga_version);
        }
        if self.vocabulary != fresh.vocabulary {
            return refuse("label vocabulary", &self.vocabulary, &fresh.vocabulary);
        }
        if self.columns != fresh.columns {
            return refuse("output's columns", &self.columns, &fresh.columns);
        }
        if self.input != fresh.input {
            let show = |i: &InputIdentity| format!("{}, {} bytes, fingerprint {}", i.name, i.size, i.fingerprint);
            return refuse("input", &show(&self.input), &show(&fresh.input));
        }
        if self.options != fresh.options {
            return refuse("options", &self.options, &fresh.options);
        }
        Ok(())
    }

    pub fn read(path: &Path) -> Result<Manifest, ResumeRefused> {
        let text = fs::read_to_string(path)
            .map_err(|e| ResumeRefused(format!("no interrupted run to resume ({}: {e})", path.display())))?;
        serde_json::from_str(&text)
            .map_err(|e| ResumeRefused(format!("{} is not a Koga manifest: {e}", path.display())))
    }

    /// Writes the manifest under a temporary name, then renames it into
    /// place: a reader never sees half a manifest.
    pub fn write(&self, path: &Path) -> io::Result<()> {
        let tmp = path.with_extension("json.tmp");
        fs::write(&tmp, serde_json::to_string_pretty(self).expect("plain data") + "\n")?;
        fs::rename(&tmp, path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest() -> Manifest {
        Manifest {
            koga_version: "0.1.0".into(),
            vocabulary: "70-abc".into(),
            columns: "puzzle_id fen | puzzle_id label".into(),
            input: InputIdentity { name: "a.csv".into(), size: 10, fingerprint: "f".into() },
            options: "form=puzzle".into(),
            parts: vec![PartRecord { part: 0, first_row: 1, input_rows: 5, puzzles_rows: 5, fires_rows: 9 }],
            complete: false,
        }
    }

    #[test]
    fn resuming_needs_the_same_run() {
        let then = manifest();
        let same = Manifest { parts: vec![], ..manifest() };
        assert_eq!(then.check_resumable(&same), Ok(()));
        assert_eq!(then.rows_done(), 5);
        let cases = [
            (Manifest { koga_version: "0.2.0".into(), ..same.clone() }, "Koga version"),
            (Manifest { vocabulary: "71-def".into(), ..same.clone() }, "label vocabulary"),
            (Manifest { columns: "puzzle_id fen engine_cp | puzzle_id label".into(), ..same.clone() }, "columns"),
            (Manifest { input: InputIdentity { size: 11, ..same.input.clone() }, ..same.clone() }, "input"),
            (Manifest { options: "form=lines".into(), ..same.clone() }, "options"),
            (Manifest { input: InputIdentity::stdin(), ..same.clone() }, "standard input"),
        ];
        for (fresh, what) in cases {
            let refused = then.check_resumable(&fresh).unwrap_err().to_string();
            assert!(refused.starts_with("cannot resume: ") && refused.contains(what), "{refused}");
        }
        let done = Manifest { complete: true, ..manifest() };
        assert!(done.check_resumable(&same).unwrap_err().to_string().contains("already complete"));
    }

    #[test]
    fn manifests_round_trip_and_fingerprints_see_the_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(MANIFEST_FILE);
        manifest().write(&path).unwrap();
        assert_eq!(Manifest::read(&path).unwrap(), manifest());
        let (a, b) = (dir.path().join("a.csv"), dir.path().join("b.csv"));
        fs::write(&a, "PuzzleId,FEN,Moves\nx,y,z\n").unwrap();
        fs::write(&b, "PuzzleId,FEN,Moves\nx,y,Z\n").unwrap();
        let (ia, ib) = (InputIdentity::of_file(&a).unwrap(), InputIdentity::of_file(&b).unwrap());
        assert_eq!(ia.size, ib.size);
        assert_ne!(ia.fingerprint, ib.fingerprint);
        assert!(Manifest::read(&dir.path().join("none.json")).unwrap_err().to_string().contains("no interrupted run"));
    }
}
