//! The vocabulary: every label declared once, with its kind, family, roles
//! and a one-line description; the role names, each with one meaning; and a
//! label set with no cap on the vocabulary's size.
//!
//! Everything else that lists labels derives from [`LABELS`]: the [`Label`]
//! enum, the material-motif group arbitration silences on a mating move,
//! `koga labels`, the README table, the docs generator and the tests. Adding
//! a label is one declaration here plus its detector (`src/tactics/`).

use std::fmt;

use crate::role::{Arity, RoleName};

/// When a label is decided and where it is written (spec §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// Fires on one judged ply, from that ply's facts.
    Move,
    /// Decided from the whole line, attached to one ply.
    Line,
    /// Describes the puzzle as a whole; written to `puzzle_labels`.
    Puzzle,
}

/// The groups labels are listed and compared in, in report order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Family {
    /// The four seed documents' tactics.
    Seed,
    /// Tactical motifs Koga defines, guided by Lichess's themes.
    Motif,
    /// Mate and mate-in-N.
    Mate,
    /// Named mating patterns.
    MatePattern,
    /// Promotion, castling, en passant.
    SpecialMove,
    /// The length of the line.
    Length,
    /// Opening, middlegame, endgame.
    Phase,
    /// The material of an endgame.
    Endgame,
}

impl Kind {
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Move => "move",
            Kind::Line => "line",
            Kind::Puzzle => "puzzle",
        }
    }
}

impl Family {
    pub const fn name(self) -> &'static str {
        match self {
            Family::Seed => "seed",
            Family::Motif => "motif",
            Family::Mate => "mate",
            Family::MatePattern => "matePattern",
            Family::SpecialMove => "specialMove",
            Family::Length => "length",
            Family::Phase => "phase",
            Family::Endgame => "endgame",
        }
    }
}

/// What the vocabulary says about one label.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LabelInfo {
    pub label: Label,
    /// The output name: lowerCamelCase, the Lichess theme's where the idea is the same.
    pub name: &'static str,
    pub kind: Kind,
    pub family: Family,
    /// A motif about winning material: silent on a mating move (arbitration).
    pub material: bool,
    /// Lichess has a theme of this name: `koga compare` measures it.
    pub lichess: bool,
    /// A capture whose follow-up fire may only collect what an earlier fire
    /// of the line named: a payoff (spec §2, the `collects` column).
    pub payoff: bool,
    /// A motif about giving material: its `gain` is what its move gives
    /// up, below zero (the sacrifice a later fire's win repays).
    pub gives: bool,
    /// The roles its fires fill.
    pub roles: &'static [RoleName],
    pub description: &'static str,
}

impl LabelInfo {
    /// Where its rules and test positions are written.
    pub fn doc_path(&self) -> String {
        format!("docs/tactics/{}.md", self.name)
    }
}

macro_rules! labels {
    ($(
        $variant:ident $name:literal: $kind:ident $family:ident [$($flag:ident)*] [$($role:ident)*]
            $description:literal;
    )*) => {
        /// Every label Koga emits, in declaration order.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Label { $($variant,)* }

        /// The vocabulary, indexed by `Label as usize`.
        pub const LABELS: &[LabelInfo] = &[$(LabelInfo {
            label: Label::$variant,
            name: $name,
            kind: Kind::$kind,
            family: Family::$family,
            material: has_flag(&[$(stringify!($flag)),*], "material"),
            lichess: has_flag(&[$(stringify!($flag)),*], "lichess"),
            payoff: has_flag(&[$(stringify!($flag)),*], "payoff"),
            gives: has_flag(&[$(stringify!($flag)),*], "gives"),
            roles: &[$(RoleName::$role),*],
            description: $description,
        },)*];

        impl Label {
            /// All labels, in declaration order.
            pub const ALL: &'static [Label] = &[$(Label::$variant,)*];
            /// The labels' output names, indexed by `Label as usize`.
            pub const NAMES: &'static [&'static str] = &[$($name,)*];
        }
    };
}

