//! The `koga` command line: parses arguments, calls the library, prints.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use clap::ValueEnum;
use koga::compare::{self, Report};
use koga::config::{PipelineFile, ENGINE_BATCH_ROWS};
use koga::input::{find_puzzle, InputSpec};
use koga::pipeline::{Options, RunError, Summary, DEFAULT_BATCH_ROWS};
use koga::{label, select, Line, LineForm};

/// A command's failure: printed as one line, `koga: error: …`.
type CliResult = Result<(), Box<dyn std::error::Error>>;

#[derive(Clone, Copy, ValueEnum)]
enum EngineRuleArg {
    Fitted,
    Lichess,
}

#[derive(Clone, Copy, ValueEnum)]
enum LabelsFormat {
    /// An aligned table
    Table,
    /// One JSON object per label
    Json,
}

#[derive(Clone, Copy, ValueEnum)]
enum CompareFormat {
    /// An aligned table
    Table,
    /// JSON, with the ratios
    Json,
    /// One CSV line per label
    Csv,
}

#[derive(Clone, Copy, ValueEnum)]
enum OnArg {
    /// The key move (the solver's first)
    Key,
    /// A later solver move
    FollowUp,
    /// Any solver move
    Any,
}

#[derive(Clone, Copy, ValueEnum)]
enum OrderArg {
    /// Input order
    Input,
    /// Rating, lowest first
    Rating,
    /// Rating, highest first
    RatingDown,
    /// Popularity, highest first
    Popularity,
    /// Times played, most first
    Plays,
}

#[derive(Clone, Copy, ValueEnum)]
enum SelectFormat {
    /// One game per puzzle from its FEN, fires in comments with [%cal]/[%csl] arrows and squares
    Pgn,
    /// The Lichess puzzle CSV's own columns
    Csv,
    /// One JSON object per puzzle, with its fires and their squares
    Jsonl,
}

