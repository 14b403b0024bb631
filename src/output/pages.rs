//! A row group's columns encoded straight from the rows, with no Arrow
//! array in between.
//!
//! [`crate::table`] decides what goes into each column; [`PageBuilder`]
//! writes it as the body of one Parquet data page (version 1) and, where
//! values repeat, a dictionary page, with the page's statistics. What a
//! column holds (its [`crate::table::Kind`]) fixes the encoding:
//!
//! | kind | encoding |
//! |---|---|
//! | climbing integers (row numbers) | delta, bit-packed |
//! | booleans | plain |
//! | distinct text (ids, FEN, moves) | `DELTA_LENGTH_BYTE_ARRAY` |
//! | distinct text that shares a prefix with the row before (game URLs) | `DELTA_BYTE_ARRAY` |
//! | integers that repeat (ratings, plies, gains, `theme_plies`) | dictionary, in order of first appearance |
//! | repeated text, input words (themes, opening tags) | dictionary, in order of first appearance |
//! | Koga's vocabulary (labels, squares, status) | dictionary of the entries used, in vocabulary order |
//!
//! Every column is optional (nullable) in the schema; a list column is an
//! optional list of optional items. Definition and repetition levels, and
//! dictionary keys, use the run-length / bit-packed hybrid encoding
//! ([`encode_hybrid`]).
//! Statistics (min, max, null count) describe the values in the page, so
//! that readers can prune row groups and pages; for a list column the null
//! count counts the slots (items, empty and null lists) that hold no value.

use polars_parquet::parquet::statistics::ParquetStatistics;
use polars_parquet::write::Encoding;

use crate::table::ArrayBuilder;

/// One column of a row group, encoded and not yet compressed.
pub(super) struct Column {
    /// The dictionary page's body (plain values) and how many it holds.
    pub dictionary: Option<(Vec<u8>, usize)>,
    /// The data page's body, from `data[start]` on: levels, then values
    /// or dictionary keys (before `start`, room left unused).
    pub data: Vec<u8>,
    pub start: usize,
    /// Slots in the page: one per row, or per item of a list column (an
    /// empty or null list is one slot).
    pub num_values: usize,
    pub rows: usize,
    pub encoding: Encoding,
    pub statistics: ParquetStatistics,
}

#[cfg(test)]
impl Column {
    /// The data page's body.
    pub fn body(&self) -> &[u8] {
        &self.data[self.start..]
    }
}

/// Definition levels of a list column: a null list, an empty list, a null
/// item, an item. (A flat column's are 0 for a null, 1 for a value.)
const NULL_LIST: u32 = 0;
const EMPTY_LIST: u32 = 1;
const NULL_ITEM: u32 = 2;
const ITEM: u32 = 3;

/// The levels of a column's slots, as they are gathered: for a list column
/// (`LIST`), repetition and definition levels, else definition levels only.
/// Only the levels are kept: the rows and nulls are counted from them at
/// the end ([`Levels::counts`]), a word at a time.
struct Levels<const LIST: bool> {
    /// Repetition levels, for a list column (empty otherwise).
    repetition: Packed,
    definition: Packed,
    /// A flat column's rows are only counted while every one holds a
    /// value (most columns hold no null): its levels are then one RLE run
    /// of 1s. The first null packs the rows before it into `definition`
    /// ([`FlatLevels::first_null`]), and the rows after it go there too.
    leading: usize,
    packing: bool,
}

type FlatLevels = Levels<false>;
type ListLevels = Levels<true>;

/// Slots, rows and nulls of a page.
struct Counts {
    slots: usize,
    rows: usize,
    nulls: usize,
}

impl<const LIST: bool> Levels<LIST> {
    /// Bits of a definition level.
    const WIDTH: u32 = if LIST { bit_width(ITEM) } else { 1 };

    fn new(rows: usize) -> Levels<LIST> {
        let slots = if LIST { rows * 2 } else { rows };
        Levels {
            repetition: Packed::new(1, if LIST { slots } else { 0 }),
            definition: Packed::new(Self::WIDTH, if LIST { slots } else { 0 }),
            leading: 0,
            packing: LIST,
        }
    }

    #[inline(always)]
    fn slot(&mut self, repetition: u32, definition: u32) {
        if LIST {
            self.repetition.push(repetition, 1);
        }
        self.definition.push(definition, Self::WIDTH);
    }

    /// The page's slots; its rows, each of which starts with a slot of
    /// repetition level 0; its nulls, the slots whose definition level is
    /// not a value's (1 in a flat column, [`ITEM`] in a list).
    fn counts(&self) -> Counts {
        if !self.packing {
            return Counts { slots: self.leading, rows: self.leading, nulls: 0 };
        }
        let slots = self.definition.count();
        let rows = if LIST { slots - self.repetition.ones() } else { slots };
        let values = if LIST { self.definition.threes() } else { self.definition.ones() };
        Counts { slots, rows, nulls: slots - values }
    }

    /// The page's levels: repetition levels (for a list), then definition
    /// levels, each with its byte length, as a version-1 page starts.
    fn write(self, out: &mut Vec<u8>) {
        let with_length = |levels: Packed, out: &mut Vec<u8>| {
            let length_at = out.len();
            out.extend_from_slice(&[0; 4]);
            levels.write(out);
            let length = (out.len() - length_at - 4) as u32;
            out[length_at..length_at + 4].copy_from_slice(&length.to_le_bytes());
        };
        if LIST {
            with_length(self.repetition, out);
        }
        if !self.packing {
            // The bytes `Packed` writes for as many 1s: one RLE run.
            out.extend_from_slice(&[0; 4]);
            if self.leading > 0 {
                let length_at = out.len() - 4;
                uleb128(out, (self.leading as u64) << 1);
                out.push(1);
                let length = (out.len() - length_at - 4) as u32;
                out[length_at..length_at + 4].copy_from_slice(&length.to_le_bytes());
            }
            return;
        }
        with_length(self.definition, out);
    }
}

impl FlatLevels {
    /// A row of a flat column.
    #[inline(always)]
    fn row(&mut self, present: bool) {
        if !self.packing {
            if present {
                self.leading += 1;
                return;
            }
            self.first_null();
        }
        self.slot(0, u32::from(present));
    }

    /// The levels of `rows` rows, those that hold a value marked in
    /// `present` (row `i` by bit `i % 64` of word `i / 64`; bits past the
    /// rows are left out), `values` of them: a row's level is its bit, so
    /// the words are the packed levels.
    fn of_present(rows: usize, mut present: Vec<u64>, values: usize) -> FlatLevels {
        let mut levels = FlatLevels::new(0);
        if values == rows {
            levels.leading = rows;
            return levels;
        }
        levels.packing = true;
        present.truncate(rows.div_ceil(64));
        if !rows.is_multiple_of(64) {
            let last = present.pop().expect("a word for the last rows");
            levels.definition.word = last & ((1 << (rows % 64)) - 1);
            levels.definition.filled = (rows % 64) as u32;
        }
        levels.definition.words = present;
        levels
    }

    /// `rows` rows, each a value.
    fn values(&mut self, rows: usize) {
        match self.packing {
            false => self.leading += rows,
            true => (0..rows).for_each(|_| self.slot(0, 1)),
        }
    }

    /// Packs the rows counted so far, all values, as the levels of the
    /// rows after them will be.
    #[cold]
    fn first_null(&mut self) {
        self.packing = true;
        let leading = std::mem::take(&mut self.leading);
        self.definition.words.extend(std::iter::repeat_n(u64::MAX, leading / 64));
        self.definition.filled = (leading % 64) as u32;
        self.definition.word = (1u64 << self.definition.filled) - 1;
    }
}

impl ListLevels {
    /// A row of a list column: `item` is called on each present item.
    fn list_row<T>(&mut self, list: Option<impl Iterator<Item = Option<T>>>, mut item: impl FnMut(T)) {
        let Some(items) = list else { return self.slot(0, NULL_LIST) };
        let mut first = true;
        for value in items {
            match value {
                Some(value) => {
                    self.slot(u32::from(!first), ITEM);
                    item(value);
                }
                None => self.slot(u32::from(!first), NULL_ITEM),
            }
            first = false;
        }
        if first {
            self.slot(0, EMPTY_LIST);
        }
    }

