//! Labels, fires and the detectors that produce them.
//!
//! A detector is a pure function of the line and one judged ply; it returns
//! the fires it sees and never decides what another label does — which label
//! gives way to which is [`crate::arbitrate`]'s job. One file per label (or per
//! family of labels that one rule set defines), each opening with its rules.

use std::cell::Cell;

use crate::arbitrate::{self, Removed};
use crate::facts::{self, PlyFacts};
use crate::line::Line;
use crate::mate_scene::MateScene;

pub use crate::fire::Fire;
pub use crate::label::{Family, Kind, Label, LabelInfo, LabelSet, LABELS};
pub use crate::role::{RoleName, Roles};

/// How a detector reads the puzzle: the three kinds of spec §2.
#[derive(Clone, Copy)]
pub enum Run {
    /// Reads one judged ply's facts; runs on every solver ply.
    Move(fn(&PlyFacts, &mut Vec<Fire>)),
    /// Reads the whole line; attaches its fires to solver plies.
    Line(fn(&Line, &mut Vec<Fire>)),
    /// Reads the final position of a line that ends in our mate; runs only
    /// on such lines, and fires on the mating ply.
    Mate(fn(&MateScene, &mut Vec<Fire>)),
    /// Reads the start position and the line; names puzzle labels.
    Puzzle(fn(&Line, &mut LabelSet)),
}

impl Run {
    pub const fn kind(&self) -> Kind {
        match self {
            Run::Move(_) => Kind::Move,
            Run::Line(_) | Run::Mate(_) => Kind::Line,
            Run::Puzzle(_) => Kind::Puzzle,
        }
    }
}

/// A detector: the labels it may emit, and how it runs. It never decides
/// what another label does; that is [`crate::arbitrate`]'s table.
pub struct Detector {
    pub labels: &'static [Label],
    pub run: Run,
}

// The detectors, in folders by family (`label.rs` declares each label's):
// the seed documents' tactics, Koga's motifs, mate and the named mates, the
// special moves, and the labels of the whole puzzle. Analysis more than one
// detector reads lives below them all: `crate::board`, `crate::facts`,
// `crate::threats`, `crate::net`, `crate::payoff`.
pub mod mate;
pub mod motif;
pub mod puzzle;
pub mod seed;
pub mod special_move;

/// Every detector, each exporting its `DETECTOR` from its own file. The
/// order is the order fires are found in (and, within a ply and label,
/// written in).
pub const DETECTORS: &[Detector] = &[
    seed::pinned_defender::DETECTOR,
    seed::trapped_piece::DETECTOR,
    seed::hanging_piece::DETECTOR,
    seed::discovered_check::DETECTOR,
    motif::pin::DETECTOR,
    motif::fork::DETECTOR,
    motif::double_attack::DETECTOR,
    motif::skewer::DETECTOR,
    motif::capturing_defender::DETECTOR,
    motif::deflection::DETECTOR,
    motif::insufficiently_defended::DETECTOR,
    motif::counter_threat::DETECTOR,
    mate::mate_in_n::DETECTOR,
    mate::back_rank_mate::DETECTOR,
    mate::smothered_mate::DETECTOR,
    mate::anastasia_mate::DETECTOR,
    mate::hook_mate::DETECTOR,
    mate::arabian_mate::DETECTOR,
    mate::boden_mate::DETECTOR,
    mate::dovetail_mate::DETECTOR,
    mate::kill_box_mate::DETECTOR,
    mate::vukovic_mate::DETECTOR,
    mate::corner_mate::DETECTOR,
    mate::opera_mate::DETECTOR,
    mate::pillsburys_mate::DETECTOR,
    mate::morphys_mate::DETECTOR,
    mate::triangle_mate::DETECTOR,
    mate::balestra_mate::DETECTOR,
    mate::blind_swine_mate::DETECTOR,
    mate::epaulette_mate::DETECTOR,
    mate::swallowstail_mate::DETECTOR,
    special_move::promotion::DETECTOR,
    special_move::castling::DETECTOR,
    special_move::en_passant::DETECTOR,
    puzzle::length::DETECTOR,
    motif::advanced_pawn::DETECTOR,
    motif::attacking_f2f7::DETECTOR,
    motif::exposed_king::DETECTOR,
    motif::quiet_move::DETECTOR,
    motif::defensive_move::DETECTOR,
    motif::x_ray_attack::DETECTOR,
    motif::intermezzo::DETECTOR,
    motif::sacrifice::DETECTOR,
    motif::attraction::DETECTOR,
    motif::clearance::DETECTOR,
    motif::interference::DETECTOR,
    puzzle::side_attack::DETECTOR,
    motif::overloading::DETECTOR,
    puzzle::phase::DETECTOR,
    puzzle::endgame::DETECTOR,
];