#[derive(Parser)]
#[command(
    name = "koga",
    version,
    about = "Label the tactics in chess puzzles, move by move, in bulk",
    long_about = "Koga streams the Lichess puzzle database (CSV, plain or .zst), runs the tactic \
                  classifier on every solver move, and writes Parquet: puzzles.parquet (one row per \
                  input row) and fires.parquet (one row per label on a move, with the squares that \
                  play a part)."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Annotate a puzzle CSV or Parquet into DIR/puzzles.parquet and DIR/fires.parquet
    Annotate {
        /// Puzzle CSV (plain or zstd-compressed, sniffed from its content), - for stdin, or Parquet: a file or a
        /// directory of them, with the CSV's columns or in the Hugging Face layout
        input: String,
        /// Output directory (created if missing)
        #[arg(long, short, value_name = "DIR")]
        out: PathBuf,
        /// Worker threads (default: one per core)
        #[arg(long, short = 'j', value_name = "N", default_value_t = 0)]
        threads: usize,
        /// Stop after N data rows
        #[arg(long, value_name = "N")]
        limit: Option<u64>,
        /// Rows per batch and per Parquet row group [default: 8192; 1024 with --engine]
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
        batch_rows: Option<u64>,
        /// Input rows are plain lines: the first move is already the judged side's (no setup move)
        #[arg(long)]
        lines: bool,
        /// Write each table as a directory of part files of about N rows (DIR/fires.parquet/part-00000.parquet, …)
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
        part_rows: Option<u64>,
        /// Finish an interrupted --part-rows run into the same DIR: keep its completed parts, annotate the rest
        /// (the same input and options only)
        #[arg(long, requires = "part_rows")]
        resume: bool,
        /// Replace the tables of an earlier run in DIR (a non-empty DIR is refused without it)
        #[arg(long, conflicts_with = "resume")]
        force: bool,
        /// Never draw the progress bar
        #[arg(long)]
        no_progress: bool,
        /// A UCI engine (e.g. /usr/games/stockfish): adds crushing, advantage or equality, and zugzwang, to
        /// `themes`, and engine_cp, engine_mate, sound and each solver move's best alternative to puzzles.parquet
        #[arg(long, value_name = "PATH")]
        engine: Option<PathBuf>,
        /// Nodes per engine search
        #[arg(long, value_name = "N", default_value_t = koga::engine::DEFAULT_NODES, requires = "engine",
              value_parser = clap::value_parser!(u64).range(1..))]
        engine_nodes: u64,
        /// Search a solver move that fails the only-move test again at N nodes, and let the deeper search
        /// decide `sound` there; 0: never [default: 10 × --engine-nodes]
        #[arg(long, value_name = "N", requires = "engine")]
        engine_verify_nodes: Option<u64>,
        /// Seconds an engine may take to answer before it is killed and restarted
        #[arg(long, value_name = "SECONDS", default_value_t = koga::engine::DEFAULT_TIMEOUT.as_secs_f64(),
              requires = "engine")]
        engine_timeout: f64,
        /// Cuts for crushing/advantage/equality: fitted to Lichess's themes for Stockfish 15.1 at the default
        /// budget, or Lichess's own 600/200 centipawns
        #[arg(long, value_enum, default_value = "fitted", requires = "engine")]
        engine_rule: EngineRuleArg,
    },
    /// Run a pipeline file (input, output, threads, row-group size, row filters)
    Run {
        /// A pipeline TOML file, e.g. pipelines/sample.toml
        pipeline: PathBuf,
        /// Replace the tables of an earlier run in the pipeline's output directory
        #[arg(long)]
        force: bool,
        /// Never draw the progress bar
        #[arg(long)]
        no_progress: bool,
    },
    /// Show, ply by ply, the moves and the labels that fire on them
    Explain {
        /// FEN of the position before the first move (or, with --csv, a puzzle id)
        fen_or_id: String,
        /// Space-separated UCI moves (one argument, or several)
        moves: Vec<String>,
        /// Look the puzzle id up in this CSV (plain or .zst) instead of giving a FEN
        #[arg(long, value_name = "CSV")]
        csv: Option<String>,
        /// The first move is already the judged side's (no setup move)
        #[arg(long)]
        lines: bool,
    },
    /// List the labels: name, kind, family, roles, description
    Labels {
        #[arg(long, value_enum, default_value = "table")]
        format: LabelsFormat,
        /// List Lichess's themes instead (the `themes` column): where each sits and Lichess's rule
        #[arg(long)]
        lichess: bool,
    },
    /// Measure agreement with Lichess's Themes: per label, precision, recall and F1; with --exact, how often
    /// the themes computed by Lichess's own rules equal them
    Compare {
        /// A puzzle CSV with a Themes column (the classifier runs on it), or an output directory of `koga annotate`
        input: String,
        #[arg(long, value_enum, default_value = "table")]
        format: CompareFormat,
        /// List puzzle ids where both, only Koga or only Lichess give this label; with --exact, list the ids of
        /// each cause of difference (of this theme's causes only, when one is named)
        #[arg(long, value_name = "LABEL", num_args = 0..=1, default_missing_value = "")]
        examples: Option<String>,
        /// Leave out payoff fires: follow-up captures that only collect what an earlier fire won
        #[arg(long, conflicts_with = "exact")]
        without_payoffs: bool,
        /// Compare the `themes` Koga computes by Lichess's own rules with Themes: the share of tagged rows
        /// equal over the themes Lichess's tagger emits (crushing, advantage, equality and zugzwang only on the
        /// rows of an `--engine` run the engine judged), and the causes of the rest
        #[arg(long)]
        exact: bool,
    },
    /// Pick puzzles by label, where it fires, rating, Lichess theme, popularity and plays, and write them as
    /// PGN (the fires in words and arrows), CSV or JSON lines
    Select(SelectArgs),
}

