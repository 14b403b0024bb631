//! Pipeline files: a run described in TOML, executed by `koga run`.
//!
//! ```toml
//! input = "data/sample.csv.zst"   # a path, or "-" for standard input
//! output = "out/sample"           # directory for puzzles.parquet and fires.parquet
//! threads = 0                     # 0: one worker per core
//! row_group_rows = 8192          # rows per batch and Parquet row group
//! form = "puzzle"                 # "puzzle" (Lichess layout) or "line"
//! limit = 1000                    # optional: stop after this many rows
//! part_rows = 1000000             # optional: each table a directory of part files
//!
//! [filter]                        # optional row filters
//! min_rating = 1500
//! max_rating = 2000
//!
//! [engine]                        # optional: the engine stage (`--engine`)
//! path = "/usr/games/stockfish"
//! nodes = 100000                  # per search (the default)
//! verify_nodes = 1000000          # a second look at a move that fails the
//!                                 # only-move test (default: 10 × nodes; 0: none)
//! timeout_seconds = 60            # per answer, then a restart (the default)
//! rule = "fitted"                 # or "lichess": Lichess's literal cuts
//! ```
//!
//! With an `[engine]` section, `row_group_rows` defaults to 1,024, as
//! `koga annotate --engine` does.
//!
//! Relative paths are taken from the directory `koga run` is started in (the
//! repository root, for the make targets).

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::annotate::RowFilter;
use crate::input::InputSpec;
use crate::line::LineForm;
use crate::pipeline::{Options, DEFAULT_BATCH_ROWS};

#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PipelineFile {
    pub input: String,
    pub output: PathBuf,
    #[serde(default)]
    pub threads: usize,
    /// Rows per batch and row group; `None`: [`PipelineFile::batch_rows`]
    /// picks the default.
    #[serde(default)]
    pub row_group_rows: Option<usize>,
    #[serde(default)]
    pub form: Form,
    #[serde(default)]
    pub limit: Option<u64>,
    #[serde(default)]
    pub part_rows: Option<u64>,
    #[serde(default)]
    pub filter: Filter,
    #[serde(default)]
    pub engine: Option<EngineSection>,
}

/// The `[engine]` section: the options of `koga annotate --engine`.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct EngineSection {
    pub path: PathBuf,
    #[serde(default)]
    pub nodes: Option<u64>,
    #[serde(default)]
    pub verify_nodes: Option<u64>,
    #[serde(default)]
    pub timeout_seconds: Option<f64>,
    #[serde(default)]
    pub rule: crate::engine::Rule,
}

impl EngineSection {
    /// The engine stage's configuration (checked when the file is parsed).
    pub fn config(&self) -> crate::engine::Config {
        let mut config = crate::engine::Config::new(&self.path);
        if let Some(nodes) = self.nodes {
            config.nodes = nodes;
        }
        config.verify_nodes = self.verify_nodes;
        if let Some(seconds) = self.timeout_seconds {
            config.timeout = std::time::Duration::from_secs_f64(seconds);
        }
        config.rule = self.rule;
        config
    }
}

/// Rows per batch with the engine stage: a batch is written when its last
/// puzzle is judged, and an engine judges a few puzzles a second.
pub const ENGINE_BATCH_ROWS: usize = 1024;

#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "lowercase")]
pub enum Form {
    #[default]
    Puzzle,
    Line,
}

#[derive(Debug, Clone, Deserialize, PartialEq, Eq, Default)]
#[serde(deny_unknown_fields)]
pub struct Filter {
    pub min_rating: Option<i32>,
    pub max_rating: Option<i32>,
}

/// What is wrong with a pipeline file.
#[derive(Debug)]
pub enum ConfigError {
    Read(std::io::Error),
    Toml(toml::de::Error),
    /// Parses, but says something that cannot be run.
    Invalid(String),
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ConfigError::Read(e) => write!(f, "cannot read pipeline file: {e}"),
            ConfigError::Toml(e) => f.write_str(e.message()),
            ConfigError::Invalid(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for ConfigError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ConfigError::Read(e) => Some(e),
            ConfigError::Toml(e) => Some(e),
            ConfigError::Invalid(_) => None,
        }
    }
}

/// A pipeline file that cannot be read or says something invalid.
#[derive(Debug)]
pub struct PipelineFileError {
    pub path: std::path::PathBuf,
    pub source: ConfigError,
}

impl std::fmt::Display for PipelineFileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.source)
    }
}

impl std::error::Error for PipelineFileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

impl PipelineFile {
    pub fn load(path: &Path) -> Result<PipelineFile, PipelineFileError> {
        let config = |source| PipelineFileError { path: path.to_owned(), source };
        let text = std::fs::read_to_string(path).map_err(|e| config(ConfigError::Read(e)))?;
        PipelineFile::parse(&text).map_err(config)
    }

    pub fn parse(text: &str) -> Result<PipelineFile, ConfigError> {
        let file: PipelineFile = toml::from_str(text).map_err(ConfigError::Toml)?;
        if file.row_group_rows == Some(0) {
            return Err(ConfigError::Invalid("row_group_rows must be at least 1".into()));
        }
        if let (Some(lo), Some(hi)) = (file.filter.min_rating, file.filter.max_rating) {
            if lo > hi {
                return Err(ConfigError::Invalid(format!("filter.min_rating {lo} is above filter.max_rating {hi}")));
            }
        }
        if let Some(engine) = &file.engine {
            if engine.nodes == Some(0) {
                return Err(ConfigError::Invalid("engine.nodes must be at least 1".into()));
            }
            if let Some(seconds) = engine.timeout_seconds.filter(|s| !(*s > 0.0 && s.is_finite())) {
                return Err(ConfigError::Invalid(format!(
                    "engine.timeout_seconds must be a positive number of seconds, not {seconds}"
                )));
            }
            // After the timeout's check: `config()` reads the timeout.
            if let Some(problem) = engine.config().verify_problem() {
                return Err(ConfigError::Invalid(format!("engine.verify_nodes {problem}")));
            }
        }
        Ok(file)
    }