/// How [`run`] calls a detector of one judged ply.
type MoveDetect = fn(&PlyFacts, &mut Vec<Fire>);

/// How many of [`DETECTORS`] read one judged ply.
const MOVE_DETECTOR_COUNT: usize = {
    let (mut count, mut i) = (0, 0);
    while i < DETECTORS.len() {
        if let Run::Move(_) = DETECTORS[i].run {
            count += 1;
        }
        i += 1;
    }
    count
};

/// A detector that reads one judged ply: its labels as a set, and how it
/// is called. It is silenced on a ply where every one of its labels is
/// (every detector names a label, so that one is silenced only by a label
/// present).
#[derive(Clone, Copy)]
struct MoveDetector {
    labels: LabelSet,
    detect: MoveDetect,
}

/// The detectors that read one judged ply, in [`DETECTORS`]' order: the
/// loop over every solver ply visits only them, each label set beside its
/// function so that a step reads one entry.
const MOVE_DETECTORS: [MoveDetector; MOVE_DETECTOR_COUNT] = {
    fn unset(_: &PlyFacts, _: &mut Vec<Fire>) {}
    let unset = MoveDetector { labels: LabelSet::new(), detect: unset };
    let mut detectors = [unset; MOVE_DETECTOR_COUNT];
    let (mut found, mut i) = (0, 0);
    while i < DETECTORS.len() {
        if let Run::Move(detect) = DETECTORS[i].run {
            assert!(!DETECTORS[i].labels.is_empty(), "a detector names its labels");
            detectors[found] = MoveDetector { labels: LabelSet::of(DETECTORS[i].labels), detect };
            found += 1;
        }
        i += 1;
    }
    detectors
};

/// The labels found on a ply so far, and those they silence: every label a
/// fire of one of them removes whatever its roles
/// ([`arbitrate::always_removed_by`]).
struct Found {
    present: LabelSet,
    silenced: LabelSet,
}

impl Found {
    fn new() -> Found {
        Found { present: LabelSet::new(), silenced: LabelSet::new() }
    }

    fn add(&mut self, label: Label) {
        if !self.present.contains(label) {
            self.present.insert(label);
            self.silenced.union_with(&arbitrate::always_removed_by(label));
        }
    }
}

/// The detectors of one other kind (`Run::$kind`, each a `$detect`), in
/// [`DETECTORS`]' order: the loop over that kind visits only them.
macro_rules! detectors_of_kind {
    ($kind:ident, $detect:ty) => {{
        const COUNT: usize = {
            let (mut count, mut i) = (0, 0);
            while i < DETECTORS.len() {
                if let Run::$kind(_) = DETECTORS[i].run {
                    count += 1;
                }
                i += 1;
            }
            count
        };
        const OF_KIND: [$detect; COUNT] = {
            let mut detectors: [$detect; COUNT] = [|_, _| {}; COUNT];
            let (mut found, mut i) = (0, 0);
            while i < DETECTORS.len() {
                if let Run::$kind(detect) = DETECTORS[i].run {
                    detectors[found] = detect;
                    found += 1;
                }
                i += 1;
            }
            detectors
        };
        &OF_KIND
    }};
}

const LINE_DETECTORS: &[fn(&Line, &mut Vec<Fire>)] = detectors_of_kind!(Line, fn(&Line, &mut Vec<Fire>));
const MATE_DETECTORS: &[fn(&MateScene, &mut Vec<Fire>)] = detectors_of_kind!(Mate, fn(&MateScene, &mut Vec<Fire>));
const PUZZLE_DETECTORS: &[fn(&Line, &mut LabelSet)] = detectors_of_kind!(Puzzle, fn(&Line, &mut LabelSet));

/// Fires after arbitration, and what arbitration removed (with why).
#[derive(Debug, Clone, Default)]
pub struct Classified {
    pub fires: Vec<Fire>,
    pub removed: Vec<Removed>,
}

