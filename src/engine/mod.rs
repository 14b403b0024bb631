//! The optional engine stage (`koga annotate --engine PATH`): a UCI engine
//! judges each puzzle where Lichess used one.
//!
//! Per puzzle, with one engine of a pool ([`Engine`]), after `ucinewgame`:
//!
//! - **At every solver move**, a MultiPV 2 search of the position before it:
//!   the engine's best move other than the puzzle's (`alt_moves`, with its
//!   score for the solver in `alt_cp`/`alt_mate`), and whether the
//!   puzzle's move is the only one, by Lichess's generator's criterion
//!   ([`only_move`]), on Lichess's scale by default ([`Rule::scale`]:
//!   Stockfish 15.1's centipawns read literally make the 0.7 margin flag
//!   puzzles whose move wins +4.7 against +0.2). A move that fails is
//!   searched again deeper ([`Config::verify_budget`]), and that search
//!   decides. `sound` holds when every solver move is.
//! - **`engine_cp`/`engine_mate`**: the best score, for the solver, at the
//!   position before the last solver move. That is where Lichess's
//!   generator takes the `cp` its tagger reads (`generator/generator.py`:
//!   `cp = solution[len(solution) - 1].best.score.score()`, the last pair
//!   of the trimmed solution being the last solver move's; a mate there is
//!   stored as 999999998).
//! - **crushing / advantage / equality** (`tagger/cook.py`): none when the
//!   line ends in checkmate; else a mate score is crushing (Lichess's
//!   999999998 is above every cut), a score above the crushing cut is
//!   crushing, above the advantage cut advantage, the rest equality. The
//!   cuts are Lichess's 600 and 200 with `--engine-rule lichess`; by
//!   default they are fitted to Lichess's published themes for Stockfish
//!   15.1 at the default budget ([`Rule::Fitted`]; the fit is in
//!   `docs/engine.md`).
//! - **zugzwang** (`tagger/zugzwang.py`): after each solver move where the
//!   opponent is not in check and has at most 15 legal moves, the position
//!   is searched as it is and with the opponent's turn passed to the solver
//!   (a null move); zugzwang when the opponent's winning chances with the
//!   move are more than 0.3 below those without it.
//!
//! These four themes go into the row's `themes`, in name order among the
//! themes from the moves, as themes of the whole puzzle (their
//! `theme_plies` entry is null); they are in the one theme vocabulary,
//! [`Theme`], marked [`Source::Engine`](crate::lichess::Source::Engine).
//!
//! Determinism: each engine runs one search thread with a fixed hash, and
//! `ucinewgame` before each puzzle clears its hash and history, so the
//! puzzle's node-budgeted searches, made in a fixed order (each one finds
//! the hash the one before left), depend on the puzzle alone: the same
//! answers whichever engine of the pool gets the puzzle, at any `--threads`.
//!
//! An engine that fails (exits, stops answering within the deadline, or
//! says something unreadable) is killed, a fresh one started and the
//! puzzle tried again; a second failure leaves the puzzle's classification
//! as it is, with the reason in `engine_error`.

pub mod uci;

use std::fmt;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, EnPassantMode, FromSetup, Position};

use crate::lichess::Theme;
use crate::line::{Line, LineForm};
use uci::{Pv, Uci, UciError};

/// Nodes per search unless `--engine-nodes` says otherwise.
pub const DEFAULT_NODES: u64 = 100_000;
/// A solver move that fails the only-move test is searched again at this
/// many times the budget, unless told otherwise ([`Config::verify_nodes`]).
pub const VERIFY_FACTOR: u64 = 10;
/// Hash per engine, in MB: fixed, so results do not depend on the machine.
pub const HASH_MB: u32 = 16;
/// How long one answer may take unless told otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// The crushing and advantage cuts fitted for Stockfish 15.1 at
/// [`DEFAULT_NODES`] (`docs/engine.md`).
pub const FITTED_CUTS: (i32, i32) = (400, 80);
/// Lichess's own cuts (`tagger/cook.py`).
pub const LICHESS_CUTS: (i32, i32) = (600, 200);

/// A score as an engine reports it: centipawns or moves to mate, from one
/// side's point of view (negative: that side is worse, or gets mated).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    Mate(i32),
}

impl Score {
    /// The same score from the other side.
    pub fn flip(self) -> Score {
        match self {
            Score::Cp(cp) => Score::Cp(-cp),
            Score::Mate(m) => Score::Mate(-m),
        }
    }

