//! The two output tables of spec §6, `puzzles` and `fires`: their columns,
//! and how one batch of annotated rows becomes their arrays.
//!
//! The tables are declared once, here, for every Arrow implementation that
//! holds them: the Parquet writer builds polars-arrow arrays (`output/`),
//! the Python package arrow-rs arrays (`python/`). Each implements
//! [`ArrayBuilder`]; what goes into which column is decided only here.

use crate::annotate::{Analysis, Annotated, Outcome};
use crate::input::Columns;
use crate::label::Label;
use crate::lichess::{Theme, ThemeAt};
use crate::role::{Arity, RoleName, Roles};

/// What a column holds, which fixes its type (and, in Parquet, its encoding).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// 64-bit integers, distinct per row (row numbers).
    Int64,
    /// 32-bit integers that repeat (ratings, plies, gains).
    Int32,
    Bool,
    /// Text distinct per row (ids, FEN, moves, URLs).
    Text,
    /// Text that repeats (moves in UCI and SAN, error messages).
    RepeatedText,
    /// Text from Koga's own vocabulary (labels, squares, status).
    Vocabulary,
    /// A list of input words (Lichess's themes, opening tags).
    Words,
    /// A list of Koga's labels.
    Labels,
    /// A list of squares (a role that holds several), in colour-relative order.
    Squares,
    /// A list of Lichess's themes; null where none were computed.
    Themes,
    /// A list of plies, each of which may be null.
    Plies,
    /// Booleans, each of which may be null.
    NullableBool,
}

/// Columns of `puzzles.parquet`, in order.
pub const PUZZLES_COLUMNS: [(&str, Kind); 19] = [
    ("row_number", Kind::Int64),
    ("puzzle_id", Kind::Text),
    ("status", Kind::Vocabulary),
    ("error", Kind::RepeatedText),
    ("fen", Kind::Text),
    ("moves", Kind::Text),
    ("rating", Kind::Int32),
    ("rating_deviation", Kind::Int32),
    ("popularity", Kind::Int32),
    ("nb_plays", Kind::Int32),
    ("lichess_themes", Kind::Words),
    ("game_url", Kind::Text),
    ("opening_tags", Kind::Words),
    ("plies", Kind::Int32),
    ("key_labels", Kind::Labels),
    ("follow_up_labels", Kind::Labels),
    ("puzzle_labels", Kind::Labels),
    ("themes", Kind::Themes),
    ("theme_plies", Kind::Plies),
];

/// Columns the engine stage adds to `puzzles.parquet` (`--engine`), after
/// [`PUZZLES_COLUMNS`]; without it they are not written at all. The
/// per-move lists (`alt_*`) hold one entry per solver move. The engine's
/// themes go into `themes` ([`crate::annotate::add_engine_verdict`]).
pub const ENGINE_COLUMNS: [(&str, Kind); 9] = [
    ("engine_cp", Kind::Int32),
    ("engine_mate", Kind::Int32),
    ("sound", Kind::NullableBool),
    ("alt_moves", Kind::Words),
    ("alt_cp", Kind::Plies),
    ("alt_mate", Kind::Plies),
    ("move_cp", Kind::Plies),
    ("move_mate", Kind::Plies),
    ("engine_error", Kind::RepeatedText),
];

/// Columns of `puzzles.parquet`, in order, with or without the engine's.
pub fn puzzles_columns(engine: bool) -> Vec<(&'static str, Kind)> {
    let extra: &[(&str, Kind)] = if engine { &ENGINE_COLUMNS } else { &[] };
    PUZZLES_COLUMNS.iter().chain(extra).copied().collect()
}

/// Columns of `fires.parquet` before the role columns, in order.
const FIRES_COLUMNS: [(&str, Kind); 10] = [
    ("row_number", Kind::Int64),
    ("puzzle_id", Kind::Text),
    ("ply", Kind::Int32),
    ("uci", Kind::RepeatedText),
    ("san", Kind::RepeatedText),
    ("label", Kind::Vocabulary),
    ("follow_up", Kind::Bool),
    ("gain", Kind::Int32),
    ("collects", Kind::Int32),
    ("lichess", Kind::Bool),
];

/// Columns of `fires.parquet`, in order: the fixed ones, then one per role:
/// a square name for a one-square role, a list of them for a set role.
pub fn fires_columns() -> Vec<(&'static str, Kind)> {
    let role_column = |role: RoleName| match role.arity() {
        Arity::One => (role.name(), Kind::Vocabulary),
        Arity::Many => (role.name(), Kind::Squares),
    };
    FIRES_COLUMNS.iter().copied().chain(RoleName::ALL.iter().map(|&role| role_column(role))).collect()
}