/// Runs every detector on every solver ply, arbitrates each ply, and keeps
/// what arbitration removed, including the fires it removes unconditionally
/// (which [`classify`] does not compute); fires come out ordered by ply, then
/// label.
pub fn classify_explained(line: &Line) -> Classified {
    let mut work = Work::default();
    run(line, false, &mut work);
    Classified { fires: work.fires, removed: work.removed }
}

/// Runs every detector on every solver ply, then arbitration; fires come out
/// ordered by ply, then label.
pub fn classify(line: &Line) -> Vec<Fire> {
    let mut work = WORK.take().unwrap_or_default();
    run(line, true, &mut work);
    let fires = work.fires.to_vec();
    WORK.set(Some(work));
    fires
}

/// The lists [`run`] fills: the fires it keeps and what arbitration
/// removed, and the fires of the line and of one ply on the way.
#[derive(Default)]
struct Work {
    fires: Vec<Fire>,
    removed: Vec<Removed>,
    line_fires: Vec<Fire>,
    ply_fires: Vec<Fire>,
}

thread_local! {
    /// A worker's lists for [`classify`], kept from one puzzle to the next
    /// so that they are allocated once, not grown anew for every puzzle.
    static WORK: Cell<Option<Work>> = const { Cell::new(None) };
}

fn run(line: &Line, skip_silenced: bool, work: &mut Work) {
    let Work { fires, removed, line_fires, ply_fires } = work;
    fires.clear();
    removed.clear();
    line_fires.clear();
    // Line fires first: a ply is arbitrated with the line fires on it.
    for detect in LINE_DETECTORS {
        detect(line, line_fires);
    }
    if let Some(scene) = MateScene::new(line) {
        for detect in MATE_DETECTORS {
            detect(&scene, line_fires);
        }
    }
    // On the stack: a puzzle's line is short (a longer one gets a Vec).
    let mut inline = [0; 64];
    let heap;
    let balances = if line.positions.len() <= inline.len() {
        facts::fill_balances(line, &mut inline)
    } else {
        heap = facts::balances(line);
        &heap
    };
    for ply in line.solver_plies() {
        let facts = PlyFacts::new(ply, balances);
        ply_fires.clear();
        ply_fires.extend(line_fires.iter().filter(|f| f.ply as usize == ply.index()));
        let mut found = Found::new();
        for fire in ply_fires.iter() {
            found.add(fire.label);
        }
        for &MoveDetector { labels, detect } in &MOVE_DETECTORS {
            // A detector whose every label the table removes, whatever it
            // would find, need not run (the mating-move rule, for one).
            if found.silenced.contains_all(&labels) {
                let present = &found.present;
                // Its fires would give way whatever they are: the classifier
                // does not look for them, and so they remove nothing. To
                // explain, they are found and set aside as removed, so that
                // `koga explain` keeps what the tables keep.
                if !skip_silenced {
                    let mut set_aside = Vec::new();
                    detect(&facts, &mut set_aside);
                    removed.extend(set_aside.into_iter().filter_map(|fire| {
                        let (by, rule) = arbitrate::silenced_by(fire.label, present)?;
                        Some(Removed { fire, by, rule })
                    }));
                }
                continue;
            }
            let before = ply_fires.len();
            detect(&facts, ply_fires);
            for fire in &ply_fires[before..] {
                found.add(fire.label);
            }
        }
        arbitrate::arbitrate(&facts, ply_fires, removed);
        fires.extend_from_slice(ply_fires);
    }
    fires.sort_by_key(|f| (f.ply, f.label));
    arbitrate::arbitrate_next_moves(line, fires, removed);
    crate::payoff::mark(line, fires);
    crate::net::settle(line, balances, fires);
}

/// The puzzle-level labels (spec §5), from every puzzle detector.
pub fn puzzle_labels(line: &Line) -> LabelSet {
    let mut labels = LabelSet::new();
    for detect in PUZZLE_DETECTORS {
        detect(line, &mut labels);
    }
    labels
}

/// Helpers for the detectors' unit tests.
#[cfg(test)]
pub(crate) mod testing {
    use super::*;
    use crate::line::LineForm;

    /// The fires (after arbitration) on one ply of a Lichess-layout line.
    pub fn fires_on(fen: &str, moves: &str, ply: u16) -> Vec<Fire> {
        let line = Line::parse(fen, moves, LineForm::Puzzle).unwrap_or_else(|e| panic!("{fen} {moves}: {e}"));
        classify(&line).into_iter().filter(|f| f.ply == ply).collect()
    }