    /// Winning chances from -1 to 1, as Lichess's generator and tagger
    /// compute them (`generator/util.py`, `tagger/zugzwang.py`:
    /// `2 / (1 + exp(-0.00368208 * cp)) - 1`, a mate ±1; mate 0 is being
    /// mated).
    pub fn win_chances(self) -> f64 {
        self.win_chances_scaled(1.0)
    }

    /// [`Score::win_chances`] of the centipawns times `scale`: a score of
    /// one engine read on the scale of another ([`Rule::scale`]).
    pub fn win_chances_scaled(self, scale: f64) -> f64 {
        match self {
            Score::Mate(m) => {
                if m > 0 {
                    1.0
                } else {
                    -1.0
                }
            }
            Score::Cp(cp) => 2.0 / (1.0 + (-0.003_682_08 * f64::from(cp) * scale).exp()) - 1.0,
        }
    }
}

/// Which cuts decide crushing / advantage / equality (`rule = "fitted"` or
/// `"lichess"` in a pipeline file's `[engine]` section).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Rule {
    /// [`FITTED_CUTS`]: Lichess's themes as today's Stockfish at the
    /// default budget best reproduces them.
    #[default]
    Fitted,
    /// [`LICHESS_CUTS`], read literally: for scores on Lichess's own scale.
    Lichess,
}

impl Rule {
    pub fn cuts(self) -> (i32, i32) {
        match self {
            Rule::Fitted => FITTED_CUTS,
            Rule::Lichess => LICHESS_CUTS,
        }
    }

    /// What the engine's centipawns are multiplied by before Lichess's
    /// winning chances are read from them, for the soundness test: 1 for
    /// Lichess's rule read literally; for the fitted rule, Lichess's
    /// crushing cut over the fitted one (600 / 400 = 1.5), the ratio between
    /// today's scale and the scale of the scores Lichess's generator saw.
    pub fn scale(self) -> f64 {
        match self {
            Rule::Fitted => f64::from(LICHESS_CUTS.0) / f64::from(FITTED_CUTS.0),
            Rule::Lichess => 1.0,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Rule::Fitted => "fitted",
            Rule::Lichess => "lichess",
        }
    }
}

/// How the stage runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    pub path: PathBuf,
    pub nodes: u64,
    /// Nodes for a second look at a solver move that fails the only-move
    /// test at `nodes` (`None`: [`VERIFY_FACTOR`] times `nodes`; 0: no
    /// second look). At 100k nodes half the moves that fail are budget
    /// noise that a deeper search passes (`docs/engine.md`, soundness); the
    /// deeper search decides that move's alternative and verdict, while
    /// `engine_cp` and the themes keep the budgeted search's score, which
    /// the cuts are fitted to.
    pub verify_nodes: Option<u64>,
    pub timeout: Duration,
    pub rule: Rule,
}

impl Config {
    pub fn new(path: impl Into<PathBuf>) -> Config {
        Config {
            path: path.into(),
            nodes: DEFAULT_NODES,
            verify_nodes: None,
            timeout: DEFAULT_TIMEOUT,
            rule: Rule::Fitted,
        }
    }

    /// The nodes of the second look at a move that fails the only-move
    /// test; none is made unless this exceeds `nodes`.
    pub fn verify_budget(&self) -> u64 {
        self.verify_nodes.unwrap_or(self.nodes.saturating_mul(VERIFY_FACTOR))
    }

    /// Why `verify_nodes` cannot be: a second look no deeper than the
    /// first would never be made, and is refused rather than ignored.
    pub fn verify_problem(&self) -> Option<String> {
        let verify = self.verify_budget();
        (verify != 0 && verify <= self.nodes).then(|| {
            format!("must be 0 (no second look) or more than the {} nodes per search, not {verify}", self.nodes)
        })
    }
}

/// The engine's best move other than the puzzle's at one solver move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Alternative {
    /// In UCI; `None` where the puzzle's move is the only legal one.
    pub mv: Option<String>,
    /// Its score for the solver.
    pub score: Option<Score>,
    /// The puzzle's move's score for the solver, where the search gave one
    /// (it was one of the two best lines).
    pub played: Option<Score>,
    /// Whether the puzzle's move is the only one by the generator's
    /// criterion ([`only_move`]).
    pub only_move: bool,
}

/// What the engine says about one puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// The best score for the solver before the last solver move.
    pub score: Score,
    /// crushing / advantage / equality and zugzwang, in name order: the
    /// themes of [`Source::Engine`](crate::lichess::Source::Engine).
    pub themes: Vec<Theme>,
    /// One per solver move, in order.
    pub alternatives: Vec<Alternative>,
}