/// Square names, indexed by square (`a1` = 0, `h8` = 63).
pub const SQUARE_NAMES: [&str; 64] = [
    "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2", "a3", "b3", "c3",
    "d3", "e3", "f3", "g3", "h3", "a4", "b4", "c4", "d4", "e4", "f4", "g4", "h4", "a5", "b5", "c5", "d5", "e5", "f5",
    "g5", "h5", "a6", "b6", "c6", "d6", "e6", "f6", "g6", "h6", "a7", "b7", "c7", "d7", "e7", "f7", "g7", "h7", "a8",
    "b8", "c8", "d8", "e8", "f8", "g8", "h8",
];

/// The values of `status`.
const STATUS: [&str; 2] = ["ok", "error"];

// Vocabulary entries (labels and themes among them) are `u8` indices.
const _: () = assert!(Label::NAMES.len() <= 256 && Theme::NAMES.len() <= 256);

/// Builds the arrays of one Arrow implementation (or the pages of one
/// Parquet writer), one method per column [`Kind`].
pub trait ArrayBuilder {
    type Array;
    /// Non-null 64-bit integers.
    fn int64(&self, values: Vec<i64>) -> Self::Array;
    fn int32(&self, values: impl Iterator<Item = Option<i32>>) -> Self::Array;
    /// Integers with as many values as rows, near one another from row to
    /// row (ratings, play counts): the same values as
    /// [`ArrayBuilder::int32`], which a writer may encode differently.
    fn spread_int32(&self, values: impl Iterator<Item = Option<i32>>) -> Self::Array {
        self.int32(values)
    }
    /// Non-null booleans.
    fn bool(&self, values: Vec<bool>) -> Self::Array;
    /// Booleans that may be null.
    fn nullable_bool(&self, values: impl Iterator<Item = Option<bool>>) -> Self::Array;
    fn text<'a>(&self, len: usize, values: impl Iterator<Item = Option<&'a str>>) -> Self::Array;
    /// Text that shares a prefix with the row before (URLs, sorted ids, a
    /// puzzle's id over its fires): the same values as
    /// [`ArrayBuilder::text`], which a writer may encode differently.
    fn prefixed_text<'a>(&self, len: usize, values: impl Iterator<Item = Option<&'a str>>) -> Self::Array {
        self.text(len, values)
    }
    /// Text that repeats: the same values as [`ArrayBuilder::text`], which
    /// a writer may encode differently.
    fn repeated_text<'a>(&self, len: usize, values: impl Iterator<Item = Option<&'a str>>) -> Self::Array {
        self.text(len, values)
    }
    /// Text that repeats, given as codes, equal for equal texts only, and
    /// the text of a row (`text_of(row, out)` appends it), asked for where
    /// the writer needs it: the same values as [`ArrayBuilder::repeated_text`]
    /// of every row's text, none null.
    fn coded_text(&self, codes: &[u32], mut text_of: impl FnMut(usize, &mut Vec<u8>)) -> Self::Array {
        let texts: Vec<String> = (0..codes.len())
            .map(|row| {
                let mut text = Vec::new();
                text_of(row, &mut text);
                String::from_utf8(text).expect("text")
            })
            .collect();
        self.repeated_text(codes.len(), texts.iter().map(|text| Some(text.as_str())))
    }
    /// Text over a fixed vocabulary: `entries` are indices into `vocabulary`.
    fn vocabulary(&self, vocabulary: &[&str], entries: &[Option<u8>]) -> Self::Array;
    /// Text over a fixed vocabulary, given by the rows that hold a value
    /// (row `i` does where bit `i % 64` of `present[i / 64]` is set; bits
    /// past the rows do not count) and
    /// those rows' `entries`, in order: the column [`ArrayBuilder::vocabulary`]
    /// makes of the same values, with no work for the null rows.
    fn present_vocabulary(&self, vocabulary: &[&str], rows: usize, present: Vec<u64>, entries: Vec<u8>) -> Self::Array {
        let mut entries = entries.into_iter();
        let entries: Vec<Option<u8>> = (0..rows)
            .map(|i| (present[i / 64] >> (i % 64) & 1 == 1).then(|| entries.next().expect("an entry per value")))
            .collect();
        self.vocabulary(vocabulary, &entries)
    }
    /// Lists over a fixed vocabulary, none null, given by the rows whose
    /// lists hold items (`lists`: the row and how many, in row order) and
    /// those items in order; every other row of the `rows` an empty list.
    /// The column [`ArrayBuilder::vocabulary_lists`] makes of every row's
    /// list, with no work for the empty ones.
    fn sparse_vocabulary_lists(
        &self,
        vocabulary: &[&str],
        rows: usize,
        lists: &[(u32, u8)],
        entries: Vec<u8>,
    ) -> Self::Array {
        let mut lengths = vec![0usize; rows];
        for &(row, len) in lists {
            lengths[row as usize] = usize::from(len);
        }
        let mut at = 0;
        self.vocabulary_lists(
            vocabulary,
            lengths.iter().map(|&len| {
                at += len;
                Some(entries[at - len..at].iter().copied())
            }),
        )
    }
    /// Lists of text; `None` is a null row, distinct from an empty list.
    fn words<'a, I: Iterator<Item = &'a str>>(&self, lists: impl Iterator<Item = Option<I>>) -> Self::Array;
    /// Lists of text, each given as the input field that holds its words
    /// between spaces ([`space_separated`]); `None` is a null row. The same
    /// lists as [`ArrayBuilder::words`] of the words, which a writer may
    /// find another way (a field that repeats split once).
    fn spaced_words<'a>(&self, fields: impl Iterator<Item = Option<&'a str>>) -> Self::Array {
        self.words(fields.map(|field| field.map(space_separated)))
    }
    /// Lists over a fixed vocabulary (labels, squares, themes): each item
    /// an index into `vocabulary`; `None` is a null row.
    fn vocabulary_lists<I: Iterator<Item = u8>>(
        &self,
        vocabulary: &[&str],
        lists: impl Iterator<Item = Option<I>>,
    ) -> Self::Array;
    /// Lists of 32-bit integers, each of which may be null; `None` is a
    /// null row.
    fn int32_lists<I: Iterator<Item = Option<i32>>>(&self, lists: impl Iterator<Item = Option<I>>) -> Self::Array;
}