    /// Rows per batch and row group: as the file says, else 8,192, or
    /// 1,024 with the engine stage.
    pub fn batch_rows(&self) -> usize {
        let default = if self.engine.is_some() { ENGINE_BATCH_ROWS } else { DEFAULT_BATCH_ROWS };
        self.row_group_rows.unwrap_or(default)
    }

    /// The run options this file describes, all but the engine stage,
    /// which its caller starts from [`PipelineFile::engine`] (starting an
    /// engine can fail, and is the caller's to report).
    pub fn options(&self) -> Options {
        Options {
            input: InputSpec::from_arg(&self.input),
            threads: self.threads,
            limit: self.limit,
            batch_rows: self.batch_rows(),
            form: match self.form {
                Form::Puzzle => LineForm::Puzzle,
                Form::Line => LineForm::Line,
            },
            filter: RowFilter { min_rating: self.filter.min_rating, max_rating: self.filter.max_rating },
            progress: true,
            part_rows: self.part_rows.filter(|&n| n > 0),
            resume: false,
            overwrite: false,
            engine: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_full_file() {
        let file = PipelineFile::parse(
            "input = \"a.csv.zst\"\noutput = \"out/a\"\nthreads = 2\nrow_group_rows = 100\nform = \"line\"\nlimit = 5\n[filter]\nmin_rating = 1000\nmax_rating = 2000\n",
        )
        .unwrap();
        let options = file.options();
        assert_eq!(options.threads, 2);
        assert_eq!(options.batch_rows, 100);
        assert_eq!(options.form, LineForm::Line);
        assert_eq!(options.limit, Some(5));
        assert_eq!(options.filter, RowFilter { min_rating: Some(1000), max_rating: Some(2000) });
        assert_eq!(file.output, PathBuf::from("out/a"));
    }

    #[test]
    fn defaults_and_errors() {
        let file = PipelineFile::parse("input = \"-\"\noutput = \"o\"\n").unwrap();
        assert_eq!(file.options().input, InputSpec::Stdin);
        assert_eq!(file.options().batch_rows, DEFAULT_BATCH_ROWS);
        assert!(PipelineFile::parse("output = \"o\"").unwrap_err().to_string().contains("input"));
        assert!(PipelineFile::parse("input = \"a\"\noutput = \"o\"\nthread = 2")
            .unwrap_err()
            .to_string()
            .contains("thread"));
        assert!(PipelineFile::parse("input = \"a\"\noutput = \"o\"\n[filter]\nmin_rating = 3\nmax_rating = 2")
            .unwrap_err()
            .to_string()
            .contains("above"));
    }

    #[test]
    fn an_engine_section_configures_the_stage() {
        let file = PipelineFile::parse(
            "input = \"a\"\noutput = \"o\"\n[engine]\npath = \"/usr/games/stockfish\"\nnodes = 5000\nverify_nodes = 0\ntimeout_seconds = 2.5\nrule = \"lichess\"\n",
        )
        .unwrap();
        let config = file.engine.as_ref().unwrap().config();
        assert_eq!(config.path, PathBuf::from("/usr/games/stockfish"));
        assert_eq!(config.nodes, 5000);
        assert_eq!(config.verify_budget(), 0);
        assert_eq!(config.timeout, std::time::Duration::from_secs_f64(2.5));
        assert_eq!(config.rule, crate::engine::Rule::Lichess);
        // Batches shrink with the engine, unless the file says otherwise.
        assert_eq!(file.options().batch_rows, ENGINE_BATCH_ROWS);
        let sized = PipelineFile::parse("input = \"a\"\noutput = \"o\"\nrow_group_rows = 64\n[engine]\npath = \"e\"\n");
        assert_eq!(sized.unwrap().options().batch_rows, 64);
        // Unset: the command line's defaults.
        let config = PipelineFile::parse("input = \"a\"\noutput = \"o\"\n[engine]\npath = \"e\"\n")
            .unwrap()
            .engine
            .unwrap()
            .config();
        assert_eq!(config, crate::engine::Config::new("e"));
        assert_eq!(config.verify_budget(), 10 * crate::engine::DEFAULT_NODES);
    }

    #[test]
    fn a_bad_engine_section_is_refused_with_its_reason() {
        let error = |engine: &str| {
            PipelineFile::parse(&format!("input = \"a\"\noutput = \"o\"\n[engine]\n{engine}\n"))
                .unwrap_err()
                .to_string()
        };
        assert!(error("nodes = 5").contains("path"), "{}", error("nodes = 5"));
        assert!(error("path = \"e\"\nnodes = 0").contains("engine.nodes must be at least 1"));
        assert!(error("path = \"e\"\nnodes = 5000\nverify_nodes = 5000").contains(
            "engine.verify_nodes must be 0 (no second look) or more than the 5000 nodes per search, not 5000"
        ));
        assert!(error("path = \"e\"\ntimeout_seconds = -1").contains("positive number of seconds, not -1"));
        assert!(error("path = \"e\"\nrule = \"strict\"").contains("fitted"));
        assert!(error("path = \"e\"\nnode = 5").contains("node"));
    }

    #[test]
    fn shipped_pipelines_parse() {
        for name in ["sample", "lichess"] {
            let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("pipelines/{name}.toml"));
            PipelineFile::load(&path).unwrap();
        }
    }
}