impl Verdict {
    /// Every solver move is the only one.
    pub fn sound(&self) -> bool {
        self.alternatives.iter().all(|a| a.only_move)
    }

    pub fn cp(&self) -> Option<i32> {
        match self.score {
            Score::Cp(cp) => Some(cp),
            Score::Mate(_) => None,
        }
    }

    pub fn mate(&self) -> Option<i32> {
        match self.score {
            Score::Mate(m) => Some(m),
            Score::Cp(_) => None,
        }
    }
}

/// The stage's result for one puzzle: a verdict, or why there is none.
pub type Outcome = Result<Verdict, String>;

/// Why the engine stage cannot start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineError {
    pub path: PathBuf,
    pub reason: UciError,
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: not a UCI engine ({})", self.path.display(), self.reason)
    }
}

impl std::error::Error for EngineError {}

/// The engine stage: its configuration, the engine's name and a pool of
/// engine processes (one per worker at most: a worker takes one for a
/// puzzle and gives it back).
pub struct Engine {
    pub config: Config,
    /// The engine's `id name`.
    pub name: String,
    pool: Mutex<Vec<Uci>>,
}

impl Engine {
    /// Starts one engine to check that `config.path` speaks UCI: a path
    /// that does not is refused here, before any work.
    pub fn open(config: Config) -> Result<Engine, EngineError> {
        // The handshake of a program that is not an engine ends at its exit
        // or at this deadline, whichever comes first.
        let handshake = config.timeout.min(Duration::from_secs(10));
        let first = Uci::start(&config.path, HASH_MB, handshake)
            .map_err(|reason| EngineError { path: config.path.clone(), reason })?;
        let name = first.name.clone();
        drop(first);
        Ok(Engine { config, name, pool: Mutex::new(Vec::new()) })
    }

    /// What the footer records: the engine, the budget and the rule.
    pub fn provenance(&self) -> String {
        let (crushing, advantage) = self.config.rule.cuts();
        format!(
            "name={} nodes={} verify_nodes={} threads=1 hash_mb={HASH_MB} rule={} crushing_cp={crushing} \
             advantage_cp={advantage}",
            self.name,
            self.config.nodes,
            self.config.verify_budget(),
            self.config.rule.name()
        )
    }

    /// The options that shape the output (for the resume manifest).
    pub fn options(&self) -> String {
        format!(
            "engine_nodes={} engine_verify_nodes={} engine_rule={}",
            self.config.nodes,
            self.config.verify_budget(),
            self.config.rule.name()
        )
    }

    fn start(&self) -> Result<Uci, UciError> {
        Uci::start(&self.config.path, HASH_MB, self.config.timeout)
    }

    /// Judges one line. An engine that fails is replaced and the line tried
    /// once more; the second failure is the outcome.
    pub fn evaluate(&self, fen: &str, moves: &str, form: LineForm) -> Outcome {
        let line = Line::parse(fen, moves, form).map_err(|e| e.to_string())?;
        let mut last = String::new();
        for _attempt in 0..2 {
            let taken = self.pool.lock().map(|mut p| p.pop()).unwrap_or(None);
            let mut engine = match taken {
                Some(e) => e,
                None => match self.start() {
                    Ok(e) => e,
                    Err(e) => {
                        last = format!("engine {e}");
                        continue;
                    }
                },
            };
            match judge(&mut engine, fen.trim(), &line, &self.config) {
                Ok(verdict) => {
                    if let Ok(mut pool) = self.pool.lock() {
                        pool.push(engine);
                    }
                    return Ok(verdict);
                }
                // The engine is dropped (killed); the next attempt starts another.
                Err(e) => last = format!("engine {e}"),
            }
        }
        Err(format!("{last} (twice)"))
    }
}

impl fmt::Debug for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Engine").field("config", &self.config).field("name", &self.name).finish_non_exhaustive()
    }
}