/// One batch's rows of a table, column by column.
pub struct Chunk<A> {
    pub rows: usize,
    pub arrays: Vec<A>,
}

fn row_numbers<'a>(rows: impl Iterator<Item = &'a Annotated<'a>>) -> Vec<i64> {
    rows.map(|a| a.row.index as i64 + 1).collect()
}

#[inline]
fn field<'r>(a: &Annotated<'r>, column: Option<usize>) -> Option<&'r str> {
    a.row.field(column)
}

/// A space-separated field, whose words are a list; null when the input has
/// no such column.
fn words<'r>(a: &Annotated<'r>, column: Option<usize>) -> Option<&'r str> {
    column?;
    Some(field(a, column).unwrap_or(""))
}

/// The words of `text` between spaces, as `text.split(' ')` without the
/// empty ones, a byte search each (a space is never inside a character).
/// Splitting on the space byte alone is what the format promises; runs of
/// spaces give no empty words.
pub fn space_separated(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        let bytes = rest.as_bytes();
        let start = bytes.iter().position(|&b| b != b' ')?;
        let end = bytes[start..].iter().position(|&b| b == b' ').map_or(bytes.len(), |n| start + n);
        let word = &rest[start..end];
        rest = &rest[end..];
        Some(word)
    })
}

fn analysis<'b>(a: &'b Annotated<'_>) -> Option<&'b Analysis> {
    match &a.outcome {
        Outcome::Ok(an) => Some(an),
        _ => None,
    }
}

/// The row's Lichess themes, where computed.
fn themes<'b>(a: &'b Annotated<'_>) -> Option<&'b [ThemeAt]> {
    analysis(a)?.themes.as_deref()
}

/// Lists of labels.
fn labels<B: ArrayBuilder, I: Iterator<Item = Label>>(b: &B, lists: impl Iterator<Item = I>) -> B::Array {
    b.vocabulary_lists(Label::NAMES, lists.map(|labels| Some(labels.map(|label| label as u8))))
}

/// The `puzzles` rows of a batch: one per row the run keeps.
pub fn puzzles_chunk<B: ArrayBuilder>(b: &B, batch: &[Annotated], c: &Columns) -> Chunk<B::Array> {
    let rows: Vec<&Annotated> = batch.iter().filter(|a| !matches!(a.outcome, Outcome::Filtered)).collect();
    let n = rows.len();
    let errors: Vec<Option<String>> = rows
        .iter()
        .map(|a| match &a.outcome {
            Outcome::Error(e) => Some(e.to_string()),
            _ => None,
        })
        .collect();
    let status: Vec<Option<u8>> = rows.iter().map(|a| Some(u8::from(analysis(a).is_none()))).collect();
    let arrays = vec![
        b.int64(row_numbers(rows.iter().copied())),
        b.text(n, rows.iter().map(|a| a.row.puzzle_id(c))),
        b.vocabulary(&STATUS, &status),
        b.repeated_text(n, errors.iter().map(Option::as_deref)),
        b.text(n, rows.iter().map(|a| field(a, Some(c.fen)))),
        b.text(n, rows.iter().map(|a| field(a, Some(c.moves)))),
        b.spread_int32(rows.iter().map(|a| a.numbers.rating)),
        b.int32(rows.iter().map(|a| a.numbers.rating_deviation)),
        b.int32(rows.iter().map(|a| a.numbers.popularity)),
        b.spread_int32(rows.iter().map(|a| a.numbers.nb_plays)),
        b.spaced_words(rows.iter().map(|a| words(a, c.themes))),
        b.prefixed_text(n, rows.iter().map(|a| field(a, c.game_url))),
        b.spaced_words(rows.iter().map(|a| words(a, c.opening_tags))),
        b.int32(rows.iter().map(|a| analysis(a).map(|an| an.plies() as i32))),
        labels(b, rows.iter().map(|a| analysis(a).into_iter().flat_map(|an| an.labels(false)))),
        labels(b, rows.iter().map(|a| analysis(a).into_iter().flat_map(|an| an.labels(true)))),
        labels(b, rows.iter().map(|a| analysis(a).map(|an| an.puzzle_labels).unwrap_or_default().into_iter())),
        b.vocabulary_lists(Theme::NAMES, rows.iter().map(|a| themes(a).map(|t| t.iter().map(|t| t.theme as u8)))),
        b.int32_lists(rows.iter().map(|a| themes(a).map(|t| t.iter().map(|t| t.ply.map(i32::from))))),
    ];
    let mut arrays = arrays;
    if c.engine {
        arrays.extend(engine_arrays(b, &rows));
    }
    Chunk { rows: n, arrays }
}