/// `koga select`'s arguments.
#[derive(clap::Args)]
struct SelectArgs {
    /// A puzzle CSV (plain or .zst) or puzzle Parquet (a file or directory), classified on the way; or an
    /// output directory of `koga annotate`
    input: String,
    /// A label that must fire (repeat: all must), e.g. --label fork --label pin
    #[arg(long = "label", value_name = "LABEL")]
    labels: Vec<String>,
    /// Where the labels must fire
    #[arg(long, value_enum, default_value = "key")]
    on: OnArg,
    /// Count payoff fires too (follow-up captures that only collect what an earlier fire won)
    #[arg(long)]
    payoffs: bool,
    /// Rating range, e.g. 1400-1700 (1500- or -1800 leave an end open); a row without a rating does not
    /// match
    #[arg(long, value_name = "MIN-MAX", conflicts_with_all = ["min_rating", "max_rating"], allow_hyphen_values = true)]
    rating: Option<String>,
    /// Lowest rating
    #[arg(long, value_name = "N")]
    min_rating: Option<i32>,
    /// Highest rating
    #[arg(long, value_name = "N")]
    max_rating: Option<i32>,
    /// A Lichess theme that must be present (repeat: all must): the published Themes where the input has
    /// them, else the `themes` Koga computed by Lichess's rules (crushing, advantage, equality and zugzwang
    /// only in the output of `koga annotate --engine`; a theme the puzzles do not carry is an error)
    #[arg(long = "theme", value_name = "THEME")]
    themes: Vec<String>,
    /// A Lichess theme that must be absent (repeat: none may be present)
    #[arg(long = "without-theme", value_name = "THEME")]
    without_themes: Vec<String>,
    /// Lowest popularity
    #[arg(long, value_name = "N")]
    min_popularity: Option<i32>,
    /// Fewest times played
    #[arg(long, value_name = "N")]
    min_plays: Option<i32>,
    /// Keep the first N matches (in --order)
    #[arg(long, value_name = "N", conflicts_with = "sample")]
    limit: Option<usize>,
    /// Keep N matches chosen at random: the same --seed picks the same puzzles
    #[arg(long, value_name = "N")]
    sample: Option<usize>,
    /// Seed of --sample
    #[arg(long, value_name = "S", default_value_t = 0, requires = "sample")]
    seed: u64,
    /// Order of the puzzles written (and of the first N kept by --limit)
    #[arg(long, value_enum, default_value = "input")]
    order: OrderArg,
    #[arg(long, value_enum, default_value = "pgn")]
    format: SelectFormat,
    /// Write to FILE instead of standard output
    #[arg(long, short, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Write files of at most N puzzles: FILE-001.pgn, FILE-002.pgn, … (64: a Lichess study's chapters)
    #[arg(long, value_name = "N", requires = "out", value_parser = clap::value_parser!(u64).range(1..))]
    split: Option<u64>,
    /// In PGN, your Lichess username as the solver's player tag: a study you import the games into then opens
    /// every chapter from the solver's side
    #[arg(long, value_name = "NAME")]
    lichess_user: Option<String>,
    /// Write over existing files (--out FILE, or the FILE-NNN files of --split)
    #[arg(long, requires = "out")]
    force: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Annotate {
            input,
            out,
            threads,
            limit,
            batch_rows,
            lines,
            part_rows,
            resume,
            force,
            no_progress,
            engine,
            engine_nodes,
            engine_verify_nodes,
            engine_timeout,
            engine_rule,
        } => (|| -> CliResult {
            // A path that is not a UCI engine is refused before any work.
            let engine = engine
                .map(|path| {
                    engine_config(path, engine_nodes, engine_verify_nodes, engine_timeout, engine_rule)
                        .and_then(open_engine)
                })
                .transpose()?;
            let default_rows = if engine.is_some() { ENGINE_BATCH_ROWS } else { DEFAULT_BATCH_ROWS } as u64;
            let options = Options {
                input: InputSpec::from_arg(&input),
                threads,
                limit,
                batch_rows: batch_rows.unwrap_or(default_rows) as usize,
                form: if lines { LineForm::Line } else { LineForm::Puzzle },
                filter: Default::default(),
                progress: !no_progress,
                part_rows,
                resume,
                overwrite: force,
                engine,
            };
            annotate(&options, &out)
        })(),
        Command::Run { pipeline, force, no_progress } => (|| -> CliResult {
            let file = PipelineFile::load(&pipeline)?;
            let mut options = file.options();
            options.progress = !no_progress;
            options.overwrite = force;
            // A path that is not a UCI engine is refused before any work.
            options.engine = file.engine.as_ref().map(|engine| open_engine(engine.config())).transpose()?;
            annotate(&options, &file.output)
        })(),
        Command::Explain { fen_or_id, moves, csv, lines } => {
            explain(&fen_or_id, &moves.join(" "), csv.as_deref(), lines)
        }
        Command::Labels { format, lichess } => {
            print!(
                "{}",
                match (format, lichess) {
                    (LabelsFormat::Table, false) => label::vocabulary_text(),
                    (LabelsFormat::Json, false) => label::vocabulary_json() + "\n",
                    (LabelsFormat::Table, true) => koga::lichess::vocabulary_text(),
                    (LabelsFormat::Json, true) => koga::lichess::vocabulary_json() + "\n",
                }
            );
            Ok(())
        }
        Command::Compare { input, format, examples, without_payoffs, exact: false } => {
            compare(&input, format, examples.as_deref(), without_payoffs)
        }
        Command::Select(args) => select_puzzles(args),
        Command::Compare { input, format, examples, exact: true, .. } => {
            compare_exact(&input, format, examples.as_deref())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => match e.downcast_ref::<RunError>() {
            // Stopped on request: one line, and the shell's status for the signal.
            Some(RunError::Interrupted { signal, .. }) => {
                eprintln!("koga: {e}");
                ExitCode::from(signal.exit_code() as u8)
            }
            _ => {
                eprintln!("koga: error: {e}");
                ExitCode::FAILURE
            }
        },
    }
}