    /// `count` rows of empty lists, a word of levels at a time.
    fn empty_lists(&mut self, count: usize) {
        // Repetition levels 0; definition levels `EMPTY_LIST`, 01 in two bits.
        self.repetition.push_run(0, count);
        self.definition.push_run(0x5555_5555_5555_5555, 2 * count);
    }

    /// A row of a list column of `len` items, none null: the levels
    /// [`Levels::list_row`] writes for them.
    /// The levels go in as runs of bits, up to 32 items at a time.
    fn items(&mut self, len: usize) {
        if len == 0 {
            return self.slot(0, EMPTY_LIST);
        }
        let mut first = true;
        let mut left = len;
        while left > 0 {
            let run = left.min(32) as u32;
            // Repetition levels 1 but for the list's first item; definition
            // levels all `ITEM` (two bits set each).
            self.repetition.push_bits((u64::MAX >> (64 - run)) & !u64::from(first), run);
            self.definition.push_bits(u64::MAX >> (64 - 2 * run), 2 * run);
            first = false;
            left -= run as usize;
        }
    }
}

/// Bits for values up to `max`.
const fn bit_width(max: u32) -> u32 {
    u32::BITS - max.leading_zeros()
}

/// Levels (one or two bits each) in Parquet's run-length / bit-packed
/// hybrid encoding, packed as they come into 64-bit words, from the least
/// significant bit: a push is a shift and an or, with no test but for a
/// full word. Written out ([`Packed::write`]) as one RLE run where all are
/// the same (a column without nulls, say: found at the end, a word at a
/// time), else as bit-packed runs of at most 8,192 values (polars-parquet's
/// bound: some readers buffer a run whole), the last padded with zeros: the
/// bytes [`encode_hybrid`] writes for the same values. Finding shorter RLE
/// runs would cost a scan per value for bytes that zstd shrinks anyway.
struct Packed {
    /// Bits per value: a divisor of 64, so that no value straddles words.
    width: u32,
    words: Vec<u64>,
    /// The word being filled, and how many of its bits are.
    word: u64,
    filled: u32,
}

/// The most values one bit-packed run holds.
const MAX_LITERAL_RUN: usize = 8 * 1024;

impl Packed {
    fn new(width: u32, capacity: usize) -> Packed {
        assert!(64 % width == 0, "a level width divides a word");
        let words = Vec::with_capacity((capacity * width as usize).div_ceil(64));
        Packed { width, words, word: 0, filled: 0 }
    }

    /// Appends `value`, under `1 << width`: `width` is the packing's own,
    /// passed as a constant by the caller so that the push needs no load.
    #[inline(always)]
    fn push(&mut self, value: u32, width: u32) {
        debug_assert_eq!(width, self.width);
        self.word |= u64::from(value) << self.filled;
        self.filled += width;
        if self.filled == u64::BITS {
            self.words.push(self.word);
            self.word = 0;
            self.filled = 0;
        }
    }

    /// Appends `count` bits (at most 64), whole values, from the least
    /// significant bit of `bits` (none set past them).
    #[inline]
    fn push_bits(&mut self, bits: u64, count: u32) {
        self.word |= bits << self.filled;
        let filled = self.filled + count;
        if filled >= u64::BITS {
            self.words.push(self.word);
            // The bits that did not fit (none where the word was empty).
            self.word = bits.checked_shr(u64::BITS - self.filled).unwrap_or(0);
            self.filled = filled - u64::BITS;
        } else {
            self.filled = filled;
        }
    }

    /// Appends `bits` bits of `pattern`, whole values of one value
    /// repeated (so that the pattern is the same from any value on): a run
    /// of equal levels, a word at a time.
    fn push_run(&mut self, pattern: u64, mut bits: usize) {
        let low = |bits: usize| if bits >= 64 { u64::MAX } else { (1u64 << bits) - 1 };
        if self.filled > 0 {
            let take = bits.min((u64::BITS - self.filled) as usize);
            self.word |= (pattern & low(take)) << self.filled;
            self.filled += take as u32;
            bits -= take;
            if self.filled < u64::BITS {
                return;
            }
            self.words.push(self.word);
            self.word = 0;
            self.filled = 0;
        }
        self.words.extend(std::iter::repeat_n(pattern, bits / 64));
        self.word = pattern & low(bits % 64);
        self.filled = (bits % 64) as u32;
    }

    /// Values pushed.
    fn count(&self) -> usize {
        (self.words.len() * 64 + self.filled as usize) / self.width as usize
    }

    /// The words, the one being filled last (its bits past `filled` are 0).
    fn all_words(&self) -> impl Iterator<Item = u64> + '_ {
        self.words.iter().copied().chain([self.word])
    }

    /// Bits set: the values that are 1, at one bit a value.
    fn ones(&self) -> usize {
        self.all_words().map(|word| word.count_ones() as usize).sum()
    }

    /// The values that are 3, at two bits a value.
    fn threes(&self) -> usize {
        const LOW: u64 = 0x5555_5555_5555_5555;
        self.all_words().map(|word| (word & word >> 1 & LOW).count_ones() as usize).sum()
    }

    fn write(mut self, out: &mut Vec<u8>) {
        let count = self.count();
        if count == 0 {
            return;
        }
        let width = self.width as usize;
        let first = self.words.first().copied().unwrap_or(self.word) & ((1 << width) - 1);
        // `first` in every slot of a word: every full word of a uniform run.
        let pattern = (0..64 / width).fold(0u64, |pattern, i| pattern | first << (i * width));
        let filled = (1u64 << self.filled) - 1;
        if self.words.iter().all(|&word| word == pattern) && (self.word ^ pattern) & filled == 0 {
            uleb128(out, (count as u64) << 1);
            out.extend_from_slice(&first.to_le_bytes()[..width.div_ceil(8)]);
            return;
        }
        if self.filled > 0 {
            self.words.push(self.word);
        }
        // A full run is 128 * width words, so runs start on a word; each
        // run's words hold at least its bytes (groups of eight values, in
        // `width` bytes each), past which they hold zeros.
        let mut left = count;
        for words in self.words.chunks(MAX_LITERAL_RUN * width / 64) {
            let values = left.min(MAX_LITERAL_RUN);
            let groups = values.div_ceil(8);
            uleb128(out, ((groups as u64) << 1) | 1);
            let end = out.len() + groups * width;
            for word in words {
                out.extend_from_slice(&word.to_le_bytes());
            }
            out.truncate(end);
            left -= values;
        }
    }
}

/// Values' bits, appended from the least significant bit and written out
/// a 32-bit word at a time.
#[derive(Default)]
struct BitWriter {
    /// Bits not yet written out, and how many (under 32).
    bits: u64,
    pending: u32,
}

impl BitWriter {
    /// Appends `value`, `width` bits of it (at most 32).
    #[inline]
    fn put(&mut self, out: &mut Vec<u8>, value: u32, width: u32) {
        self.bits |= u64::from(value) << self.pending;
        self.pending += width;
        if self.pending >= 32 {
            out.extend_from_slice(&(self.bits as u32).to_le_bytes());
            self.bits >>= 32;
            self.pending -= 32;
        }
    }

    /// The bits not yet written out, the last byte completed with zeros.
    fn flush(&mut self, out: &mut Vec<u8>) {
        let bytes = self.pending.div_ceil(8) as usize;
        out.extend_from_slice(&self.bits.to_le_bytes()[..bytes]);
        *self = BitWriter::default();
    }
}

/// Values per block and per miniblock of [`delta_binary_packed`].
const DELTA_BLOCK: usize = 128;
const DELTA_MINIBLOCK: usize = 32;