/// The searches of one line, in a fixed order.
fn judge(engine: &mut Uci, fen: &str, line: &Line, config: &Config) -> Result<Verdict, UciError> {
    engine.new_game()?;
    let uci: Vec<String> = (0..line.plies()).map(|ply| line.uci(ply).to_string()).collect();
    let (nodes, rule) = (config.nodes, config.rule);
    let mut alternatives = Vec::new();
    let mut last_best = None;
    let mut zugzwang = false;
    for cursor in line.solver_plies() {
        let ply = cursor.index();
        let (best, mut alternative) = alternative_at(engine, fen, &uci, line, ply, nodes, rule)?;
        last_best = Some(best);
        if !alternative.only_move && config.verify_budget() > nodes {
            alternative = alternative_at(engine, fen, &uci, line, ply, config.verify_budget(), rule)?.1;
        }
        alternatives.push(alternative);
        if !zugzwang {
            zugzwang = is_zugzwang(engine, fen, &uci[..=ply], line, ply, nodes)?;
        }
    }
    let score = last_best.ok_or_else(|| UciError::Protocol("the line has no solver move".into()))?;
    let mut themes = Vec::new();
    if !line.mates_after(line.plies() - 1) {
        let (crushing, advantage) = rule.cuts();
        themes.push(match score {
            Score::Mate(_) => Theme::Crushing,
            Score::Cp(cp) if cp > crushing => Theme::Crushing,
            Score::Cp(cp) if cp > advantage => Theme::Advantage,
            Score::Cp(_) => Theme::Equality,
        });
    }
    if zugzwang {
        themes.push(Theme::Zugzwang);
    }
    themes.sort();
    Ok(Verdict { score, themes, alternatives })
}

/// The MultiPV 2 search before the solver move of `ply`, `uci` the whole
/// line: the engine's best score for the solver, and the best alternative
/// to the puzzle's move with the only-move verdict.
fn alternative_at(
    engine: &mut Uci,
    fen: &str,
    uci: &[String],
    line: &Line,
    ply: usize,
    nodes: u64,
    rule: Rule,
) -> Result<(Score, Alternative), UciError> {
    let pvs = engine.search(fen, &uci[..ply], nodes, 2)?;
    check_moves(line.before(ply), &pvs)?;
    let best = pvs[0].score;
    let ours = &uci[ply];
    let alternative = if pvs[0].mv == *ours {
        let second = pvs.get(1);
        let only = match second {
            None => true,
            Some(s) => {
                only_move(best, s.score, rule.scale(), || best_non_mate(engine, fen, &uci[..ply], line, ply, nodes))?
            }
        };
        Alternative {
            mv: second.map(|s| s.mv.clone()),
            score: second.map(|s| s.score),
            played: Some(best),
            only_move: only,
        }
    } else {
        // The engine prefers another move. Only a mate in one by the
        // puzzle's move stays sound (several mates in one are accepted):
        // then the pair is the puzzle's mate and the engine's.
        let only = if line.mates_after(ply) && best == Score::Mate(1) {
            only_move(Score::Mate(1), best, rule.scale(), || best_non_mate(engine, fen, &uci[..ply], line, ply, nodes))?
        } else {
            false
        };
        let played = pvs.get(1).filter(|pv| pv.mv == *ours).map(|pv| pv.score);
        Alternative { mv: Some(pvs[0].mv.clone()), score: Some(best), played, only_move: only }
    };
    Ok((best, alternative))
}

/// Lichess's generator's test that `best` is the only move
/// (`generator/generator.py`, `is_valid_attack` and
/// `is_valid_mate_in_one`), scores for the mover: the second best must be
/// more than 0.7 worse in winning chances; a mate in one passes when the
/// second is at most 0.6, or is itself a mate in one and the best move
/// that does not mate is at most 0.6 (`non_mate` finds that move's score;
/// `None`: every move mates). Winning chances are read with the
/// centipawns times `scale` ([`Rule::scale`]).
pub fn only_move<E>(
    best: Score,
    second: Score,
    scale: f64,
    non_mate: impl FnOnce() -> Result<Option<Score>, E>,
) -> Result<bool, E> {
    const NON_MATE_WIN: f64 = 0.6;
    let chances = |s: Score| s.win_chances_scaled(scale);
    if best == Score::Mate(1) {
        if chances(second) <= NON_MATE_WIN {
            return Ok(true);
        }
        if second == Score::Mate(1) {
            return Ok(non_mate()?.is_none_or(|s| chances(s) <= NON_MATE_WIN));
        }
    }
    Ok(chances(best) > chances(second) + 0.7)
}

/// The best score, for the mover, of a move that does not mate at once:
/// a search with one more line than there are mates in one.
fn best_non_mate(
    engine: &mut Uci,
    fen: &str,
    moves: &[String],
    line: &Line,
    ply: usize,
    nodes: u64,
) -> Result<Option<Score>, UciError> {
    let pos = line.before(ply);
    let legal = pos.legal_moves();
    let mates = legal
        .iter()
        .filter(|m| {
            let mut after = pos.clone();
            after.play_unchecked(**m);
            after.is_checkmate()
        })
        .count();
    if mates >= legal.len() {
        return Ok(None);
    }
    let pvs = engine.search(fen, moves, nodes, mates + 1)?;
    Ok(pvs.last().map(|pv| pv.score).filter(|s| *s != Score::Mate(1)))
}