const fn has_flag(flags: &[&str], flag: &str) -> bool {
    let mut i = 0;
    while i < flags.len() {
        if flags[i].len() == flag.len() {
            let (a, b) = (flags[i].as_bytes(), flag.as_bytes());
            let mut j = 0;
            while j < a.len() && a[j] == b[j] {
                j += 1;
            }
            if j == a.len() {
                return true;
            }
        }
        i += 1;
    }
    false
}

// Flags: `material` (a material motif, silent on a mating move), `lichess`
// (a Lichess theme of the same name exists), `payoff` (a capture whose
// follow-up fires may collect an earlier fire's win).
labels! {
    PinnedDefender "pinnedDefender": Move Seed [material payoff] [victim defender pinned pinner behind moved]
        "Capture of a piece whose defender is pinned to a more valuable piece or the king";
    TrappedPiece "trappedPiece": Move Seed [material lichess] [targets attacker escapes]
        "Attack on an enemy piece that has no safe square to go to";
    HangingPiece "hangingPiece": Move Seed [material lichess payoff] [victim moved]
        "Capture of an undefended piece that wins material for good";
    DiscoveredCheck "discoveredCheck": Move Seed [lichess] [checkers attacker targets moved]
        "Our move unmasks a check by a piece standing behind it";
    DiscoveredAttack "discoveredAttack": Move Seed [lichess] [checkers attacker targets moved]
        "Our move unmasks an attack by a piece standing behind it";
    DoubleCheck "doubleCheck": Move Seed [lichess] [checkers targets moved]
        "Two pieces give check at once";
    Pin "pin": Move Motif [material lichess] [pinned targets pinner attacker behind moved]
        "A new pin of an enemy piece to its king or to a more valuable piece";
    Fork "fork": Move Motif [material lichess] [attacker targets victim]
        "One piece attacks two enemy pieces and one of them is won";
    DoubleAttack "doubleAttack": Move Motif [material] [moved attacker targets victim]
        "Two enemy pieces attacked at once (by one or two of our pieces) and one of them is won";
    Skewer "skewer": Move Motif [material lichess] [attacker targets behind victim]
        "A valuable piece attacked on a line must move and uncovers the piece behind it";
    CapturingDefender "capturingDefender": Move Motif [material lichess] [defender victim moved]
        "Capture of a guard, so that the piece it guarded is won next";
    Deflection "deflection": Move Motif [material lichess] [defender victim moved]
        "A forcing move lures a defender away from the square where we then win";
    InsufficientlyDefended "insufficientlyDefended": Move Motif [material payoff] [victim defender moved]
        "Capture of a defended piece where the exchange still wins material";
    CounterThreat "counterThreat": Move Motif [material] [threatened attacker targets]
        "Instead of saving our threatened piece, a bigger threat of our own";
    AdvancedPawn "advancedPawn": Move Motif [lichess] [moved]
        "A pawn of ours reaches its seventh or eighth rank";
    AttackingF2F7 "attackingF2F7": Move Motif [lichess] [victim moved targets]
        "Our first capture on f2 or f7, next to the enemy king on its starting square";
    ExposedKing "exposedKing": Move Motif [lichess] [targets moved]
        "A check after the key move on a king that started without its pawn shelter";
    QuietMove "quietMove": Move Motif [lichess] [moved]
        "A move that neither checks, captures nor attacks, with the line going on";
    DefensiveMove "defensiveMove": Move Motif [lichess] [moved]
        "A quiet last move chosen among several, or an early escape from check";
    XRayAttack "xRayAttack": Move Motif [lichess] [attacker victim moved]
        "Our second capture on a square, by a piece that attacked it through the opponent's";
    Intermezzo "intermezzo": Move Motif [lichess] [victim moved]
        "An in-between move before taking back what the opponent just captured";
    Sacrifice "sacrifice": Move Motif [lichess gives] [moved threatened]
        "We give up at least two pawns' worth of material on purpose";
    Attraction "attraction": Move Motif [lichess] [moved targets attacker]
        "We lure the enemy king, queen or rook onto a square where we then hit it";
    Clearance "clearance": Move Motif [lichess] [moved attacker]
        "We move a piece out of the way of our queen, rook or bishop";
    Interference "interference": Move Motif [lichess] [victim defender moved blockers]
        "A piece comes between a defender and what it guards, which we then take";
    Overloading "overloading": Move Motif [material] [defender victim moved]
        "A defender with two duties takes back on one square and abandons the other";
    KingsideAttack "kingsideAttack": Puzzle Motif [lichess] []
        "The attack is on the enemy king castled on the kingside";
    QueensideAttack "queensideAttack": Puzzle Motif [lichess] []
        "The attack is on the enemy king castled on the queenside";
    Mate "mate": Line Mate [lichess] [mated moved]
        "The line ends in checkmate: on the mating move";
    MateIn1 "mateIn1": Line Mate [lichess] [mated]
        "Checkmate with one solver move: on the key move";
    MateIn2 "mateIn2": Line Mate [lichess] [mated]
        "Checkmate with two solver moves: on the key move";
    MateIn3 "mateIn3": Line Mate [lichess] [mated]
        "Checkmate with three solver moves: on the key move";
    MateIn4 "mateIn4": Line Mate [lichess] [mated]
        "Checkmate with four solver moves: on the key move";
    MateIn5 "mateIn5": Line Mate [lichess] [mated]
        "Checkmate with five or more solver moves: on the key move";
    BackRankMate "backRankMate": Line MatePattern [lichess] [mated checkers guards blockers]
        "Mate on the back rank, the king walled in by its own pieces";
    SmotheredMate "smotheredMate": Line MatePattern [lichess] [mated checkers guards blockers]
        "A knight mates a king whose every neighbouring square holds its own piece";
    AnastasiaMate "anastasiaMate": Line MatePattern [lichess] [mated checkers guards blockers]
        "A rook or queen mates on the edge file, a knight cutting off the way out";
    HookMate "hookMate": Line MatePattern [lichess] [mated checkers guards blockers]
        "A rook mates next to the king, guarded by a knight that a pawn guards";
    ArabianMate "arabianMate": Line MatePattern [lichess] [mated checkers guards blockers]
        "A rook mates a cornered king next to it, guarded by a knight";
    BodenMate "bodenMate": Line MatePattern [lichess] [mated checkers guards blockers]
        "Two bishops on crossing diagonals from both sides of the king";
    DoubleBishopMate "doubleBishopMate": Line MatePattern [lichess] [mated checkers guards blockers]
        "Two bishops on neighbouring diagonals from one side of the king";
    DovetailMate "dovetailMate": Line MatePattern [lichess] [mated checkers guards blockers]
        "A queen mates from a diagonal neighbour, the king's own pieces behind it";
    KillBoxMate "killBoxMate": Line MatePattern [lichess] [mated checkers guards blockers]
        "A rook beside the king and a queen two diagonal steps from it close a 3x3 box";
    VukovicMate "vukovicMate": Line MatePattern [lichess] [mated checkers guards blockers]
        "A guarded rook mates beside the king, a knight behind it taking the side squares";
    CornerMate "cornerMate": Line MatePattern [lichess] [mated checkers guards blockers]
        "A knight mates the king in its corner, a rook or queen taking the file or rank";
    OperaMate "operaMate": Line MatePattern [lichess] [mated checkers guards blockers]
        "A rook mates beside the king, guarded by a bishop";
    PillsburysMate "pillsburysMate": Line MatePattern [lichess] [mated checkers guards blockers]
        "A rook mates while a bishop takes a flight square";
    MorphysMate "morphysMate": Line MatePattern [lichess] [mated checkers guards blockers]
        "A bishop mates while a rook takes a flight square";
    TriangleMate "triangleMate": Line MatePattern [lichess] [mated checkers guards blockers]
        "A queen and a rook on the king's two diagonal neighbours of one side";
    BalestraMate "balestraMate": Line MatePattern [lichess] [mated checkers guards blockers]
        "A bishop mates, a queen a knight's jump from the king takes the flight squares";
    BlindSwineMate "blindSwineMate": Line MatePattern [lichess] [mated checkers guards blockers]
        "Two rooks mate the king inside one 2x2 block";
    EpauletteMate "epauletteMate": Line MatePattern [lichess] [mated checkers guards blockers]
        "A straight check on a king hemmed in on both sides, by its own pieces at least on one";
    SwallowstailMate "swallowstailMate": Line MatePattern [lichess] [mated checkers guards blockers]
        "A guarded queen mates face to face, the king's own pieces on the squares behind it";
    Promotion "promotion": Move SpecialMove [lichess] [moved victim]
        "A pawn promotes";
    UnderPromotion "underPromotion": Move SpecialMove [lichess] [moved victim]
        "A pawn promotes to a knight, bishop or rook";
    Castling "castling": Move SpecialMove [lichess] [moved]
        "Our move castles";
    EnPassant "enPassant": Move SpecialMove [lichess] [victim moved]
        "Our pawn captures en passant";
    OneMove "oneMove": Puzzle Length [lichess] []
        "The puzzle is one solver move long";
    Short "short": Puzzle Length [lichess] []
        "The puzzle is two solver moves long (4 plies)";
    Long "long": Puzzle Length [lichess] []
        "The puzzle is three solver moves long (6 plies)";
    VeryLong "veryLong": Puzzle Length [lichess] []
        "The puzzle is four or more solver moves long (8 plies or more)";
    Opening "opening": Puzzle Phase [lichess] []
        "The puzzle starts in the opening: many pieces, still on their back ranks";
    Middlegame "middlegame": Puzzle Phase [lichess] []
        "The puzzle starts in the middlegame";
    Endgame "endgame": Puzzle Phase [lichess] []
        "The puzzle starts in the endgame: six pieces or fewer besides kings and pawns";
    PawnEndgame "pawnEndgame": Puzzle Endgame [lichess] []
        "An endgame of kings and pawns";
    QueenEndgame "queenEndgame": Puzzle Endgame [lichess] []
        "An endgame of queens, kings and pawns";
    RookEndgame "rookEndgame": Puzzle Endgame [lichess] []
        "An endgame of rooks, kings and pawns";
    BishopEndgame "bishopEndgame": Puzzle Endgame [lichess] []
        "An endgame of bishops, kings and pawns";
    KnightEndgame "knightEndgame": Puzzle Endgame [lichess] []
        "An endgame of knights, kings and pawns";
    QueenRookEndgame "queenRookEndgame": Puzzle Endgame [lichess] []
        "An endgame of one queen, rooks, kings and pawns";
}

