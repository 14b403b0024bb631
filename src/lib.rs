//! Koga labels the tactics in chess puzzles, move by move, in bulk.
//!
//! The library's stages, each in its own module and joined in [`pipeline`]:
//!
//! ```text
//! input ──▶ line (replay, SAN) ──▶ tactics::classify ──▶ output (Parquet)
//! ```
//!
//! [`tactics::classify`] is the one entry point of the classifier; the
//! pipeline, `koga explain` and the tests all call it. The classifier and its
//! unit tests build without Parquet (`--no-default-features`).

pub mod annotate;
pub mod arbitrate;
pub mod board;
pub mod compare;
pub mod config;
pub mod engine;
pub mod explain;
pub mod facts;
pub mod fen;
pub mod fingerprint;
pub mod fire;
pub mod inline_vec;
pub mod input;
pub mod interrupt;
pub mod label;
pub mod lichess;
pub mod line;
pub mod manifest;
pub mod mate_scene;
pub mod net;
#[cfg(feature = "parquet")]
pub mod output;
pub mod payoff;
pub mod pipeline;
pub mod role;
pub mod select;
pub mod table;
pub mod tactics;
pub mod threats;

pub use fire::Fire;
pub use label::{Label, LabelSet};
pub use line::{Line, LineForm, RowError};
pub use role::{Arity, RoleName, Roles};
pub use tactics::classify;

/// Annotates `options.input` into Parquet files under `out_dir`.
#[cfg(feature = "parquet")]
pub fn annotate_to_parquet(
    options: &pipeline::Options,
    out_dir: &std::path::Path,
) -> Result<pipeline::Summary, pipeline::RunError> {
    if !options.resume && !options.overwrite {
        output::refuse_to_overwrite(out_dir)?;
    }
    // Only a part-file run keeps a manifest (it reads the input's first MiB).
    let manifest = match options.part_rows {
        Some(_) => options.manifest()?,
        None => Default::default(),
    };
    pipeline::run(options, || {
        output::ParquetSink::create(
            out_dir,
            options.part_rows,
            options.provenance(),
            manifest,
            options.resume,
            options.engine.is_some(),
        )
    })
}