/// The engine stage's columns ([`ENGINE_COLUMNS`]) of the kept rows.
fn engine_arrays<B: ArrayBuilder>(b: &B, rows: &[&Annotated]) -> Vec<B::Array> {
    use crate::engine::{Alternative, Score, Verdict};
    let outcomes: Vec<Option<&crate::engine::Outcome>> =
        rows.iter().map(|a| analysis(a).and_then(|an| an.engine.as_ref())).collect();
    let verdicts: Vec<Option<&Verdict>> = outcomes.iter().map(|o| o.and_then(|o| o.as_ref().ok())).collect();
    let alt = |pick: fn(&Alternative) -> Option<i32>| {
        b.int32_lists(verdicts.iter().map(move |v| v.map(move |v| v.alternatives.iter().map(pick))))
    };
    vec![
        b.int32(verdicts.iter().map(|v| v.and_then(Verdict::cp))),
        b.int32(verdicts.iter().map(|v| v.and_then(Verdict::mate))),
        b.nullable_bool(verdicts.iter().map(|v| v.map(Verdict::sound))),
        // "0000" (UCI's null move) where the puzzle's move was the only legal one
        b.words(verdicts.iter().map(|v| v.map(|v| v.alternatives.iter().map(|a| a.mv.as_deref().unwrap_or("0000"))))),
        alt(|a| match a.score {
            Some(Score::Cp(cp)) => Some(cp),
            _ => None,
        }),
        alt(|a| match a.score {
            Some(Score::Mate(m)) => Some(m),
            _ => None,
        }),
        alt(|a| match a.played {
            Some(Score::Cp(cp)) => Some(cp),
            _ => None,
        }),
        alt(|a| match a.played {
            Some(Score::Mate(m)) => Some(m),
            _ => None,
        }),
        b.repeated_text(rows.len(), outcomes.iter().map(|o| o.and_then(|o| o.as_ref().err()).map(String::as_str))),
    ]
}

/// A move in UCI as a number, equal for moves of equal text only: its
/// squares and promotion (a drop, the null move apart).
fn uci_code(uci: &shakmaty::uci::UciMove) -> u32 {
    use shakmaty::uci::UciMove;
    match *uci {
        UciMove::Normal { from, to, promotion } => {
            from as u32 | (to as u32) << 6 | promotion.map_or(0, |role| role as u32) << 12
        }
        UciMove::Put { role, to } => 1 << 15 | (role as u32) << 6 | to as u32,
        UciMove::Null => 1 << 16,
    }
}

/// A move in SAN with its sign as a number, equal for moves of equal text
/// only: the fields the text is written from.
fn san_code(san: &shakmaty::san::SanPlus) -> u32 {
    use shakmaty::san::{San, Suffix};
    let suffix = match san.suffix {
        None => 0,
        Some(Suffix::Check) => 1,
        Some(Suffix::Checkmate) => 2,
    };
    let fields = match san.san {
        San::Normal { role, file, rank, capture, to, promotion } => {
            role as u32
                | file.map_or(0, |file| file as u32 + 1) << 3
                | rank.map_or(0, |rank| rank as u32 + 1) << 7
                | u32::from(capture) << 11
                | (to as u32) << 12
                | promotion.map_or(0, |role| role as u32) << 18
        }
        San::Castle(side) => 1 << 21 | side as u32,
        San::Put { role, to } => 2 << 21 | (role as u32) << 6 | to as u32,
        San::Null => 3 << 21,
    };
    fields << 2 | suffix
}