    /// The `label` fire on one ply (panics, listing the ply's fires, where
    /// there is none).
    pub fn fire_on(fen: &str, moves: &str, ply: u16, label: &str) -> Fire {
        let fires = fires_on(fen, moves, ply);
        let fire = fires.iter().find(|f| f.label.name() == label).copied();
        fire.unwrap_or_else(|| panic!("no {label} on ply {ply}: {fires:?}"))
    }

    /// Their label names.
    pub fn labels_on(fen: &str, moves: &str, ply: u16) -> Vec<&'static str> {
        fires_on(fen, moves, ply).iter().map(|f| f.label.name()).collect()
    }

    /// The puzzle labels `detector` gives a Lichess-layout line, in its order.
    pub fn puzzle_labels_of(detector: &Detector, fen: &str, moves: &str) -> Vec<Label> {
        let line = Line::parse(fen, moves, LineForm::Puzzle).unwrap_or_else(|e| panic!("{fen} {moves}: {e}"));
        let labels = puzzle_labels(&line);
        detector.labels.iter().copied().filter(|&l| labels.contains(l)).collect()
    }

    /// A real or constructed case: (name, FEN, moves, judged ply).
    pub type Case = (&'static str, &'static str, &'static str, u16);

    /// Asserts `label` fires on every case's judged ply.
    pub fn assert_fires(label: &str, cases: &[Case]) {
        for (name, fen, moves, ply) in cases {
            let got = labels_on(fen, moves, *ply);
            assert!(got.contains(&label), "{name}: expected {label} on ply {ply}, got {got:?}");
        }
    }

    /// Asserts `label` fires on the case's judged ply with these role
    /// squares: every square of the role, comma-separated in colour-relative
    /// order for a set role (`("guards", "e7,g7")`, `("blockers", "")`).
    pub fn assert_roles(label: &str, case: Case, roles: &[(&str, &str)]) {
        let (name, fen, moves, ply) = case;
        let fires = fires_on(fen, moves, ply);
        let fire = fires.iter().find(|f| f.label.name() == label);
        let fire = fire.unwrap_or_else(|| panic!("{name}: no {label} on ply {ply}"));
        for (role, squares) in roles {
            let role_name = RoleName::from_name(role).unwrap_or_else(|| panic!("no role {role}"));
            let got: Vec<String> = fire.squares(role_name).map(|sq| sq.to_string()).collect();
            assert_eq!(got.join(","), *squares, "{name}: {label} role {role}");
        }
    }

    /// Asserts `label` does not fire on any case's judged ply.
    pub fn assert_silent(label: &str, cases: &[Case]) {
        for (name, fen, moves, ply) in cases {
            let got = labels_on(fen, moves, *ply);
            assert!(!got.contains(&label), "{name}: {label} must not fire on ply {ply}, got {got:?}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ply loop's list is every ply detector, in the registry's order,
    /// and each other kind's list holds all of that kind.
    #[test]
    fn move_detectors_are_the_registrys_in_order() {
        let registry: Vec<&[Label]> =
            DETECTORS.iter().filter(|d| matches!(d.run, Run::Move(_))).map(|d| d.labels).collect();
        let listed: Vec<LabelSet> = MOVE_DETECTORS.iter().map(|detector| detector.labels).collect();
        assert_eq!(listed, registry.iter().map(|labels| LabelSet::of(labels)).collect::<Vec<_>>());
        let count = |kind: fn(&Run) -> bool| DETECTORS.iter().filter(|d| kind(&d.run)).count();
        assert_eq!(LINE_DETECTORS.len(), count(|r| matches!(r, Run::Line(_))));
        assert_eq!(MATE_DETECTORS.len(), count(|r| matches!(r, Run::Mate(_))));
        assert_eq!(PUZZLE_DETECTORS.len(), count(|r| matches!(r, Run::Puzzle(_))));
    }

    /// The registry and the vocabulary agree: every label has exactly one
    /// detector, of the label's kind.
    #[test]
    fn every_label_has_one_detector_of_its_kind() {
        for info in LABELS {
            let owners: Vec<&Detector> = DETECTORS.iter().filter(|d| d.labels.contains(&info.label)).collect();
            assert_eq!(owners.len(), 1, "{} is emitted by {} detectors", info.name, owners.len());
            assert_eq!(owners[0].run.kind(), info.kind, "{}: detector kind", info.name);
        }
    }
}