/// Parquet's DELTA_BINARY_PACKED encoding of integers that climb (row
/// numbers: a fraction of a byte each) or stay near one another (ratings:
/// a byte and a half): the first value, then blocks of 128
/// differences, each block's least difference and, per miniblock of 32,
/// the differences above it bit-packed at the width the miniblock needs.
/// `None` where a miniblock would need more than 32 bits (plain then).
/// `difference` takes the later value less the earlier in the column's
/// physical width: an INT32 reader (arrow's) takes them, and each block's
/// least, in 32 bits (text lengths, all under 2^31, differ alike in
/// either width).
fn delta_binary_packed(values: &[i64], difference: impl Fn(i64, i64) -> i64) -> Option<Vec<u8>> {
    let zigzag = |v: i64| ((v << 1) ^ (v >> 63)) as u64;
    let mut out = Vec::with_capacity(16 + values.len() / 4);
    uleb128(&mut out, DELTA_BLOCK as u64);
    uleb128(&mut out, (DELTA_BLOCK / DELTA_MINIBLOCK) as u64);
    uleb128(&mut out, values.len() as u64);
    uleb128(&mut out, zigzag(values.first().copied().unwrap_or(0)));
    let deltas: Vec<i64> = values.windows(2).map(|pair| difference(pair[1], pair[0])).collect();
    for block in deltas.chunks(DELTA_BLOCK) {
        let least = *block.iter().min().expect("a block holds a difference");
        uleb128(&mut out, zigzag(least));
        let widths_at = out.len();
        out.extend_from_slice(&[0; DELTA_BLOCK / DELTA_MINIBLOCK]);
        for (miniblock, deltas) in block.chunks(DELTA_MINIBLOCK).enumerate() {
            let above = |delta: i64| delta.wrapping_sub(least) as u64;
            let width = u64::BITS - deltas.iter().map(|&d| above(d)).max().unwrap_or(0).leading_zeros();
            if width > 32 {
                return None;
            }
            out[widths_at + miniblock] = width as u8;
            // A miniblock is 32 values wide, the last padded with zeros:
            // `width` whole 32-bit words (none where the differences are
            // equal: a puzzle's id over its fires, say).
            if width == 0 {
                continue;
            }
            let mut bits = BitWriter::default();
            for &delta in deltas {
                bits.put(&mut out, above(delta) as u32, width);
            }
            for _ in deltas.len()..DELTA_MINIBLOCK {
                bits.put(&mut out, 0, width);
            }
        }
    }
    Some(out)
}

/// `later` less `earlier` as INT32 values, wrapping in 32 bits.
fn int32_difference(later: i64, earlier: i64) -> i64 {
    i64::from((later as i32).wrapping_sub(earlier as i32))
}