/// Lichess themes a label implies besides its own name (spec §2): a
/// pinnedDefender capture is a pin in Lichess's sense. `koga compare`
/// counts the theme for Koga wherever the label fires.
pub const IMPLIED_THEMES: &[(Label, Label)] = &[(Label::PinnedDefender, Label::Pin)];

impl Label {
    /// The Lichess themes this label implies besides its own name.
    pub fn implies(self) -> impl Iterator<Item = Label> {
        IMPLIED_THEMES.iter().filter(move |(label, _)| *label == self).map(|&(_, theme)| theme)
    }

    /// Everything the vocabulary says about this label.
    pub const fn info(self) -> &'static LabelInfo {
        &LABELS[self as usize]
    }

    /// The lowerCamelCase name written to the output.
    pub const fn name(self) -> &'static str {
        self.info().name
    }

    pub const fn kind(self) -> Kind {
        self.info().kind
    }

    pub const fn family(self) -> Family {
        self.info().family
    }

    /// A motif about winning material, silent on a mating move.
    pub const fn is_material_motif(self) -> bool {
        self.info().material
    }

    /// Looks a label up by its output name.
    pub fn from_name(name: &str) -> Option<Label> {
        LABELS.iter().find(|info| info.name == name).map(|info| info.label)
    }
}