/// The engine stage's configuration from `annotate`'s options.
fn engine_config(
    path: PathBuf,
    nodes: u64,
    verify_nodes: Option<u64>,
    timeout: f64,
    rule: EngineRuleArg,
) -> Result<koga::engine::Config, Box<dyn std::error::Error>> {
    if !(timeout > 0.0 && timeout.is_finite()) {
        return Err(format!("--engine-timeout must be a positive number of seconds, not {timeout}").into());
    }
    let mut config = koga::engine::Config::new(path);
    config.nodes = nodes;
    config.verify_nodes = verify_nodes;
    if let Some(problem) = config.verify_problem() {
        return Err(format!("--engine-verify-nodes {problem}").into());
    }
    config.timeout = std::time::Duration::from_secs_f64(timeout);
    config.rule = match rule {
        EngineRuleArg::Fitted => koga::engine::Rule::Fitted,
        EngineRuleArg::Lichess => koga::engine::Rule::Lichess,
    };
    Ok(config)
}

/// Starts the engine stage; a path that is not a UCI engine is refused here.
fn open_engine(
    config: koga::engine::Config,
) -> Result<std::sync::Arc<koga::engine::Engine>, Box<dyn std::error::Error>> {
    Ok(std::sync::Arc::new(koga::engine::Engine::open(config)?))
}

fn annotate(options: &Options, out: &std::path::Path) -> CliResult {
    // Ctrl-C or SIGTERM: the pipeline stops between batches and removes its
    // temporary files; a second signal exits at once.
    koga::interrupt::watch()?;
    let result = koga::annotate_to_parquet(options, out);
    koga::interrupt::finishing();
    let summary: Summary = result?;
    eprintln!("koga: {summary} -> {}", out.display());
    Ok(())
}

fn explain(fen_or_id: &str, moves: &str, csv: Option<&str>, lines: bool) -> CliResult {
    let form = if lines { LineForm::Line } else { LineForm::Puzzle };
    let (fen, moves) = match csv {
        None => (fen_or_id.to_owned(), moves.to_owned()),
        Some(csv) => find_puzzle(&InputSpec::from_arg(csv), fen_or_id)?,
    };
    let line = Line::parse(&fen, &moves, form)?;
    print!("{}", koga::explain::explain(&line));
    Ok(())
}

fn compare(input: &str, format: CompareFormat, examples: Option<&str>, without_payoffs: bool) -> CliResult {
    if examples == Some("") {
        return Err("--examples needs a label (or --exact)".into());
    }
    let examples = examples.map(compare::examples_label).transpose()?;
    let options = compare::CompareOptions { examples, without_payoffs };
    let path = std::path::Path::new(input);
    let report: Report = if koga::output::is_output_dir(path) {
        compare::compare_output(path, options)?
    } else {
        compare::compare_csv(&InputSpec::from_arg(input), options)?
    };
    print_report(&report, format);
    Ok(())
}