fn uleb128(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push(value as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Values packed at `width` bits, hybrid-encoded: the same bytes as
/// [`Packed`] writes, from values all known at once (dictionary keys), so
/// packed straight into `out` in one tight loop. Each value is `key(item)`
/// of an item of `items`, where equal items, and only they, have equal keys
/// (vocabulary entries and their keys in the page's dictionary).
fn encode_hybrid<T: Copy + Eq>(out: &mut Vec<u8>, items: &[T], width: u32, key: impl Fn(T) -> u32) {
    let Some(&first) = items.first() else { return };
    if items.iter().all(|&item| item == first) {
        uleb128(out, (items.len() as u64) << 1);
        out.extend_from_slice(&key(first).to_le_bytes()[..width.div_ceil(8) as usize]);
        return;
    }
    for run in items.chunks(MAX_LITERAL_RUN) {
        let groups = run.len().div_ceil(8);
        uleb128(out, ((groups as u64) << 1) | 1);
        let mut bits = BitWriter::default();
        for &item in run {
            bits.put(out, key(item), width);
        }
        // The last group completed with zeros.
        for _ in run.len()..groups * 8 {
            bits.put(out, 0, width);
        }
        bits.flush(out);
    }
}

/// A column's values: plain, delta-encoded, or as dictionary keys.
enum Values {
    /// Plain values, after room for the levels ([`room_for_levels`]) or
    /// none (0): the page then holds them where they are, not copied.
    Plain(Vec<u8>, usize),
    /// Texts as DELTA_LENGTH_BYTE_ARRAY (their lengths delta-encoded, then
    /// their bytes) or DELTA_BYTE_ARRAY (the lengths of the prefixes they
    /// share with the text before, then their suffixes so), after room as
    /// [`Values::Plain`]'s.
    Texts(Vec<u8>, usize, Encoding),
    Delta(Vec<u8>),
    Dictionary {
        entries: Vec<u8>,
        count: usize,
        keys: Keys,
    },
}

/// A page's dictionary keys.
enum Keys {
    /// The keys themselves.
    Direct(Vec<u32>),
    /// Vocabulary entries, and the key of each entry used.
    Vocabulary(Vec<u8>, Box<[u8; 256]>),
}

/// A page's least and greatest values as statistics hold them (plain
/// encoded), none where it holds only nulls.
type MinMax = (Option<Vec<u8>>, Option<Vec<u8>>);

/// The least and greatest values of a page, as statistics hold them.
struct Bounds<T> {
    least: Option<T>,
    greatest: Option<T>,
}

impl<T: Ord + Copy> Bounds<T> {
    fn new() -> Bounds<T> {
        Bounds { least: None, greatest: None }
    }

    fn add(&mut self, value: T) {
        if self.least.is_none_or(|least| value < least) {
            self.least = Some(value);
        }
        if self.greatest.is_none_or(|greatest| value > greatest) {
            self.greatest = Some(value);
        }
    }

    /// Min and max as bytes.
    fn bytes(&self, to_bytes: impl Fn(T) -> Vec<u8>) -> MinMax {
        (self.least.map(&to_bytes), self.greatest.map(&to_bytes))
    }
}

/// Room for the levels of a flat column of `rows` rows, however many are
/// null: the length, then at most one bit a row in bit-packed runs of up to
/// 8,192 values (a header of two bytes each), or one RLE run (a header of
/// at most ten bytes and one).
fn room_for_levels(rows: usize) -> usize {
    4 + rows.div_ceil(8) + 2 * rows.div_ceil(MAX_LITERAL_RUN) + 11
}

/// Room for the lengths of `values` texts, DELTA_BINARY_PACKED: its
/// header, and per block of 128 a header of at most 14 bytes and at most
/// four bytes a value.
fn room_for_lengths(values: usize) -> usize {
    4 * 10 + values.div_ceil(DELTA_BLOCK) * (14 + 4 * DELTA_BLOCK)
}

/// The page's body: `levels`, then the values that follow `room` in
/// `values`, written into the room where they fit (the page then starts
/// where they do: the returned offset), else copied after them.
fn after_levels(levels: &mut Vec<u8>, mut values: Vec<u8>, room: usize) -> usize {
    if levels.len() > room {
        levels.extend_from_slice(&values[room..]);
        return 0;
    }
    let start = room - levels.len();
    values[start..room].copy_from_slice(levels);
    *levels = values;
    start
}

fn column<const LIST: bool>(levels: Levels<LIST>, values: Values, (min, max): MinMax) -> Column {
    let Counts { slots: num_values, rows, nulls } = levels.counts();
    let statistics = ParquetStatistics {
        null_count: Some(nulls as i64),
        distinct_count: None,
        max_value: max,
        min_value: min,
        max: None,
        min: None,
        is_max_value_exact: None,
        is_min_value_exact: None,
    };
    let mut data = Vec::with_capacity(num_values / 4 + 16);
    levels.write(&mut data);
    let mut start = 0;
    let (dictionary, encoding) = match values {
        // A page of nulls only has no dictionary to point into.
        Values::Dictionary { count: 0, .. } => (None, Encoding::Plain),
        Values::Plain(plain, room) => {
            start = after_levels(&mut data, plain, room);
            (None, Encoding::Plain)
        }
        Values::Texts(bytes, room, encoding) => {
            start = after_levels(&mut data, bytes, room);
            (None, encoding)
        }
        Values::Delta(packed) => {
            data.extend_from_slice(&packed);
            (None, Encoding::DeltaBinaryPacked)
        }
        Values::Dictionary { entries, count, keys } => {
            let width = bit_width(count as u32 - 1);
            data.push(width as u8);
            match keys {
                Keys::Direct(keys) => encode_hybrid(&mut data, &keys, width, |key| key),
                Keys::Vocabulary(items, keys) => {
                    encode_hybrid(&mut data, &items, width, |item| u32::from(keys[usize::from(item)]))
                }
            }
            (Some((entries, count)), Encoding::RleDictionary)
        }
    };
    Column { dictionary, data, start, num_values, rows, encoding, statistics }
}

/// A value a dictionary can hold: its plain encoding and a hash.
trait Entry: Copy + Eq + Ord {
    /// Whether values with the same hash are equal: then the dictionary
    /// never needs to look at its entries to find a value.
    const EXACT: bool;
    fn hash(self) -> u64;
    /// Equality, as fast as the type allows.
    fn same(self, other: Self) -> bool;
    fn write_plain(self, out: &mut Vec<u8>);
}

impl Entry for i32 {
    // An odd multiplier is invertible modulo 2^32: the hash's low half is
    // the value, spread.
    const EXACT: bool = true;

    fn hash(self) -> u64 {
        (self as u32 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    fn same(self, other: i32) -> bool {
        self == other
    }

    fn write_plain(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_le_bytes());
    }
}

/// The FxHash step: mixes a word into a hash.
fn mix(hash: u64, word: u64) -> u64 {
    (hash.rotate_left(5) ^ word).wrapping_mul(0x51_7C_C1_B7_27_22_0A_95)
}

/// The first and last eight bytes of up to sixteen, as words (overlapping
/// where fewer than sixteen; under eight, a pair of four or three bytes
/// taken the same way), which hold every byte: two texts of the same length
/// are equal where these are. Loads of a fixed size, with no call to
/// `memcpy` or `memcmp` for the short texts (words, moves) dictionaries
/// hold.
#[inline]
fn ends(bytes: &[u8]) -> (u64, u64) {
    let n = bytes.len();
    let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("eight bytes"));
    let half = |at: usize| u64::from(u32::from_le_bytes(bytes[at..at + 4].try_into().expect("four bytes")));
    match n {
        8.. => (word(0), word(n - 8)),
        4.. => (half(0), half(n - 4)),
        1.. => (u64::from(bytes[0]) | u64::from(bytes[n / 2]) << 8 | u64::from(bytes[n - 1]) << 16, 0),
        0 => (0, 0),
    }
}

impl Entry for &str {
    const EXACT: bool = false;

    /// Eight bytes at a time, multiplied and rotated (the FxHash step).
    fn hash(self) -> u64 {
        let bytes = self.as_bytes();
        let mut hash = bytes.len() as u64;
        let mut rest = bytes;
        while rest.len() > 16 {
            hash = mix(hash, u64::from_le_bytes(rest[..8].try_into().expect("eight bytes")));
            rest = &rest[8..];
        }
        let (first, last) = ends(rest);
        mix(mix(hash, first), last)
    }

    /// Short texts compared as two words each.
    #[inline]
    fn same(self, other: &str) -> bool {
        self.len() == other.len()
            && if self.len() <= 16 { ends(self.as_bytes()) == ends(other.as_bytes()) } else { self == other }
    }

    fn write_plain(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&(self.len() as u32).to_le_bytes());
        out.extend_from_slice(self.as_bytes());
    }
}

/// Distinct values in order of first appearance, each with its key: an
/// open-addressing table of keys, grown fourfold when half full (a
/// page of moves holds thousands: fewer rehashes of every entry).
struct Dictionary<T> {
    /// Per slot, the key + 1 of its entry in the low half (0: an empty
    /// slot) and the low half of the entry's hash in the high half, which
    /// tells most other values apart without looking at the entry.
    slots: Vec<u64>,
    /// How many slots are taken: the hashed entries. [`IntDictionary`]
    /// adds entries it keys without the table, so this can be fewer than
    /// `entries.len()`.
    occupied: usize,
    entries: Vec<T>,
}

impl<T: Entry> Dictionary<T> {
    /// An empty dictionary. It starts small and grows: zeroing a table
    /// sized for a page's rows costs more than rehashing as it fills.
    fn new() -> Dictionary<T> {
        Dictionary { slots: vec![0; 64], occupied: 0, entries: Vec::new() }
    }

    #[inline(always)]
    fn key(&mut self, value: T) -> u32 {
        let hash = value.hash();
        let tag = hash << 32;
        let mask = self.slots.len() - 1;
        let mut at = (hash >> 32) as usize & mask;
        loop {
            let slot = self.slots[at];
            if slot == 0 {
                break;
            }
            let key = slot as u32 - 1;
            if slot & !0xFFFF_FFFF == tag && (T::EXACT || self.entries[key as usize].same(value)) {
                return key;
            }
            at = (at + 1) & mask;
        }
        self.insert(value, tag, at)
    }

    /// A new entry, in the empty slot `at`.
    #[inline(never)]
    fn insert(&mut self, value: T, tag: u64, at: usize) -> u32 {
        self.entries.push(value);
        let key = self.entries.len() as u32;
        self.slots[at] = tag | u64::from(key);
        self.occupied += 1;
        if self.occupied * 2 > self.slots.len() {
            self.grow();
        }
        key - 1
    }

    /// Four times the slots, holding the same hashed entries: only those
    /// the table holds, not the ones [`IntDictionary`] keys directly, so
    /// the load stays at most an eighth whatever came before.
    #[cold]
    fn grow(&mut self) {
        let mut slots = vec![0u64; self.slots.len() * 4];
        let mask = slots.len() - 1;
        for &slot in self.slots.iter().filter(|&&slot| slot != 0) {
            let hash = self.entries[(slot as u32 - 1) as usize].hash();
            let mut at = (hash >> 32) as usize & mask;
            while slots[at] != 0 {
                at = (at + 1) & mask;
            }
            slots[at] = slot;
        }
        self.slots = slots;
    }

    /// The dictionary page's values, and their bounds.
    fn values(self, keys: Vec<u32>) -> (Values, Bounds<T>) {
        let mut entries = Vec::new();
        let mut bounds = Bounds::new();
        for &value in &self.entries {
            value.write_plain(&mut entries);
            bounds.add(value);
        }
        (Values::Dictionary { entries, count: self.entries.len(), keys: Keys::Direct(keys) }, bounds)
    }
}

/// Integers in order of first appearance, keyed as [`Dictionary`] keys
/// them: the common ones (ratings, plies, gains: from -1,024 to 7,167) by
/// a table indexed by the value, with no hash and no probe, the others
/// hashed. Both share the dictionary's entries, so keys count first
/// appearances of either kind.
struct IntDictionary {
    /// Per value from [`IntDictionary::LEAST`] on, its key + 1 (0: not
    /// seen yet).
    direct: Vec<u32>,
    hashed: Dictionary<i32>,
}

impl IntDictionary {
    const LEAST: i32 = -1024;
    const DIRECT: usize = 8192;

    fn new() -> IntDictionary {
        IntDictionary { direct: vec![0; Self::DIRECT], hashed: Dictionary::new() }
    }

    #[inline(always)]
    fn key(&mut self, value: i32) -> u32 {
        let at = value.wrapping_sub(Self::LEAST) as u32 as usize;
        let Some(slot) = self.direct.get_mut(at) else { return self.hashed.key(value) };
        if *slot == 0 {
            self.hashed.entries.push(value);
            *slot = self.hashed.entries.len() as u32;
        }
        *slot - 1
    }

    fn values(self, keys: Vec<u32>) -> (Values, Bounds<i32>) {
        self.hashed.values(keys)
    }
}

/// A page's vocabulary entries (indices into the vocabulary), and which
/// entries it uses, marked as they come.
struct VocabularyEntries {
    items: Vec<u8>,
    used: [bool; 256],
}

impl VocabularyEntries {
    fn new(capacity: usize) -> VocabularyEntries {
        VocabularyEntries { items: Vec::with_capacity(capacity), used: [false; 256] }
    }

    #[inline]
    fn push(&mut self, entry: u8) {
        self.items.push(entry);
        self.used[usize::from(entry)] = true;
    }

    /// Text over a fixed vocabulary as a dictionary of the entries used, in
    /// vocabulary order, so each row group's dictionary and statistics
    /// describe its own values; each entry's key is its index in it (mapped
    /// as the keys are encoded, [`Keys::Vocabulary`]).
    fn values(self, vocabulary: &[&str]) -> (Values, MinMax) {
        let mut keys = Box::new([0u8; 256]);
        let mut entries = Vec::new();
        let mut count = 0usize;
        let mut bounds = Bounds::new();
        for (entry, &word) in vocabulary.iter().enumerate().filter(|&(entry, _)| self.used[entry]) {
            // At most 256 entries (`table`'s assertion): a key fits a byte.
            keys[entry] = count as u8;
            count += 1;
            word.write_plain(&mut entries);
            bounds.add(word);
        }
        let keys = Keys::Vocabulary(self.items, keys);
        (Values::Dictionary { entries, count, keys }, text_bounds(&bounds))
    }
}

/// A text with its first eight bytes as a big-endian number (zeros past
/// its end), ordered as the text is: by the number first, which decides
/// most pairs (distinct FENs, ids) without comparing the texts. Where the
/// numbers differ, the first byte that differs is in both texts, or is
/// past the end of one, the shorter, which is then a prefix of the other
/// and less: either way the numbers order them as the texts are ordered.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Prefixed<'a> {
    prefix: u64,
    text: &'a str,
}