/// The word of `names` a user most likely meant by `typed`, for a "did you
/// mean" hint: the nearest by edit distance, ignoring case, within a third
/// of its length (at least one edit).
pub fn nearest_name<'a>(typed: &str, names: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let typed: Vec<char> = typed.to_lowercase().chars().collect();
    let limit = (typed.len() / 3).max(1);
    names
        .into_iter()
        .map(|name| (edit_distance(&typed, &name.to_lowercase().chars().collect::<Vec<_>>()), name))
        .filter(|&(distance, _)| distance <= limit)
        .min_by_key(|&(distance, _)| distance)
        .map(|(_, name)| name)
}

/// Levenshtein distance: insertions, deletions and substitutions.
fn edit_distance(a: &[char], b: &[char]) -> usize {
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitute = diagonal + usize::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = substitute.min(row[j] + 1).min(diagonal + 1);
        }
    }
    row[b.len()]
}

/// `"{typed}" is not a {what}` with a hint: the nearest of `names`, or
/// where the full list is.
pub fn unknown_name_message<'a>(
    typed: &str,
    what: &str,
    names: impl IntoIterator<Item = &'a str>,
    list: &str,
) -> String {
    match nearest_name(typed, names) {
        Some(name) => format!("{typed:?} is not a {what}; did you mean {name:?}? ({list} lists them all)"),
        None => format!("{typed:?} is not a {what} ({list} lists them all)"),
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The vocabulary's version: the label count and a fingerprint
/// ([`Fnv1a`](crate::fingerprint::Fnv1a)) of every label's name, kind, family, flags and roles and of the
/// role names. Any change to what a reader of the output relies on changes
/// it; it is written into every output file and printed by `koga labels`.
pub fn vocabulary_version() -> String {
    let mut hash = crate::fingerprint::Fnv1a::default();
    // Each name ends in a 0 byte, so that no two lists hash alike.
    let mut feed = |text: &str| {
        hash.write(text.as_bytes());
        hash.write(&[0]);
    };
    for info in LABELS {
        feed(info.name);
        feed(info.kind.name());
        feed(info.family.name());
        feed(if info.material { "material" } else { "" });
        feed(if info.lichess { "lichess" } else { "" });
        feed(if info.payoff { "payoff" } else { "" });
        feed(if info.gives { "gives" } else { "" });
        info.label.implies().for_each(|theme| feed(theme.name()));
        info.roles.iter().for_each(|r| feed(r.name()));
    }
    for role in RoleName::ALL {
        feed(role.name());
        feed(role.arity().name());
    }
    format!("{}-{}", LABELS.len(), hash.hex())
}

/// `koga labels`: the vocabulary as an aligned text table.
pub fn vocabulary_text() -> String {
    use std::fmt::Write;
    let mut out = format!("{:<23} {:<6} {:<12} {:<42} {}\n", "label", "kind", "family", "roles", "description");
    for info in LABELS {
        let roles: Vec<String> = info.roles.iter().map(|&r| role_text(r)).collect();
        let _ = writeln!(
            out,
            "{:<23} {:<6} {:<12} {:<42} {}",
            info.name,
            info.kind.name(),
            info.family.name(),
            roles.join(","),
            info.description
        );
    }
    let _ = write!(
        out,
        "\n{} labels, vocabulary version {}; roles marked [] hold several squares (list columns);\n\
         role meanings: schemas/fires.json; rules and test positions: docs/tactics/<label>.md\n",
        LABELS.len(),
        vocabulary_version()
    );
    out
}

/// A role as the text table shows it: a set role ends in `[]`.
fn role_text(role: RoleName) -> String {
    match role.arity() {
        Arity::One => role.name().to_owned(),
        Arity::Many => format!("{}[]", role.name()),
    }
}

/// `koga labels --format json`: one object per label; each role with what
/// it holds (`one` square or `many`).
pub fn vocabulary_json() -> String {
    #[derive(serde::Serialize)]
    struct Entry {
        name: &'static str,
        kind: &'static str,
        family: &'static str,
        material: bool,
        lichess: bool,
        payoff: bool,
        gives: bool,
        implies: Vec<&'static str>,
        roles: Vec<Role>,
        description: &'static str,
        doc: String,
    }
    #[derive(serde::Serialize)]
    struct Role {
        name: &'static str,
        holds: &'static str,
    }
    let labels: Vec<Entry> = LABELS
        .iter()
        .map(|info| Entry {
            name: info.name,
            kind: info.kind.name(),
            family: info.family.name(),
            material: info.material,
            lichess: info.lichess,
            payoff: info.payoff,
            gives: info.gives,
            implies: info.label.implies().map(Label::name).collect(),
            roles: info.roles.iter().map(|r| Role { name: r.name(), holds: r.arity().name() }).collect(),
            description: info.description,
            doc: info.doc_path(),
        })
        .collect();
    serde_json::to_string_pretty(&labels).expect("plain data")
}

/// The README's table of labels, one row per family.
pub fn vocabulary_markdown() -> String {
    use std::fmt::Write;
    let mut families: Vec<Family> = LABELS.iter().map(|i| i.family).collect();
    families.dedup();
    let mut out = String::from("| family | kind | labels |\n|---|---|---|\n");
    for family in families {
        let members: Vec<&LabelInfo> = LABELS.iter().filter(|i| i.family == family).collect();
        let kinds: Vec<&str> = {
            let mut k: Vec<Kind> = members.iter().map(|i| i.kind).collect();
            k.sort();
            k.dedup();
            k.iter().map(|k| k.name()).collect()
        };
        let names: Vec<String> = members.iter().map(|i| format!("[`{0}`](docs/tactics/{0}.md)", i.name)).collect();
        let _ = writeln!(out, "| {} | {} | {} |", family.name(), kinds.join(", "), names.join(", "));
    }
    out
}

/// A set of labels: a bit per label, as many words as the vocabulary needs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct LabelSet([u64; LabelSet::WORDS]);

impl LabelSet {
    const WORDS: usize = Label::ALL.len().div_ceil(64);

    pub const fn new() -> LabelSet {
        LabelSet([0; LabelSet::WORDS])
    }

    pub const fn insert(&mut self, label: Label) {
        let i = label as usize;
        self.0[i / 64] |= 1 << (i % 64);
    }

    /// The set of `labels`, built at compile time where they are constant.
    pub const fn of(labels: &[Label]) -> LabelSet {
        let mut set = LabelSet::new();
        let mut i = 0;
        while i < labels.len() {
            set.insert(labels[i]);
            i += 1;
        }
        set
    }

    /// Adds every label of `other`.
    pub fn union_with(&mut self, other: &LabelSet) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a |= b;
        }
    }

    /// Whether every label of `other` is in the set.
    pub fn contains_all(&self, other: &LabelSet) -> bool {
        self.0.iter().zip(&other.0).all(|(a, b)| b & !a == 0)
    }

    pub fn contains(&self, label: Label) -> bool {
        let i = label as usize;
        self.0[i / 64] & (1 << (i % 64)) != 0
    }

    /// The set with every theme its labels imply ([`IMPLIED_THEMES`]).
    pub fn with_implied(mut self) -> LabelSet {
        for &(label, theme) in IMPLIED_THEMES {
            if self.contains(label) {
                self.insert(theme);
            }
        }
        self
    }

    /// Whether the two sets share a label.
    pub fn intersects(&self, other: &LabelSet) -> bool {
        self.0.iter().zip(&other.0).any(|(a, b)| a & b != 0)
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// The labels in the set, in declaration order.
    pub fn iter(&self) -> LabelSetIter {
        LabelSetIter { words: self.0, word: 0 }
    }
}

/// The labels of a [`LabelSet`], in declaration order: the set bits, lowest
/// first, found by counting trailing zeros rather than testing every label.
pub struct LabelSetIter {
    words: [u64; LabelSet::WORDS],
    word: usize,
}

impl Iterator for LabelSetIter {
    type Item = Label;

    fn next(&mut self) -> Option<Label> {
        while let Some(bits) = self.words.get_mut(self.word) {
            if *bits == 0 {
                self.word += 1;
                continue;
            }
            let bit = bits.trailing_zeros() as usize;
            *bits &= *bits - 1;
            return Label::ALL.get(self.word * 64 + bit).copied();
        }
        None
    }
}

impl IntoIterator for LabelSet {
    type Item = Label;
    type IntoIter = LabelSetIter;

    fn into_iter(self) -> LabelSetIter {
        self.iter()
    }
}

impl Extend<Label> for LabelSet {
    fn extend<I: IntoIterator<Item = Label>>(&mut self, iter: I) {
        for label in iter {
            self.insert(label);
        }
    }
}

impl FromIterator<Label> for LabelSet {
    fn from_iter<I: IntoIterator<Item = Label>>(iter: I) -> LabelSet {
        let mut set = LabelSet::new();
        set.extend(iter);
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_sets_iterate_in_declaration_order_across_words() {
        let picked: Vec<Label> = [0, 1, 63, 64, Label::ALL.len() - 1].iter().map(|&i| Label::ALL[i]).collect();
        let set: LabelSet = picked.iter().rev().copied().collect();
        assert_eq!(set.iter().collect::<Vec<_>>(), picked);
        let all: LabelSet = Label::ALL.iter().copied().collect();
        assert_eq!(all.iter().collect::<Vec<_>>(), Label::ALL);
        assert_eq!(LabelSet::new().iter().next(), None);
    }

    #[test]
    fn the_table_is_indexed_by_the_enum() {
        for (i, info) in LABELS.iter().enumerate() {
            assert_eq!(info.label as usize, i, "{}", info.name);
            assert_eq!(info.label.info(), info);
        }
    }

    #[test]
    fn label_names_round_trip_and_are_unique() {
        for &label in Label::ALL {
            assert_eq!(Label::from_name(label.name()), Some(label));
        }
        assert_eq!(Label::MateIn2.name(), "mateIn2");
        assert_eq!(Label::from_name("nonsense"), None);
    }

    #[test]
    fn names_are_lower_camel_case() {
        for info in LABELS {
            assert!(info.name.chars().next().unwrap().is_ascii_lowercase(), "{}", info.name);
            assert!(info.name.chars().all(|c| c.is_ascii_alphanumeric()), "{}", info.name);
        }
    }

    #[test]
    fn flags_are_read_from_the_declaration() {
        assert!(Label::Fork.is_material_motif() && Label::Fork.info().lichess);
        assert!(!Label::DiscoveredCheck.is_material_motif());
        assert!(!Label::PinnedDefender.info().lichess);
        assert_eq!(Label::Pin.info().roles[0], RoleName::pinned);
    }

    #[test]
    fn a_set_holds_labels_past_the_sixty_fourth() {
        let mut set = LabelSet::new();
        assert!(set.is_empty());
        set.insert(Label::VeryLong);
        set.insert(Label::PinnedDefender);
        assert!(set.contains(Label::VeryLong) && !set.contains(Label::Fork));
        assert_eq!(set.iter().collect::<Vec<_>>(), vec![Label::PinnedDefender, Label::VeryLong]);
        // As many words as the vocabulary needs: no cap at 64 labels.
        assert!(LabelSet::WORDS * 64 >= Label::ALL.len() && (LabelSet::WORDS - 1) * 64 < Label::ALL.len());
    }

    #[test]
    fn vocabulary_renderings_list_every_label() {
        let json: serde_json::Value = serde_json::from_str(&vocabulary_json()).unwrap();
        let entries = json.as_array().unwrap();
        assert_eq!(entries.len(), LABELS.len());
        assert_eq!(entries[0]["name"], "pinnedDefender");
        assert_eq!(entries[0]["kind"], "move");
        assert_eq!(entries[0]["family"], "seed");
        assert_eq!(entries[0]["doc"], "docs/tactics/pinnedDefender.md");
        assert!(entries[0]["roles"].as_array().unwrap().iter().any(|r| r["name"] == "pinner" && r["holds"] == "one"));
        let fork = entries.iter().find(|e| e["name"] == "fork").unwrap();
        assert!(fork["roles"].as_array().unwrap().iter().any(|r| r["name"] == "targets" && r["holds"] == "many"));
        let text = vocabulary_text();
        assert_eq!(text.lines().count(), LABELS.len() + 4);
        assert!(text.lines().any(|l| l.starts_with("fork ") && l.contains("attacker,targets[],victim")));
        assert!(text.contains("mateIn2") && text.contains("puzzle"));
        let table = vocabulary_markdown();
        assert!(table.contains("| length | puzzle | [`oneMove`](docs/tactics/oneMove.md)"));
    }
}