fn compare_exact(input: &str, format: CompareFormat, examples: Option<&str>) -> CliResult {
    let theme = match examples {
        Some(name) if !name.is_empty() => Some(koga::lichess::Theme::from_name(name).ok_or_else(|| {
            label::unknown_name_message(
                name,
                "theme Lichess's tagger emits",
                koga::lichess::Theme::NAMES.iter().copied(),
                "`koga labels --lichess`",
            )
        })?),
        _ => None,
    };
    let path = std::path::Path::new(input);
    let mut report = if koga::output::is_output_dir(path) {
        compare::compare_output_exact(path, examples.is_some())?
    } else {
        compare::compare_csv_exact(&InputSpec::from_arg(input), examples.is_some())?
    };
    if let Some(theme) = theme {
        report.causes.retain(|c| c.theme == theme);
    }
    print_report(&report, format);
    Ok(())
}

fn select_puzzles(args: SelectArgs) -> CliResult {
    let rating = match &args.rating {
        Some(range) => select::rating_range(range)?,
        None => select::rating_bounds(args.min_rating, args.max_rating)?,
    };
    let themes = |names: &[String]| names.iter().map(|t| select::theme_named(t)).collect::<Result<Vec<_>, _>>();
    let criteria = select::Criteria {
        labels: args.labels.iter().map(|name| select::label_named(name)).collect::<Result<_, _>>()?,
        on: match args.on {
            OnArg::Key => select::On::Key,
            OnArg::FollowUp => select::On::FollowUp,
            OnArg::Any => select::On::Any,
        },
        payoffs: args.payoffs,
        rating,
        themes: themes(&args.themes)?,
        without_themes: themes(&args.without_themes)?,
        min_popularity: args.min_popularity,
        min_plays: args.min_plays,
    };
    let pick = match (args.limit, args.sample) {
        (_, Some(n)) => select::Pick::Sample { n, seed: args.seed },
        (Some(n), None) => select::Pick::First(n),
        (None, None) => select::Pick::All,
    };
    let order = match args.order {
        OrderArg::Input => select::Order::Input,
        OrderArg::Rating => select::Order::Rating,
        OrderArg::RatingDown => select::Order::RatingDown,
        OrderArg::Popularity => select::Order::Popularity,
        OrderArg::Plays => select::Order::Plays,
    };
    let format = match args.format {
        SelectFormat::Pgn => select::export::Format::Pgn,
        SelectFormat::Csv => select::export::Format::Csv,
        SelectFormat::Jsonl => select::export::Format::Jsonl,
    };
    if let Some(out) = &args.out {
        select::export::check_destination(out, args.split, args.force)?;
    }
    let path = std::path::Path::new(&args.input);
    let selection = if koga::output::is_output_dir(path) {
        select::select_output(path, &criteria, order, pick)?
    } else {
        select::select_csv(&InputSpec::from_arg(&args.input), &criteria, order, pick)?
    };
    write_selection(&selection, format, args.out.as_deref(), args.split, args.lichess_user.as_deref())
}

/// Writes a selection where `--out` says, and its summary line.
fn write_selection(
    selection: &select::Selection,
    format: select::export::Format,
    out: Option<&std::path::Path>,
    split: Option<u64>,
    lichess_user: Option<&str>,
) -> CliResult {
    let written = match out {
        None => {
            let stdout = std::io::stdout();
            select::export::write(&mut stdout.lock(), format, &selection.puzzles, lichess_user)?;
            "standard output".to_owned()
        }
        Some(out) => select::export::write_files(out, format, &selection.puzzles, split, lichess_user)?,
    };
    let selected = selection.puzzles.len();
    if selection.matched == 0 {
        eprintln!("koga: no puzzle matched; nothing selected -> {written}");
    } else if selection.complete {
        eprintln!("koga: {} puzzles matched, {selected} selected -> {written}", selection.matched);
    } else {
        eprintln!("koga: the first {selected} matches selected (the rest of the input not read) -> {written}");
    }
    Ok(())
}

/// Prints a comparison report in the format asked for.
fn print_report(report: &impl compare::Render, format: CompareFormat) {
    print!(
        "{}",
        match format {
            CompareFormat::Table => report.to_text(),
            CompareFormat::Json => report.to_json() + "\n",
            CompareFormat::Csv => report.to_csv(),
        }
    );
}