impl Prefixed<'_> {
    #[inline]
    fn of(text: &str) -> Prefixed<'_> {
        let bytes = text.as_bytes();
        let n = bytes.len();
        let half = |at: usize| u64::from(u32::from_be_bytes(bytes[at..at + 4].try_into().expect("four bytes")));
        let prefix = match n {
            8.. => u64::from_be_bytes(bytes[..8].try_into().expect("eight bytes")),
            // The last four bytes overlap the first four where under eight:
            // the same bytes at the same places, or-ed in twice.
            4.. => half(0) << 32 | half(n - 4) << (8 * (8 - n)),
            _ => bytes.iter().enumerate().fold(0, |prefix, (i, &b)| prefix | u64::from(b) << (8 * (7 - i))),
        };
        Prefixed { prefix, text }
    }
}

fn text_bounds(bounds: &Bounds<&str>) -> MinMax {
    bounds.bytes(|s| s.as_bytes().to_vec())
}

fn int32_bounds(bounds: &Bounds<i32>) -> MinMax {
    bounds.bytes(|v| v.to_le_bytes().to_vec())
}

/// The length of the prefix `a` and `b` share, eight bytes at a time.
#[inline]
fn shared_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let word = |bytes: &[u8], at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("eight bytes"));
    let mut at = 0;
    while at + 8 <= n {
        let differ = word(a, at) ^ word(b, at);
        if differ != 0 {
            return at + (differ.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    at + a[at..n].iter().zip(&b[at..n]).take_while(|(x, y)| x == y).count()
}

/// A text column as DELTA_LENGTH_BYTE_ARRAY, or (`PREFIXED`) as
/// DELTA_BYTE_ARRAY: the texts' (suffixes') bytes gathered after room for
/// the levels and the delta-encoded lengths, which are written into it at
/// the end.
fn delta_texts<'a, const PREFIXED: bool>(len: usize, values: impl Iterator<Item = Option<&'a str>>) -> Column {
    let mut levels = FlatLevels::new(len);
    let lengths_room = if PREFIXED { 2 * room_for_lengths(len) } else { room_for_lengths(len) };
    let room = room_for_levels(len) + lengths_room;
    let mut bytes = Vec::with_capacity(room + len * 64);
    bytes.resize(room, 0);
    let mut lengths: Vec<i64> = Vec::with_capacity(len);
    let mut prefixes: Vec<i64> = Vec::with_capacity(if PREFIXED { len } else { 0 });
    let mut bounds = Bounds::new();
    let mut previous: Option<&str> = None;
    for value in values {
        levels.row(value.is_some());
        let Some(value) = value else { continue };
        // The row before's very text (a puzzle's id over its fires) is
        // within the bounds already, and its own prefix.
        let same = previous.is_some_and(|previous| std::ptr::eq(previous, value));
        if !same {
            bounds.add(Prefixed::of(value));
        }
        let mut prefix = 0;
        if PREFIXED {
            prefix = match previous {
                _ if same => value.len(),
                // Suffixes start on a character, so that each is text too.
                Some(previous) => {
                    let mut shared = shared_prefix(previous.as_bytes(), value.as_bytes());
                    while !value.is_char_boundary(shared) {
                        shared -= 1;
                    }
                    shared
                }
                None => 0,
            };
            prefixes.push(prefix as i64);
        }
        bytes.extend_from_slice(&value.as_bytes()[prefix..]);
        lengths.push((value.len() - prefix) as i64);
        previous = Some(value);
    }
    let bounds = bounds.bytes(|value| value.text.as_bytes().to_vec());
    // Lengths under 2^31 differ by under 2^32: always packed.
    let mut packed = Vec::new();
    if PREFIXED {
        packed = delta_binary_packed(&prefixes, i64::wrapping_sub).expect("text lengths fit 32 bits");
    }
    packed.extend_from_slice(&delta_binary_packed(&lengths, i64::wrapping_sub).expect("text lengths fit 32 bits"));
    let room = if packed.len() <= room {
        bytes[room - packed.len()..room].copy_from_slice(&packed);
        room - packed.len()
    } else {
        bytes.splice(room..room, packed);
        room
    };
    let encoding = if PREFIXED { Encoding::DeltaByteArray } else { Encoding::DeltaLengthByteArray };
    column(levels, Values::Texts(bytes, room, encoding), bounds)
}

/// Writes each column of a table as Parquet pages (see the module's doc).
pub(super) struct PageBuilder;

impl ArrayBuilder for PageBuilder {
    type Array = Column;

    fn int64(&self, values: Vec<i64>) -> Column {
        let mut levels = FlatLevels::new(values.len());
        levels.values(values.len());
        let bounds = Bounds { least: values.iter().min().copied(), greatest: values.iter().max().copied() };
        let bounds = bounds.bytes(|v| v.to_le_bytes().to_vec());
        let values = match delta_binary_packed(&values, i64::wrapping_sub) {
            Some(packed) => Values::Delta(packed),
            None => Values::Plain(values.iter().flat_map(|v| v.to_le_bytes()).collect(), 0),
        };
        column(levels, values, bounds)
    }

    fn int32(&self, values: impl Iterator<Item = Option<i32>>) -> Column {
        let mut levels = FlatLevels::new(values.size_hint().0);
        let mut dictionary = IntDictionary::new();
        let mut keys = Vec::with_capacity(values.size_hint().0);
        for value in values {
            levels.row(value.is_some());
            if let Some(value) = value {
                keys.push(dictionary.key(value));
            }
        }
        let (values, bounds) = dictionary.values(keys);
        column(levels, values, int32_bounds(&bounds))
    }

    /// As differences, bit-packed (DELTA_BINARY_PACKED): a rating in a
    /// byte and a half, where a dictionary of them spends two and zstd
    /// then more work than it saves (dev set: 31 KB against 42 KB).
    fn spread_int32(&self, values: impl Iterator<Item = Option<i32>>) -> Column {
        let mut levels = FlatLevels::new(values.size_hint().0);
        let mut present = Vec::with_capacity(values.size_hint().0);
        let mut bounds = Bounds::new();
        for value in values {
            levels.row(value.is_some());
            if let Some(value) = value {
                present.push(i64::from(value));
                bounds.add(value);
            }
        }
        let packed = delta_binary_packed(&present, int32_difference).expect("32-bit differences fit 32 bits");
        let values = Values::Delta(packed);
        column(levels, values, int32_bounds(&bounds))
    }

    fn bool(&self, values: Vec<bool>) -> Column {
        let mut levels = FlatLevels::new(values.len());
        levels.values(values.len());
        // Plain booleans are bit-packed, the first in the lowest bit.
        let plain =
            values.chunks(8).map(|bits| bits.iter().rev().fold(0, |byte, &bit| byte << 1 | u8::from(bit))).collect();
        let (any, all) = (values.iter().any(|&v| v), values.iter().all(|&v| v));
        let bounds = match values.is_empty() {
            true => Bounds::new(),
            false => Bounds { least: Some(all), greatest: Some(any) },
        };
        let bounds = bounds.bytes(|v| vec![u8::from(v)]);
        column(levels, Values::Plain(plain, 0), bounds)
    }

    fn nullable_bool(&self, values: impl Iterator<Item = Option<bool>>) -> Column {
        let values: Vec<Option<bool>> = values.collect();
        let mut levels = FlatLevels::new(values.len());
        // Plain booleans are bit-packed, the nulls left out.
        let mut plain = vec![0u8; values.iter().flatten().count().div_ceil(8)];
        let mut bounds = Bounds::new();
        let mut i = 0;
        for value in &values {
            levels.row(value.is_some());
            if let Some(value) = *value {
                plain[i / 8] |= u8::from(value) << (i % 8);
                bounds.add(value);
                i += 1;
            }
        }
        let bounds = bounds.bytes(|v| vec![u8::from(v)]);
        column(levels, Values::Plain(plain, 0), bounds)
    }

    /// DELTA_LENGTH_BYTE_ARRAY: the texts' bytes one after another, their
    /// lengths apart (a few bits each, delta-encoded): a fifth less for
    /// zstd to go through than plain, where a length precedes each text.
    fn text<'a>(&self, len: usize, values: impl Iterator<Item = Option<&'a str>>) -> Column {
        delta_texts::<false>(len, values)
    }

    /// DELTA_BYTE_ARRAY: as [`ArrayBuilder::text`], each text less the
    /// prefix it shares with the one before, whose length is delta-encoded
    /// apart (game URLs' `https://lichess.org/`, a puzzle's id over its
    /// fires: bytes zstd need not go through).
    fn prefixed_text<'a>(&self, len: usize, values: impl Iterator<Item = Option<&'a str>>) -> Column {
        delta_texts::<true>(len, values)
    }

    fn repeated_text<'a>(&self, len: usize, values: impl Iterator<Item = Option<&'a str>>) -> Column {
        let mut levels = FlatLevels::new(len);
        let mut dictionary = Dictionary::new();
        let mut keys = Vec::with_capacity(len);
        // The row before's very text (a move shared by fires on one ply)
        // has the row before's key: no hash, no lookup.
        let mut previous: Option<(&str, u32)> = None;
        for value in values {
            levels.row(value.is_some());
            if let Some(value) = value {
                let key = match previous {
                    Some((text, key)) if std::ptr::eq(text, value) => key,
                    _ => dictionary.key(value),
                };
                keys.push(key);
                previous = Some((value, key));
            }
        }
        let (values, bounds) = dictionary.values(keys);
        column(levels, values, text_bounds(&bounds))
    }

    /// Keys found by code, with no text hashed: a row whose code is the
    /// row before's (fires on one ply) has its key; a code first met has its
    /// text written, as the dictionary's next entry.
    fn coded_text(&self, codes: &[u32], mut text_of: impl FnMut(usize, &mut Vec<u8>)) -> Column {
        let mut levels = FlatLevels::new(codes.len());
        levels.values(codes.len());
        let mut dictionary = Dictionary::new();
        // The entries' texts, one after another, and where each ends.
        let mut texts = Vec::new();
        let mut ends = Vec::new();
        let mut keys = Vec::with_capacity(codes.len());
        let mut previous: Option<(u32, u32)> = None;
        for (row, &code) in codes.iter().enumerate() {
            let key = match previous {
                Some((previous, key)) if previous == code => key,
                _ => {
                    let key = dictionary.key(code as i32);
                    if key as usize == ends.len() {
                        text_of(row, &mut texts);
                        ends.push(texts.len());
                    }
                    key
                }
            };
            keys.push(key);
            previous = Some((code, key));
        }
        let texts = std::str::from_utf8(&texts).expect("texts are text");
        let mut text_entries = Dictionary::new();
        let mut start = 0;
        for end in ends {
            text_entries.entries.push(&texts[start..end]);
            start = end;
        }
        let (values, bounds) = text_entries.values(keys);
        column(levels, values, text_bounds(&bounds))
    }

    fn vocabulary(&self, vocabulary: &[&str], entries: &[Option<u8>]) -> Column {
        let mut levels = FlatLevels::new(entries.len());
        let mut items = VocabularyEntries::new(entries.len());
        for &entry in entries {
            levels.row(entry.is_some());
            if let Some(entry) = entry {
                items.push(entry);
            }
        }
        let (values, bounds) = items.values(vocabulary);
        column(levels, values, bounds)
    }

    fn present_vocabulary(&self, vocabulary: &[&str], rows: usize, present: Vec<u64>, entries: Vec<u8>) -> Column {
        let levels = FlatLevels::of_present(rows, present, entries.len());
        let mut used = [false; 256];
        for &entry in &entries {
            used[usize::from(entry)] = true;
        }
        let (values, bounds) = VocabularyEntries { items: entries, used }.values(vocabulary);
        column(levels, values, bounds)
    }

    fn sparse_vocabulary_lists(
        &self,
        vocabulary: &[&str],
        rows: usize,
        lists: &[(u32, u8)],
        entries: Vec<u8>,
    ) -> Column {
        let mut levels = ListLevels::new(rows);
        let mut next = 0;
        for &(row, len) in lists {
            levels.empty_lists(row as usize - next);
            levels.items(usize::from(len));
            next = row as usize + 1;
        }
        levels.empty_lists(rows - next);
        let mut used = [false; 256];
        for &entry in &entries {
            used[usize::from(entry)] = true;
        }
        let (values, bounds) = VocabularyEntries { items: entries, used }.values(vocabulary);
        column(levels, values, bounds)
    }

    fn words<'a, I: Iterator<Item = &'a str>>(&self, lists: impl Iterator<Item = Option<I>>) -> Column {
        let mut levels = ListLevels::new(lists.size_hint().0);
        let mut dictionary = Dictionary::new();
        let mut keys = Vec::new();
        for list in lists {
            levels.list_row(list.map(|words| words.map(Some)), |word| keys.push(dictionary.key(word)));
        }
        let (values, bounds) = dictionary.values(keys);
        column(levels, values, text_bounds(&bounds))
    }

    fn spaced_words<'a>(&self, fields: impl Iterator<Item = Option<&'a str>>) -> Column {
        let mut levels = ListLevels::new(fields.size_hint().0);
        let mut dictionary = Dictionary::new();
        let mut keys = Vec::new();
        // Whole fields repeat (a puzzle's themes, its opening): a field is
        // split and its words looked up where it first appears, and where
        // it appears again its words' keys are copied from there (keys of
        // words seen before: the dictionary is the same).
        let mut fields_seen = Dictionary::new();
        // Per distinct field, where its keys start in `keys`, and how many.
        let mut spans: Vec<(usize, usize)> = Vec::new();
        for field in fields {
            let Some(field) = field else {
                levels.list_row(None::<std::iter::Empty<Option<u32>>>, |_| {});
                continue;
            };
            let seen = fields_seen.key(field) as usize;
            if seen == spans.len() {
                let start = keys.len();
                let words = crate::table::space_separated(field).map(Some);
                levels.list_row(Some(words), |word| keys.push(dictionary.key(word)));
                spans.push((start, keys.len() - start));
            } else {
                let (start, len) = spans[seen];
                levels.items(len);
                keys.extend_from_within(start..start + len);
            }
        }
        let (values, bounds) = dictionary.values(keys);
        column(levels, values, text_bounds(&bounds))
    }

    fn vocabulary_lists<I: Iterator<Item = u8>>(
        &self,
        vocabulary: &[&str],
        lists: impl Iterator<Item = Option<I>>,
    ) -> Column {
        let mut levels = ListLevels::new(lists.size_hint().0);
        let mut items = VocabularyEntries::new(lists.size_hint().0);
        for list in lists {
            levels.list_row(list.map(|list| list.map(Some)), |entry| items.push(entry));
        }
        let (values, bounds) = items.values(vocabulary);
        column(levels, values, bounds)
    }

    fn int32_lists<I: Iterator<Item = Option<i32>>>(&self, lists: impl Iterator<Item = Option<I>>) -> Column {
        let mut levels = ListLevels::new(lists.size_hint().0);
        let mut dictionary = IntDictionary::new();
        let mut keys = Vec::new();
        for list in lists {
            levels.list_row(list, |value: i32| keys.push(dictionary.key(value)));
        }
        let (values, bounds) = dictionary.values(keys);
        column(levels, values, int32_bounds(&bounds))
    }
}