/// Letters of the roles (`Role::Pawn` is 1), in SAN and in UCI (a
/// promotion).
const ROLE_UPPER: &[u8; 7] = b" PNBRQK";
const ROLE_LOWER: &[u8; 7] = b" pnbrqk";

/// A move's text, built in a register and appended at once: the longest
/// (`Qa1xb2=Q+`, in SAN) is under 16 bytes.
struct MoveText {
    bytes: u128,
    len: u32,
}

impl MoveText {
    fn new() -> MoveText {
        MoveText { bytes: 0, len: 0 }
    }

    #[inline]
    fn push(&mut self, byte: u8) {
        self.bytes |= u128::from(byte) << (8 * self.len);
        self.len += 1;
    }

    #[inline]
    fn square(&mut self, sq: shakmaty::Square) {
        let index = sq as u8;
        self.push(b'a' + (index & 7));
        self.push(b'1' + (index >> 3));
    }

    /// Sixteen bytes appended and the ones past the text cut: a copy of
    /// a fixed size, with no call.
    #[inline]
    fn append_to(&self, out: &mut Vec<u8>) {
        let end = out.len() + self.len as usize;
        out.extend_from_slice(&self.bytes.to_le_bytes());
        out.truncate(end);
    }
}

/// A move in UCI: the text `UciMove::append_to_string` writes, without
/// going through its writer one character at a time.
fn push_uci(out: &mut Vec<u8>, uci: &shakmaty::uci::UciMove) {
    use shakmaty::uci::UciMove;
    let mut text = MoveText::new();
    match *uci {
        UciMove::Normal { from, to, promotion } => {
            text.square(from);
            text.square(to);
            if let Some(role) = promotion {
                text.push(ROLE_LOWER[role as usize]);
            }
        }
        UciMove::Put { role, to } => {
            text.push(ROLE_UPPER[role as usize]);
            text.push(b'@');
            text.square(to);
        }
        UciMove::Null => (0..4).for_each(|_| text.push(b'0')),
    }
    text.append_to(out);
}

/// A move in SAN with its check or mate sign: the text
/// `SanPlus::append_to_string` writes.
fn push_san(out: &mut Vec<u8>, san: &shakmaty::san::SanPlus) {
    use shakmaty::san::{San, Suffix};
    use shakmaty::{CastlingSide, Role};
    let mut text = MoveText::new();
    match san.san {
        San::Normal { role, file, rank, capture, to, promotion } => {
            if role != Role::Pawn {
                text.push(ROLE_UPPER[role as usize]);
            }
            if let Some(file) = file {
                text.push(b'a' + file as u8);
            }
            if let Some(rank) = rank {
                text.push(b'1' + rank as u8);
            }
            if capture {
                text.push(b'x');
            }
            text.square(to);
            if let Some(role) = promotion {
                text.push(b'=');
                text.push(ROLE_UPPER[role as usize]);
            }
        }
        San::Castle(side) => {
            let castle: &[u8] = if side == CastlingSide::KingSide { b"O-O" } else { b"O-O-O" };
            castle.iter().for_each(|&b| text.push(b));
        }
        San::Put { role, to } => {
            if role != Role::Pawn {
                text.push(ROLE_UPPER[role as usize]);
            }
            text.push(b'@');
            text.square(to);
        }
        San::Null => (0..2).for_each(|_| text.push(b'-')),
    }
    match san.suffix {
        Some(Suffix::Check) => text.push(b'+'),
        Some(Suffix::Checkmate) => text.push(b'#'),
        None => {}
    }
    text.append_to(out);
}

/// The one-square roles, then the set roles: [`RoleName::ALL`], the
/// columns' order (a test checks it).
const ONE_ROLES: [RoleName; 9] = [
    RoleName::victim,
    RoleName::defender,
    RoleName::pinner,
    RoleName::pinned,
    RoleName::behind,
    RoleName::attacker,
    RoleName::moved,
    RoleName::threatened,
    RoleName::mated,
];
const SET_ROLES: [RoleName; 5] =
    [RoleName::targets, RoleName::checkers, RoleName::guards, RoleName::blockers, RoleName::escapes];

/// A fire's one-square roles in [`ONE_ROLES`] order, read as fields, with
/// no match on a role name per role.
fn one_squares(roles: &Roles) -> [Option<shakmaty::Square>; ONE_ROLES.len()] {
    let r = roles;
    [r.victim, r.defender, r.pinner, r.pinned, r.behind, r.attacker, r.moved, r.threatened, r.mated]
}

/// A fire's set roles in [`SET_ROLES`] order.
fn set_squares(roles: &Roles) -> [shakmaty::Bitboard; SET_ROLES.len()] {
    let r = roles;
    [r.targets, r.checkers, r.guards, r.blockers, r.escapes]
}