/// Every reported move is legal where it was reported.
fn check_moves(pos: &shakmaty::Chess, pvs: &[Pv]) -> Result<(), UciError> {
    for pv in pvs {
        let legal =
            pv.mv.parse::<shakmaty::uci::UciMove>().ok().is_some_and(|uci| crate::line::legal_move(pos, uci).is_ok());
        if !legal {
            return Err(UciError::Protocol(format!("engine answered an illegal move {}", pv.mv)));
        }
    }
    Ok(())
}

/// Lichess's zugzwang test after the solver move of `ply`
/// (`tagger/zugzwang.py`), `moves` the line up to and including it.
fn is_zugzwang(
    engine: &mut Uci,
    fen: &str,
    moves: &[String],
    line: &Line,
    ply: usize,
    nodes: u64,
) -> Result<bool, UciError> {
    let pos = line.after(ply);
    if pos.is_check() {
        return Ok(false);
    }
    let legal = pos.legal_moves().len();
    if legal > 15 {
        return Ok(false);
    }
    // The opponent to move: its score as it is...
    let score = if legal == 0 { Score::Cp(0) } else { engine.search(fen, moves, nodes, 1)?[0].score };
    // ...and with its turn passed to the solver (a null move), from the
    // opponent's side.
    let mut setup = pos.to_setup(EnPassantMode::Legal);
    setup.swap_turn();
    setup.halfmoves = setup.halfmoves.saturating_add(1);
    let passed = shakmaty::Chess::from_setup(setup, CastlingMode::Standard)
        .map_err(|e| UciError::Protocol(format!("cannot pass the turn after ply {ply}: {e}")))?;
    let reverse = if passed.legal_moves().is_empty() {
        if passed.is_check() {
            Score::Mate(0)
        } else {
            Score::Cp(0)
        }
    } else {
        let fen = Fen::from_position(&passed, EnPassantMode::Legal).to_string();
        engine.search(&fen, &[], nodes, 1)?[0].score
    };
    Ok(score.win_chances() < reverse.flip().win_chances() - 0.3)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn never() -> Result<Option<Score>, ()> {
        panic!("no search needed")
    }

    #[test]
    fn win_chances_follow_lichess() {
        assert_eq!(Score::Cp(0).win_chances(), 0.0);
        assert!((Score::Cp(300).win_chances() - 0.5023).abs() < 1e-3);
        assert_eq!(Score::Mate(3).win_chances(), 1.0);
        assert_eq!(Score::Mate(-1).win_chances(), -1.0);
        assert_eq!(Score::Mate(0).win_chances(), -1.0);
    }

    #[test]
    fn the_generators_only_move_test() {
        // 0.7 of winning chances between the best and the second
        assert!(only_move(Score::Cp(900), Score::Cp(0), 1.0, never).unwrap());
        assert!(!only_move(Score::Cp(900), Score::Cp(300), 1.0, never).unwrap());
        assert!(!only_move(Score::Mate(3), Score::Cp(400), 1.0, never).unwrap());
        assert!(only_move(Score::Mate(3), Score::Cp(50), 1.0, never).unwrap());
        // a mate in one against a second at most 0.6
        assert!(only_move(Score::Mate(1), Score::Cp(300), 1.0, never).unwrap());
        assert!(!only_move(Score::Mate(1), Score::Mate(2), 1.0, never).unwrap());
        // several mates in one: the best move that does not mate decides
        assert!(only_move(Score::Mate(1), Score::Mate(1), 1.0, || Ok::<_, ()>(Some(Score::Cp(100)))).unwrap());
        assert!(!only_move(Score::Mate(1), Score::Mate(1), 1.0, || Ok::<_, ()>(Some(Score::Cp(2000)))).unwrap());
        assert!(only_move(Score::Mate(1), Score::Mate(1), 1.0, || Ok::<_, ()>(None)).unwrap());
        // On Lichess's scale (the fitted rule), +467 against +24 is a second
        // more than 0.7 worse; read literally it is not (0.65).
        assert!(!only_move(Score::Cp(467), Score::Cp(24), 1.0, never).unwrap());
        assert!(only_move(Score::Cp(467), Score::Cp(24), Rule::Fitted.scale(), never).unwrap());
    }
}