#[cfg(test)]
mod tests {
    use crate::table::ArrayBuilder as _;
    use polars_parquet::parquet::encoding::hybrid_rle::HybridRleDecoder;
    use proptest::prelude::*;

    use super::*;

    fn decode(encoded: &[u8], bit_width: u32, count: usize) -> Vec<u32> {
        HybridRleDecoder::new(encoded, bit_width, count).collect().unwrap()
    }

    proptest! {
        /// Whatever the runs, polars-parquet's decoder reads back the values
        /// written, at every width Koga's levels and keys take.
        #[test]
        fn hybrid_encoding_reads_back(
            runs in prop_oneof![
                proptest::collection::vec((0u32..1 << 13, 1usize..40), 0..300),
                // Short runs only: bit-packed runs past the 8,192-value bound.
                proptest::collection::vec((0u32..1 << 13, 1usize..9), 1500..3000),
            ],
            bit_width in 0u32..14,
        ) {
            let mask = (1u32 << bit_width) - 1;
            let values: Vec<u32> = runs.iter().flat_map(|&(v, n)| std::iter::repeat_n(v & mask, n)).collect();
            let mut encoded = Vec::new();
            encode_hybrid(&mut encoded, &values, bit_width, |v| v);
            prop_assert_eq!(decode(&encoded, bit_width, values.len()), values);
        }
    }