/// The `fires` rows of a batch: one per fire of its annotated rows.
pub fn fires_chunk<B: ArrayBuilder>(b: &B, batch: &[Annotated], c: &Columns) -> Chunk<B::Array> {
    // (row, the fire, the fire's judged move)
    type FireRow<'a> =
        (&'a Annotated<'a>, &'a crate::tactics::Fire, &'a (shakmaty::uci::UciMove, shakmaty::san::SanPlus));
    let n = batch.iter().filter_map(analysis).map(|an| an.fires.len()).sum();
    let mut fires: Vec<FireRow> = Vec::with_capacity(n);
    // Each fire's puzzle id, read from its row once for all its fires.
    let mut ids: Vec<Option<&str>> = Vec::with_capacity(n);
    for a in batch {
        if let Some(an) = analysis(a).filter(|an| !an.fires.is_empty()) {
            fires.extend(an.fires.iter().zip(&an.fire_moves).map(|(f, m)| (a, f, m)));
            ids.extend(std::iter::repeat_n(a.row.puzzle_id(c), an.fires.len()));
        }
    }
    // The judged moves as codes, equal for equal texts only: each move's
    // text is written only where the columns first meet it.
    let uci_codes: Vec<u32> = fires.iter().map(|(_, _, (uci, _))| uci_code(uci)).collect();
    let san_codes: Vec<u32> = fires.iter().map(|(_, _, (_, san))| san_code(san)).collect();
    let mut arrays = vec![
        b.int64(row_numbers(fires.iter().map(|(a, _, _)| *a))),
        b.text(n, ids.iter().copied()),
        b.int32(fires.iter().map(|(_, f, _)| Some(i32::from(f.ply)))),
        b.coded_text(&uci_codes, |i, out| push_uci(out, &fires[i].2 .0)),
        b.coded_text(&san_codes, |i, out| push_san(out, &fires[i].2 .1)),
        b.present_vocabulary(
            Label::NAMES,
            n,
            vec![u64::MAX; n.div_ceil(64)],
            fires.iter().map(|(_, f, _)| f.label as u8).collect(),
        ),
        b.bool(fires.iter().map(|(_, f, _)| f.follow_up).collect()),
        b.int32(fires.iter().map(|(_, f, _)| f.gain.map(i32::from))),
        b.int32(fires.iter().map(|(_, f, _)| f.collects.map(i32::from))),
        b.bool(fires.iter().map(|(a, f, _)| analysis(a).is_some_and(|an| an.sits_lichess_theme(f))).collect()),
    ];
    // The role columns in one pass over the fires. Most fires leave most
    // roles empty: only the rows that hold a square are marked, and only
    // their squares gathered (a one-square role's rows by a bit each, a set
    // role's as the row and its number of squares).
    let mut present: [Vec<u64>; ONE_ROLES.len()] = std::array::from_fn(|_| vec![0u64; n.div_ceil(64)]);
    let mut squares: [Vec<u8>; ONE_ROLES.len()] = std::array::from_fn(|_| Vec::new());
    let mut lists: [Vec<(u32, u8)>; SET_ROLES.len()] = std::array::from_fn(|_| Vec::new());
    let mut list_squares: [Vec<u8>; SET_ROLES.len()] = std::array::from_fn(|_| Vec::new());
    for (i, (_, f, _)) in fires.iter().enumerate() {
        for (k, square) in one_squares(&f.roles).into_iter().enumerate() {
            if let Some(sq) = square {
                present[k][i / 64] |= 1 << (i % 64);
                squares[k].push(sq as u8);
            }
        }
        for (k, set) in set_squares(&f.roles).into_iter().enumerate() {
            if set.any() {
                let before = list_squares[k].len();
                list_squares[k].extend(crate::board::relative_squares(set, f.solver).map(|sq| sq as u8));
                lists[k].push((i as u32, (list_squares[k].len() - before) as u8));
            }
        }
    }
    for (present, squares) in present.into_iter().zip(squares) {
        arrays.push(b.present_vocabulary(&SQUARE_NAMES, n, present, squares));
    }
    for (lists, squares) in lists.iter().zip(list_squares) {
        arrays.push(b.sparse_vocabulary_lists(&SQUARE_NAMES, n, lists, squares));
    }
    Chunk { rows: n, arrays }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::annotate::{annotate_row, RowFilter};
    use crate::input::RowBatch;
    use crate::LineForm;

    /// Arrays as the values they hold, rendered as text: what every
    /// implementation of the builder must agree on.
    struct Rendered;

    impl ArrayBuilder for Rendered {
        type Array = Vec<String>;
        fn int64(&self, values: Vec<i64>) -> Vec<String> {
            values.iter().map(i64::to_string).collect()
        }
        fn int32(&self, values: impl Iterator<Item = Option<i32>>) -> Vec<String> {
            values.map(|v| format!("{v:?}")).collect()
        }
        fn bool(&self, values: Vec<bool>) -> Vec<String> {
            values.iter().map(bool::to_string).collect()
        }
        fn nullable_bool(&self, values: impl Iterator<Item = Option<bool>>) -> Vec<String> {
            values.map(|v| format!("{v:?}")).collect()
        }
        fn text<'a>(&self, _: usize, values: impl Iterator<Item = Option<&'a str>>) -> Vec<String> {
            values.map(|v| format!("{v:?}")).collect()
        }
        fn vocabulary(&self, vocabulary: &[&str], entries: &[Option<u8>]) -> Vec<String> {
            entries.iter().map(|e| format!("{:?}", e.map(|e| vocabulary[usize::from(e)]))).collect()
        }
        fn words<'a, I: Iterator<Item = &'a str>>(&self, lists: impl Iterator<Item = Option<I>>) -> Vec<String> {
            lists.map(|list| format!("{:?}", list.map(|words| words.collect::<Vec<_>>()))).collect()
        }
        fn vocabulary_lists<I: Iterator<Item = u8>>(
            &self,
            vocabulary: &[&str],
            lists: impl Iterator<Item = Option<I>>,
        ) -> Vec<String> {
            lists
                .map(|items| match items {
                    Some(items) => items.map(|i| vocabulary[usize::from(i)]).collect::<Vec<_>>().join(" "),
                    None => "null".to_owned(),
                })
                .collect()
        }
        fn int32_lists<I: Iterator<Item = Option<i32>>>(&self, lists: impl Iterator<Item = Option<I>>) -> Vec<String> {
            lists.map(|list| format!("{:?}", list.map(|items| items.collect::<Vec<_>>()))).collect()
        }
    }

    const FEN: &str = "4r3/1k6/pp3r2/1b2P2p/3R1p2/P1R2P2/1P4PP/6K1 w - - 0 35";

    fn chunks() -> (Chunk<Vec<String>>, Chunk<Vec<String>>) {
        let batch = RowBatch::of(&[
            &["000Zo", FEN, "e5f6 e8e1 g1f2 e1f1", "1500", "mate  mateIn2"],
            &["bad", "8/8 w", "e2e4", "", ""],
        ]);
        let columns =
            Columns { puzzle_id: 0, fen: 1, moves: 2, rating: Some(3), themes: Some(4), ..Columns::default() };
        let rows: Vec<Annotated> =
            batch.rows().map(|row| annotate_row(row, &columns, LineForm::Puzzle, &RowFilter::default())).collect();
        (puzzles_chunk(&Rendered, &rows, &columns), fires_chunk(&Rendered, &rows, &columns))
    }

    fn column<'c>(chunk: &'c Chunk<Vec<String>>, columns: &[(&str, Kind)], name: &str) -> &'c [String] {
        &chunk.arrays[columns.iter().position(|&(n, _)| n == name).unwrap()]
    }

    proptest::proptest! {
        /// Words are what splitting at every space keeps, for any text.
        #[test]
        fn words_are_the_text_split_at_spaces(text in "[ a-zé\u{3000}]{0,40}") {
            let ours: Vec<&str> = space_separated(&text).collect();
            let split: Vec<&str> = text.split(' ').filter(|w| !w.is_empty()).collect();
            proptest::prop_assert_eq!(ours, split);
        }
    }

    proptest::proptest! {
        /// Every legal move of random games, promotions, castling and
        /// checks among them, written in UCI and SAN as shakmaty writes it.
        #[test]
        fn move_text_is_shakmatys(start in 0usize..2, picks in proptest::collection::vec(0usize..1000, 1..80)) {
            use shakmaty::{san::SanPlus, uci::UciMove, CastlingMode, Position as _};
            for pos in crate::board::random_game(start, &picks) {
                for m in pos.legal_moves() {
                    let (uci, san) = (UciMove::from_move(m, CastlingMode::Standard), SanPlus::from_move(pos.clone(), m));
                    let (mut ours, mut theirs) = (Vec::new(), String::new());
                    push_uci(&mut ours, &uci);
                    push_san(&mut ours, &san);
                    uci.append_to_string(&mut theirs);
                    san.append_to_string(&mut theirs);
                    proptest::prop_assert_eq!(String::from_utf8(ours).unwrap(), theirs);
                }
            }
            for special in [UciMove::Null, UciMove::Put { role: shakmaty::Role::Knight, to: shakmaty::Square::C3 }] {
                let (mut ours, mut theirs) = (Vec::new(), String::new());
                push_uci(&mut ours, &special);
                special.append_to_string(&mut theirs);
                proptest::prop_assert_eq!(String::from_utf8(ours).unwrap(), theirs);
            }
        }
    }

    proptest::proptest! {
        /// Over every legal move of random games, moves of equal codes are
        /// the moves of equal text, in UCI and in SAN.
        #[test]
        fn move_codes_are_equal_for_equal_texts(start in 0usize..2, picks in proptest::collection::vec(0usize..1000, 1..80)) {
            use std::collections::HashMap;
            use shakmaty::{san::SanPlus, uci::UciMove, CastlingMode, Position as _};
            let (mut uci_texts, mut san_texts) = (HashMap::new(), HashMap::new());
            let (mut uci_codes, mut san_codes) = (HashMap::new(), HashMap::new());
            for pos in crate::board::random_game(start, &picks) {
                for m in pos.legal_moves() {
                    let (uci, san) = (UciMove::from_move(m, CastlingMode::Standard), SanPlus::from_move(pos.clone(), m));
                    let (uci_code, san_code) = (uci_code(&uci), san_code(&san));
                    proptest::prop_assert_eq!(uci_texts.entry(uci_code).or_insert(uci.to_string()).as_str(), uci.to_string());
                    proptest::prop_assert_eq!(*uci_codes.entry(uci.to_string()).or_insert(uci_code), uci_code);
                    proptest::prop_assert_eq!(san_texts.entry(san_code).or_insert(san.to_string()).as_str(), san.to_string());
                    proptest::prop_assert_eq!(*san_codes.entry(san.to_string()).or_insert(san_code), san_code);
                }
            }
        }
    }

    #[test]
    fn role_fields_are_the_roles_in_column_order() {
        let all: Vec<RoleName> = ONE_ROLES.iter().chain(&SET_ROLES).copied().collect();
        assert_eq!(all, RoleName::ALL);
        assert!(
            ONE_ROLES.iter().all(|r| r.arity() == Arity::One) && SET_ROLES.iter().all(|r| r.arity() == Arity::Many)
        );
        // Each role a square (a set of squares) of its own.
        use shakmaty::{Bitboard, Square};
        let set = |a: Square, b: Square| Bitboard::from_square(a) | b;
        let roles = Roles {
            victim: Some(Square::A1),
            defender: Some(Square::B1),
            pinner: Some(Square::C1),
            pinned: Some(Square::D1),
            behind: Some(Square::E1),
            attacker: Some(Square::F1),
            moved: Some(Square::G1),
            threatened: Some(Square::H1),
            mated: Some(Square::A2),
            targets: set(Square::A3, Square::B3),
            checkers: set(Square::C3, Square::D3),
            guards: set(Square::E3, Square::F3),
            blockers: set(Square::G3, Square::H3),
            escapes: set(Square::A4, Square::B4),
        };
        for (k, &role) in ONE_ROLES.iter().enumerate() {
            assert_eq!(one_squares(&roles)[k], roles.square(role), "{}", role.name());
            assert!(roles.square(role).is_some());
        }
        for (k, &role) in SET_ROLES.iter().enumerate() {
            assert_eq!(set_squares(&roles)[k], roles.get(role), "{}", role.name());
        }
    }

    #[test]
    fn every_row_becomes_a_puzzles_row_and_every_fire_a_fires_row() {
        let (puzzles, fires) = chunks();
        assert_eq!((puzzles.rows, puzzles.arrays.len()), (2, PUZZLES_COLUMNS.len()));
        assert!(puzzles.arrays.iter().all(|a| a.len() == 2));
        let p = |name| column(&puzzles, &PUZZLES_COLUMNS, name);
        assert_eq!(p("row_number"), ["1", "2"]);
        assert_eq!(p("status"), ["Some(\"ok\")", "Some(\"error\")"]);
        assert_eq!(p("rating"), ["Some(1500)", "None"]);
        assert_eq!(p("lichess_themes"), ["Some([\"mate\", \"mateIn2\"])", "Some([])"]);
        assert_eq!(p("opening_tags"), ["None", "None"]);
        assert_eq!(p("key_labels"), ["mateIn2", ""]);
        assert!(p("error")[1].contains("FEN"), "{:?}", p("error"));

        let columns = fires_columns();
        assert_eq!(fires.arrays.len(), columns.len());
        assert!(fires.rows > 0 && fires.arrays.iter().all(|a| a.len() == fires.rows));
        let f = |name| column(&fires, &columns, name);
        let key: Vec<usize> = (0..fires.rows).filter(|&i| f("label")[i] == "Some(\"mateIn2\")").collect();
        assert_eq!(key.len(), 1);
        let i = key[0];
        assert_eq!((f("ply")[i].as_str(), f("uci")[i].as_str()), ("Some(1)", "Some(\"e8e1\")"));
        assert_eq!((f("san")[i].as_str(), f("follow_up")[i].as_str()), ("Some(\"Re1+\")", "false"));
        assert_eq!(f("mated")[i], "Some(\"f2\")");
    }
}