    proptest! {
        /// Levels packed as they come are the bytes the hybrid encoder
        /// writes for them all at once: one RLE run for equal values, else
        /// bit-packed runs, past the 8,192-value bound too.
        #[test]
        fn packed_levels_are_the_hybrid_encoding(
            runs in prop_oneof![
                proptest::collection::vec((0u32..4, 1usize..200), 0..60),
                proptest::collection::vec((0u32..4, 1usize..9), 1500..3000),
                (0u32..4, 1usize..20_000).prop_map(|run| vec![run]),
            ],
            width in 1u32..3,
        ) {
            let mask = (1u32 << width) - 1;
            let values: Vec<u32> = runs.iter().flat_map(|&(v, n)| std::iter::repeat_n(v & mask, n)).collect();
            let mut packed = Packed::new(width, 0);
            for &value in &values {
                packed.push(value, width);
            }
            prop_assert_eq!(packed.count(), values.len());
            let (mut ours, mut expected) = (Vec::new(), Vec::new());
            packed.write(&mut ours);
            encode_hybrid(&mut expected, &values, width, |v| v);
            prop_assert_eq!(ours, expected);
        }
    }

    /// INT32 differences wrap in 32 bits, as an INT32 reader (arrow's)
    /// takes them: from `i32::MAX` to `i32::MIN` is 1, not -4,294,967,295,
    /// and a block's least difference fits 32 bits.
    #[test]
    fn int32_differences_wrap_in_32_bits() {
        let packed = delta_binary_packed(&[i64::from(i32::MAX), i64::from(i32::MIN)], int32_difference).unwrap();
        let mut at = 0;
        let mut varint = || {
            let mut value = 0u64;
            for shift in (0..64).step_by(7) {
                let byte = packed[at];
                at += 1;
                value |= u64::from(byte & 0x7f) << shift;
                if byte < 0x80 {
                    break;
                }
            }
            value
        };
        let (block, miniblocks, count, _first) = (varint(), varint(), varint(), varint());
        let least = varint();
        assert_eq!((block, miniblocks, count), (128, 4, 2));
        assert_eq!((least >> 1) as i64 ^ -((least & 1) as i64), 1);
    }

    proptest! {
        /// Texts that differ in one byte anywhere, at every length around
        /// the word sizes `ends` loads, get keys in order of first
        /// appearance, equal texts the same key.
        #[test]
        fn dictionary_keys_are_first_appearances(texts in proptest::collection::vec("[ab]{0,20}", 1..200)) {
            let mut dictionary = Dictionary::new();
            let mut seen: Vec<&str> = Vec::new();
            for text in &texts {
                let expected = seen.iter().position(|s| s == text).unwrap_or_else(|| {
                    seen.push(text);
                    seen.len() - 1
                });
                prop_assert_eq!(dictionary.key(text.as_str()), expected as u32);
            }
        }
    }

    proptest! {
        /// Rows and nulls counted from the levels at the end are those of
        /// the lists: a null list, an empty list and a null item are each
        /// a slot without a value.
        #[test]
        fn list_levels_count_rows_and_nulls(
            lists in proptest::collection::vec(
                proptest::option::of(proptest::collection::vec(proptest::option::of(0u8..3), 0..5)),
                0..400,
            ),
        ) {
            let mut levels = ListLevels::new(0);
            for list in &lists {
                levels.list_row(list.as_ref().map(|items| items.iter().copied()), |_| {});
            }
            let Counts { slots, rows, nulls } = levels.counts();
            let slots_of = |list: &Option<Vec<Option<u8>>>| list.as_ref().map_or(1, |items| items.len().max(1));
            let values: usize = lists.iter().flatten().map(|items| items.iter().flatten().count()).sum();
            let expected: usize = lists.iter().map(slots_of).sum();
            prop_assert_eq!((slots, rows, nulls), (expected, lists.len(), expected - values));
        }
    }

    proptest! {
        /// A flat column's levels, counted while every row holds a value
        /// and packed from the first null on, are the hybrid encoding of
        /// its rows' levels, with their length first, and their counts.
        #[test]
        fn flat_levels_are_the_hybrid_encoding(
            present in prop_oneof![
                proptest::collection::vec(Just(true), 0..300),
                proptest::collection::vec(any::<bool>(), 0..300),
                (0usize..200, proptest::collection::vec(any::<bool>(), 0..200))
                    .prop_map(|(n, rest)| std::iter::repeat_n(true, n).chain(rest).collect()),
            ],
        ) {
            let mut levels = FlatLevels::new(present.len());
            for &p in &present {
                levels.row(p);
            }
            let Counts { slots, rows, nulls } = levels.counts();
            let values = present.iter().filter(|&&p| p).count();
            prop_assert_eq!((slots, rows, nulls), (present.len(), present.len(), present.len() - values));
            let mut ours = Vec::new();
            levels.write(&mut ours);
            let mut hybrid = Vec::new();
            let definition: Vec<u32> = present.iter().map(|&p| u32::from(p)).collect();
            encode_hybrid(&mut hybrid, &definition, 1, |v| v);
            prop_assert_eq!(&ours[..4], &(hybrid.len() as u32).to_le_bytes()[..]);
            prop_assert_eq!(&ours[4..], &hybrid[..]);
        }
    }

    proptest! {
        /// Texts with their prefixes are ordered as the texts are, at every
        /// length around eight bytes, NUL bytes and shared prefixes among
        /// them.
        #[test]
        fn prefixed_texts_order_as_texts(a in "[ab\u{0}é]{0,11}", b in "[ab\u{0}é]{0,11}") {
            prop_assert_eq!(Prefixed::of(&a).cmp(&Prefixed::of(&b)), a.cmp(&b));
        }
    }

    proptest! {
        /// Integers keyed through the table of common values, or hashed
        /// past it, get the keys of their first appearances.
        #[test]
        fn int_dictionary_keys_are_first_appearances(
            values in proptest::collection::vec(prop_oneof![-1100i32..-1000, -5i32..5, 8150i32..8200, any::<i32>()], 1..300),
        ) {
            let mut dictionary = IntDictionary::new();
            let mut seen: Vec<i32> = Vec::new();
            for &value in &values {
                let expected = seen.iter().position(|&s| s == value).unwrap_or_else(|| {
                    seen.push(value);
                    seen.len() - 1
                });
                prop_assert_eq!(dictionary.key(value), expected as u32);
            }
            prop_assert_eq!(dictionary.hashed.entries, seen);
        }
    }

    /// Thousands of common values keyed directly, then rarer ones hashed:
    /// the table grows for the hashed entries alone (growing it for all of
    /// them once overfilled it, and its probe never ended), and every value
    /// keeps its first key.
    #[test]
    fn int_dictionary_hashes_rare_values_after_many_common_ones() {
        let mut dictionary = IntDictionary::new();
        let common: Vec<i32> = (IntDictionary::LEAST..IntDictionary::LEAST + 7000).collect();
        let rare: Vec<i32> = (0..2000).map(|i| 10_000 + 7 * i).collect();
        let values: Vec<i32> = common.iter().chain(&rare).copied().collect();
        for (key, &value) in values.iter().enumerate() {
            assert_eq!(dictionary.key(value), key as u32);
        }
        for (key, &value) in values.iter().enumerate().rev() {
            assert_eq!(dictionary.key(value), key as u32);
        }
        assert_eq!(dictionary.hashed.occupied, rare.len());
        assert!(dictionary.hashed.slots.len() <= 4 * 2 * rare.len());
    }

    proptest! {
        /// Fields split once per distinct field are the column of their
        /// words split at every row: same levels, keys, dictionary and
        /// statistics, null rows and empty fields among them.
        #[test]
        fn spaced_words_are_the_words_of_each_field(
            fields in proptest::collection::vec(proptest::option::of("(a|bb| |c c){0,6}"), 0..300),
        ) {
            let split = PageBuilder.words(fields.iter().map(|f| f.as_deref().map(crate::table::space_separated)));
            let ours = PageBuilder.spaced_words(fields.iter().map(Option::as_deref));
            prop_assert_eq!(&ours.dictionary, &split.dictionary);
            prop_assert_eq!(ours.body(), split.body());
            prop_assert_eq!((ours.num_values, ours.rows, ours.encoding), (split.num_values, split.rows, split.encoding));
            prop_assert_eq!(bounds_of(&ours), bounds_of(&split));
        }
    }

    proptest! {
        /// Text given by codes is the column of the texts themselves.
        #[test]
        fn coded_text_is_the_texts_column(codes in proptest::collection::vec(0u32..40, 0..300)) {
            let texts: Vec<String> = codes.iter().map(|code| format!("m{}", code * 7)).collect();
            let ours = PageBuilder.coded_text(&codes, |row, out| out.extend_from_slice(texts[row].as_bytes()));
            let rows = PageBuilder.repeated_text(texts.len(), texts.iter().map(|t| Some(t.as_str())));
            prop_assert_eq!(&ours.dictionary, &rows.dictionary);
            prop_assert_eq!(ours.body(), rows.body());
            prop_assert_eq!((ours.num_values, ours.rows, ours.encoding), (rows.num_values, rows.rows, rows.encoding));
            prop_assert_eq!(bounds_of(&ours), bounds_of(&rows));
        }
    }

    proptest! {
        /// Lists given by the rows that hold items are the column of every
        /// row's list, the empty ones in runs of any length.
        #[test]
        fn sparse_vocabulary_lists_are_the_rows_column(
            lists in proptest::collection::vec(
                prop_oneof![3 => Just(Vec::new()), 1 => proptest::collection::vec(0u8..5, 1..4)],
                0..400,
            ),
        ) {
            let vocabulary = ["a", "b", "c", "d", "e"];
            let sparse: Vec<(u32, u8)> =
                lists.iter().enumerate().filter(|(_, l)| !l.is_empty()).map(|(i, l)| (i as u32, l.len() as u8)).collect();
            let entries: Vec<u8> = lists.iter().flatten().copied().collect();
            let ours = PageBuilder.sparse_vocabulary_lists(&vocabulary, lists.len(), &sparse, entries);
            let rows = PageBuilder.vocabulary_lists(&vocabulary, lists.iter().map(|l| Some(l.iter().copied())));
            prop_assert_eq!(&ours.dictionary, &rows.dictionary);
            prop_assert_eq!(ours.body(), rows.body());
            prop_assert_eq!((ours.num_values, ours.rows, ours.encoding), (rows.num_values, rows.rows, rows.encoding));
            prop_assert_eq!(bounds_of(&ours), bounds_of(&rows));
        }
    }

    proptest! {
        /// Lists' levels pushed as runs of bits are the levels pushed one
        /// slot at a time: lists past 32 items, across words, among null
        /// and empty lists.
        #[test]
        fn list_levels_in_runs_are_the_slots(lists in proptest::collection::vec(proptest::option::of(0usize..80), 0..200)) {
            let (mut runs, mut slots) = (ListLevels::new(0), ListLevels::new(0));
            for list in &lists {
                match *list {
                    Some(len) => {
                        runs.items(len);
                        slots.list_row(Some(std::iter::repeat_n(Some(()), len)), |()| {});
                    }
                    None => {
                        runs.slot(0, NULL_LIST);
                        slots.slot(0, NULL_LIST);
                    }
                }
            }
            let (mut ours, mut expected) = (Vec::new(), Vec::new());
            runs.write(&mut ours);
            slots.write(&mut expected);
            prop_assert_eq!(ours, expected);
        }
    }

    proptest! {
        /// A vocabulary column given by its present rows and their entries
        /// is the column of the same values row by row.
        #[test]
        fn present_vocabulary_is_the_rows_column(
            entries in proptest::collection::vec(proptest::option::of(0u8..5), 0..300),
        ) {
            let vocabulary = ["a", "b", "c", "d", "e"];
            let mut present = vec![0u64; entries.len().div_ceil(64)];
            for (i, entry) in entries.iter().enumerate() {
                present[i / 64] |= u64::from(entry.is_some()) << (i % 64);
            }
            // Bits past the rows count for nothing.
            if let (Some(last), 1..) = (present.last_mut(), entries.len() % 64) {
                *last |= u64::MAX << (entries.len() % 64);
            }
            let values: Vec<u8> = entries.iter().flatten().copied().collect();
            let ours = PageBuilder.present_vocabulary(&vocabulary, entries.len(), present, values);
            let rows = PageBuilder.vocabulary(&vocabulary, &entries);
            prop_assert_eq!(&ours.dictionary, &rows.dictionary);
            prop_assert_eq!(ours.body(), rows.body());
            prop_assert_eq!((ours.num_values, ours.rows, ours.encoding), (rows.num_values, rows.rows, rows.encoding));
            prop_assert_eq!(bounds_of(&ours), bounds_of(&rows));
        }
    }

    fn bounds_of(column: &Column) -> (Option<&[u8]>, Option<&[u8]>, Option<i64>) {
        let s = &column.statistics;
        (s.min_value.as_deref(), s.max_value.as_deref(), s.null_count)
    }

    #[test]
    fn statistics_and_dictionaries_describe_the_page() {
        let text = PageBuilder.text(4, [Some("b"), None, Some("a"), Some("c")].into_iter());
        assert_eq!(bounds_of(&text), (Some(&b"a"[..]), Some(&b"c"[..]), Some(1)));
        assert_eq!((text.rows, text.num_values, text.encoding), (4, 4, Encoding::DeltaLengthByteArray));

        // Integers: a dictionary in order of first appearance.
        let numbers = PageBuilder.int32([Some(5), Some(-3), Some(5), None].into_iter());
        let (entries, count) = numbers.dictionary.as_ref().unwrap();
        assert_eq!((entries.as_slice(), *count), ([5i32.to_le_bytes(), (-3i32).to_le_bytes()].concat().as_slice(), 2));
        assert_eq!(bounds_of(&numbers), (Some(&(-3i32).to_le_bytes()[..]), Some(&5i32.to_le_bytes()[..]), Some(1)));

        // Lists: a slot per item, empty list and null list; the dictionary
        // holds the entries used, in vocabulary order.
        let lists: [Option<Vec<u8>>; 3] = [Some(vec![2, 0]), Some(vec![]), None];
        let column =
            PageBuilder.vocabulary_lists(&["x", "y", "z"], lists.iter().map(|l| l.clone().map(Vec::into_iter)));
        assert_eq!((column.rows, column.num_values), (3, 4));
        assert_eq!(column.dictionary.as_ref().map(|(_, count)| *count), Some(2));
        assert_eq!(bounds_of(&column), (Some(&b"x"[..]), Some(&b"z"[..]), Some(2)));

        // Nothing but nulls: no dictionary, no bounds (a null page).
        let nulls = PageBuilder.repeated_text(2, [None, None].into_iter());
        assert!(nulls.dictionary.is_none() && nulls.encoding == Encoding::Plain);
        assert_eq!(bounds_of(&nulls), (None, None, Some(2)));
    }

    #[test]
    fn equal_values_are_one_rle_run_and_others_bit_packed() {
        let mut encoded = Vec::new();
        encode_hybrid(&mut encoded, &[1; 1000], 1, |v| v);
        // Header 1000 << 1 as LEB128, then the value in one byte.
        assert_eq!(encoded, [0xD0, 0x0F, 1]);
        encoded.clear();
        encode_hybrid(&mut encoded, &[1, 0, 1], 1, |v| v);
        // One group, bit-packed: 0b101.
        assert_eq!(encoded, [0b11, 0b101]);
        encoded.clear();
        // 8,193 values: a full run of 1,024 groups (at 3 bits, 3,072
        // bytes), then one group of one value.
        let values: Vec<u32> = (0..8193).map(|i| i % 7).collect();
        encode_hybrid(&mut encoded, &values, 3, |v| v);
        assert_eq!(encoded[..2], [0x81, 0x10]);
        assert_eq!(encoded[2 + 3072..2 + 3072 + 1], [0b11]);
        assert_eq!(encoded.len(), 2 + 3072 + 1 + 3);
        assert_eq!(decode(&encoded, 3, values.len()), values);
    }
}
