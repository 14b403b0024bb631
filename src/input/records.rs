//! Cutting a CSV stream into chunks of whole records, on the reader thread;
//! splitting the fields and checking them as UTF-8 happen on the workers
//! ([`CsvChunk::parse`]), so reading stays one decompression and one scan.
//!
//! The scan follows the csv crate's rules for where a record ends: a quote
//! opens a quoted field only at the field's start, a doubled quote inside it
//! is a quote, and `\r`, `\n` or `\r\n` end a record outside quotes; empty
//! lines are no record, and a record of one blank field is no data row (the
//! reader has always skipped those).

use std::io::{self, Read};
use std::ops::Range;

use csv::ByteRecord;

use super::{RowBatch, RowShape, RowSpan};

/// Bytes read from the stream at a time.
const BLOCK: usize = 1 << 20;

/// What a scan found: data rows that end within the bytes, and the offset
/// just past the last of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Found {
    pub rows: usize,
    pub end: usize,
}

/// Whether `content` (a field's bytes so far) is all ASCII whitespace.
fn blank(content: &[u8]) -> bool {
    content.iter().all(u8::is_ascii_whitespace)
}

/// The csv crate reading `bytes` as Koga reads a CSV: no header row (the
/// header is a record like any other here), rows of any length.
fn csv_reader(bytes: &[u8]) -> csv::Reader<&[u8]> {
    csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(bytes)
}

/// Where the first of `needles` (one to three bytes) is in `bytes`, looked
/// for by `memchr` a vector at a time.
fn find_any(bytes: &[u8], needles: &[u8]) -> Option<usize> {
    match *needles {
        [a] => memchr::memchr(a, bytes),
        [a, b] => memchr::memchr2(a, b, bytes),
        [a, b, c] => memchr::memchr3(a, b, c, bytes),
        _ => bytes.iter().position(|b| needles.contains(b)),
    }
}

/// Where the pieces of `bytes` cut at every separator lie (as `split` cuts
/// them), found eight bytes at a time.
fn pieces<'a>(bytes: &'a [u8], separators: &'a [u8]) -> impl Iterator<Item = Range<usize>> + 'a {
    let mut start = Some(0);
    std::iter::from_fn(move || {
        let from = start?;
        let end = find_any(&bytes[from..], separators).map(|p| from + p);
        start = end.map(|end| end + 1);
        Some(from..end.unwrap_or(bytes.len()))
    })
}

/// Scans `bytes` for up to `want` records. With `skip_blank`, a record of
/// one blank field does not count (data rows); without, only empty lines are
/// skipped (the header). At `eof` a last record without a terminator counts.
pub(super) fn scan(bytes: &[u8], want: usize, eof: bool, skip_blank: bool) -> Found {
    let n = bytes.len();
    let mut found = Found { rows: 0, end: 0 };
    let mut i = 0;
    while found.rows < want {
        while i < n && matches!(bytes[i], b'\r' | b'\n') {
            i += 1;
        }
        if i >= n {
            break;
        }
        // A record without a quote ends at the first line break: the
        // puzzle database's every record, found in one search.
        match find_any(&bytes[i..], b"\"\r\n") {
            Some(p) if bytes[i + p] != b'"' => {
                // One blank field is a record of whitespace only (a comma
                // is not whitespace).
                let counts = !(skip_blank && blank(&bytes[i..i + p]));
                i += p + 1;
                if counts {
                    found.rows += 1;
                    found.end = i;
                }
                continue;
            }
            None => {
                if eof && !(skip_blank && blank(&bytes[i..])) {
                    found.rows += 1;
                    found.end = n;
                }
                break;
            }
            Some(_) => {} // a quote: field by field
        }
        let (mut one_field, mut all_blank) = (true, true);
        let terminated = 'record: loop {
            // A field: quoted if it starts with a quote.
            if bytes[i] == b'"' {
                i += 1;
                loop {
                    let Some(q) = find_any(&bytes[i..], b"\"") else {
                        all_blank = all_blank && blank(&bytes[i..]);
                        i = n;
                        break 'record false;
                    };
                    all_blank = all_blank && blank(&bytes[i..i + q]);
                    i += q + 1;
                    match bytes.get(i) {
                        Some(b'"') => {
                            all_blank = false;
                            i += 1;
                        }
                        None if !eof => break 'record false,
                        _ => break,
                    }
                }
            }
            // The unquoted part (all of an unquoted field; after a closing
            // quote, what the csv crate appends to it).
            match find_any(&bytes[i..], b",\r\n") {
                None => {
                    all_blank = all_blank && blank(&bytes[i..]);
                    i = n;
                    break 'record false;
                }
                Some(p) => {
                    all_blank = all_blank && blank(&bytes[i..i + p]);
                    i += p + 1;
                    if bytes[i - 1] != b',' {
                        break 'record true;
                    }
                    one_field = false;
                    if i >= n {
                        break 'record false;
                    }
                }
            }
        };
        if !terminated && !eof {
            break; // the record goes on past these bytes
        }
        if !(skip_blank && one_field && all_blank) {
            found.rows += 1;
            found.end = i;
        }
        if !terminated {
            break;
        }
    }
    found
}

/// Whole records of a CSV stream, `rows` data rows numbered from `first`.
pub struct CsvChunk {
    bytes: Vec<u8>,
    first: u64,
    rows: usize,
    shape: RowShape,
}

impl CsvChunk {
    pub fn len(&self) -> usize {
        self.rows
    }

    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// The size of a typical row of this chunk, with some room to spare:
    /// the next chunk's buffers are sized by it.
    pub(super) fn shape(&self) -> RowShape {
        let bytes = self.bytes.len() / self.rows.max(1);
        RowShape { fields: self.shape.fields, bytes: bytes + bytes / 8 }
    }

    /// The chunk's rows, fields split and checked as UTF-8.
    pub fn parse(self) -> RowBatch {
        let CsvChunk { bytes, first, rows, shape } = self;
        let bytes = if find_any(&bytes, b"\"").is_none() {
            // Without a quote (the puzzle database has none) the csv crate's
            // rows are the lines and its fields the bytes between commas:
            // split them so, without its state machine, and check the text
            // once (cutting UTF-8 at ASCII bytes leaves it UTF-8). One
            // difference: the csv crate drops a byte-order mark opening its
            // input, a chunk here; the file's own mark is read with the
            // header, and one past it is data, kept wherever chunks are cut.
            match String::from_utf8(bytes) {
                Ok(text) => return split_text(text, first, rows, shape),
                Err(e) => {
                    let bytes = e.into_bytes();
                    let mut batch = RowBatch::with_capacity(rows, shape);
                    let mut index = first;
                    for line in pieces(&bytes, b"\r\n") {
                        let start = line.start;
                        let line = &bytes[line];
                        if blank(line) {
                            continue;
                        }
                        let fields =
                            pieces(line, b",").map(|field| Some(&bytes[start + field.start..start + field.end]));
                        batch.push_fields(index, fields);
                        index += 1;
                    }
                    debug_assert_eq!(batch.len(), rows, "the scan and the split agree on the rows");
                    return batch;
                }
            }
        } else {
            bytes
        };
        let mut batch = RowBatch::with_capacity(rows, shape);
        let mut index = first;
        let mut csv = csv_reader(&bytes[..]);
        let mut record = ByteRecord::new();
        // Reading a byte slice cannot fail: the csv crate's only errors here
        // are I/O ones and, with `flexible`, none else.
        while csv.read_byte_record(&mut record).unwrap_or(false) {
            if record.len() == 1 && blank(&record[0]) {
                continue;
            }
            batch.push(index, &record);
            index += 1;
        }
        debug_assert_eq!(batch.len(), rows, "the scan and the csv crate agree on the rows");
        batch
    }
}

/// Bit 7 of each byte of `word` that is `,`, `\r` or `\n`. For a byte
/// below 0x80, `(byte ^ needle | 0x80) - 1` keeps bit 7 unless the byte is
/// the needle, and borrows nothing from the next byte; bytes from 0x80 up
/// are no separator.
fn separator_bits(word: u64) -> u64 {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGHS: u64 = ONES << 7;
    let keeps = |needle: u8| ((word ^ (ONES * u64::from(needle))) | HIGHS).wrapping_sub(ONES);
    !((keeps(b',') & keeps(b'\r') & keeps(b'\n')) | word) & HIGHS
}

/// Where `,`, `\r` and `\n` are in `bytes`, in order, sixteen bytes looked
/// at a time (SSE2, which every x86-64 has), eight elsewhere and in the
/// tail; `at` is told each.
fn for_each_separator(bytes: &[u8], mut at: impl FnMut(usize)) {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        use std::arch::x86_64::{_mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8};
        let blocks = bytes.chunks_exact(16);
        let rest = blocks.remainder();
        for (n, block) in blocks.enumerate() {
            // SAFETY: the target has SSE2 (the cfg above), and the load
            // reads the 16 bytes of `block`, a whole block of `bytes`
            // (an unaligned load: no alignment asked).
            let mut bits = unsafe {
                let v = _mm_loadu_si128(block.as_ptr().cast());
                let [comma, cr, lf] = [b',', b'\r', b'\n'].map(|b| _mm_set1_epi8(b as i8));
                let hits =
                    _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, comma), _mm_cmpeq_epi8(v, cr)), _mm_cmpeq_epi8(v, lf));
                _mm_movemask_epi8(hits) as u32
            };
            while bits != 0 {
                at(n * 16 + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
        }
        let done = bytes.len() - rest.len();
        for_each_separator_in_words(rest, |i| at(done + i));
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    for_each_separator_in_words(bytes, &mut at);
}

/// [`for_each_separator`], eight bytes at a time.
fn for_each_separator_in_words(bytes: &[u8], mut at: impl FnMut(usize)) {
    let mut each_in = |start: usize, word: [u8; 8]| {
        let mut bits = separator_bits(u64::from_le_bytes(word));
        while bits != 0 {
            at(start + bits.trailing_zeros() as usize / 8);
            bits &= bits - 1;
        }
    };
    let words = bytes.chunks_exact(8);
    let tail = words.remainder();
    for (n, word) in words.enumerate() {
        each_in(n * 8, word.try_into().expect("eight bytes"));
    }
    let mut last = [0u8; 8];
    last[..tail.len()].copy_from_slice(tail);
    each_in(bytes.len() - tail.len(), last);
}

/// The rows of quote-free CSV text, cut in two passes: every separator's
/// bound first ([`for_each_separator`]), then the lines among them.
/// The batch keeps the text as it is, each field where it lies (a field
/// ends one byte before the next one's bound, as [`RowBatch`] holds them);
/// a line's first bound is the one closing the line before.
fn split_text(text: String, first: u64, rows: usize, shape: RowShape) -> RowBatch {
    let bytes = text.as_bytes();
    let mut bounds = Vec::with_capacity(rows * shape.fields + 2);
    bounds.push(0);
    for_each_separator(bytes, |at| bounds.push(at + 1));
    // The last line may end where the text does, without a line break.
    if !matches!(bytes.last(), Some(b'\r' | b'\n')) {
        bounds.push(bytes.len() + 1);
    }
    let mut spans = Vec::with_capacity(rows);
    let (mut index, mut line_start) = (first, 0);
    for (i, &bound) in bounds.iter().enumerate().skip(1) {
        let stop = bound - 1;
        if bytes.get(stop) == Some(&b',') {
            continue;
        }
        // A line of one blank field is no row.
        let fields = i - line_start;
        if !(fields == 1 && blank(&bytes[bounds[line_start]..stop])) {
            spans.push(RowSpan { index, first_bound: line_start, fields, bad_utf8_field: None, absent: 0 });
            index += 1;
        }
        line_start = i;
    }
    debug_assert_eq!(spans.len(), rows, "the scan and the split agree on the rows");
    RowBatch { text, bounds, rows: spans }
}

/// A decoded CSV stream and the bytes read from it but not yet handed out.
pub(super) struct CsvStream {
    stream: Box<dyn Read + Send>,
    /// Bytes read, `buffer[..len]`; the rest is room for the next read.
    buffer: Vec<u8>,
    len: usize,
    /// Where the bytes not yet handed out start.
    start: usize,
    /// A scan of `buffer[start..]` so far: complete rows, and where they end.
    found: Found,
    eof: bool,
    /// Bytes to read at a time (small in tests, to cut records anywhere).
    block: usize,
}

impl CsvStream {
    pub fn new(stream: Box<dyn Read + Send>) -> CsvStream {
        CsvStream {
            stream,
            buffer: Vec::new(),
            len: 0,
            start: 0,
            found: Found { rows: 0, end: 0 },
            eof: false,
            block: BLOCK,
        }
    }

    /// Reads another block; `false` at the end of the stream.
    fn read_more(&mut self) -> io::Result<bool> {
        if self.start > 0 {
            self.buffer.copy_within(self.start..self.len, 0);
            self.len -= self.start;
            self.start = 0;
        }
        let (old, end) = (self.len, self.len + self.block);
        // The buffer keeps its length between reads, so its bytes are
        // zeroed once, not before every block (a megabyte each time).
        if self.buffer.len() < end {
            self.buffer.resize(end, 0);
        }
        while self.len < end {
            match self.stream.read(&mut self.buffer[self.len..end]) {
                Ok(0) => break,
                Ok(n) => self.len += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        if self.len == old {
            self.eof = true;
        }
        Ok(self.len > old)
    }

    /// The first record (the header), as bytes; `None` at an empty input.
    /// `limit` bounds how far to look (a binary file has no line ends).
    pub fn header(&mut self, limit: usize) -> io::Result<Option<ByteRecord>> {
        loop {
            let found = scan(&self.buffer[self.start..self.len], 1, self.eof, false);
            if found.rows == 1 || self.eof || self.len - self.start > limit {
                if found.rows == 0 && !self.eof {
                    // No line end within the limit: hand the whole prefix
                    // to the header check, which says what is wrong.
                    let bytes = self.buffer[self.start..self.len].to_vec();
                    self.start = self.len;
                    return Ok(Some(ByteRecord::from(vec![bytes])));
                }
                let bytes = &self.buffer[self.start..self.start + found.end];
                self.start += found.end;
                let mut csv = csv_reader(bytes);
                let mut header = ByteRecord::new();
                return Ok(csv.read_byte_record(&mut header).unwrap_or(false).then_some(header));
            }
            self.read_more()?;
        }
    }

    /// The next `want` data rows (fewer at the end of the input), numbered
    /// from `first`; `None` when no row is left.
    pub fn next_chunk(&mut self, want: usize, first: u64, shape: RowShape) -> io::Result<Option<CsvChunk>> {
        loop {
            let more =
                scan(&self.buffer[self.start + self.found.end..self.len], want - self.found.rows, self.eof, true);
            self.found = Found { rows: self.found.rows + more.rows, end: self.found.end + more.end };
            if self.found.rows == want || self.eof {
                let Found { rows, end } = std::mem::replace(&mut self.found, Found { rows: 0, end: 0 });
                if rows == 0 {
                    return Ok(None);
                }
                let bytes = self.buffer[self.start..self.start + end].to_vec();
                self.start += end;
                return Ok(Some(CsvChunk { bytes, first, rows, shape }));
            }
            self.read_more()?;
        }
    }

    /// Rows found by the scan so far and not yet handed out (for the row
    /// number of an error).
    ///
    /// After a read error, it counts the whole records that arrived before
    /// it too, so that a truncated stream's message says how far it was
    /// readable.
    pub fn pending_rows(&self) -> usize {
        let rest = &self.buffer[self.start + self.found.end..self.len];
        self.found.rows + scan(rest, usize::MAX, false, true).rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The csv crate's data rows of `text` (blank records skipped), as text.
    fn csv_rows(text: &[u8]) -> Vec<Vec<Vec<u8>>> {
        let mut csv = csv_reader(text);
        let mut rows = Vec::new();
        let mut record = ByteRecord::new();
        while csv.read_byte_record(&mut record).unwrap() {
            if !(record.len() == 1 && blank(&record[0])) {
                // A batch holds text: bytes that are not UTF-8 read as U+FFFD.
                rows.push(
                    record.iter().map(|field| String::from_utf8_lossy(field).into_owned().into_bytes()).collect(),
                );
            }
        }
        rows
    }

    /// Every cut of `text` into chunks of `size` rows, read in blocks of
    /// `block` bytes, gives the csv crate's rows.
    fn agrees(text: &[u8]) {
        let want = csv_rows(text);
        for (size, block) in [(1, 1), (2, 3), (3, 7), (4, BLOCK)] {
            let mut stream = CsvStream::new(Box::new(io::Cursor::new(text.to_vec())));
            stream.block = block;
            let mut got = Vec::new();
            let mut first = 0;
            while let Some(chunk) = stream.next_chunk(size, first, RowShape { fields: 3, bytes: 16 }).unwrap() {
                let rows = chunk.len();
                first += rows as u64;
                let batch = chunk.parse();
                assert_eq!(batch.len(), rows, "{:?}", String::from_utf8_lossy(text));
                got.extend((0..batch.len()).map(|i| {
                    let row = batch.row(i);
                    let fields = row.bounds.len() - 1;
                    (0..fields).map(|f| row.raw_field(f).unwrap_or("").as_bytes().to_vec()).collect::<Vec<_>>()
                }));
            }
            assert_eq!(got, want, "chunks of {size}, blocks of {block}: {:?}", String::from_utf8_lossy(text));
        }
    }

    #[test]
    fn chunks_hold_the_rows_the_csv_crate_reads() {
        for text in [
            &b"a,b,c\nd,e,f\n"[..],
            b"a,b,c\r\nd,e,f\r\n\r\n",
            b"a,b\rc,d\r",
            b"a,\"b\nstill b\",c\nd,e,f",
            b"a,\"quoted \"\" quote\",c\n\n\n  \n\"\"\nx,y\n",
            b"a,b\"c,d\ne,f\n",
            b"\"a\"b,c\n\" \"\nlast,row",
            b"one\n  ,  \n\t\nthree",
            b"\"unterminated, at the end\nof the input",
            b"",
            b"\n\r\n",
        ] {
            agrees(text);
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { failure_persistence: None, ..Default::default() })]
        /// A vector at a time finds what a byte at a time finds, bytes
        /// with the high bit set included.
        #[test]
        fn find_any_finds_the_first_needle(bytes in proptest::collection::vec(
            proptest::sample::select(&b"a,\r\n\"\x00\x80\xff\x2b\x2d"[..]), 0..100)) {
            for needles in [&b","[..], b"\"", b",\r\n", b"\r\n"] {
                proptest::prop_assert_eq!(find_any(&bytes, needles), bytes.iter().position(|b| needles.contains(b)));
            }
            let cut: Vec<&[u8]> = pieces(&bytes, b",").map(|piece| &bytes[piece]).collect();
            let mut found = Vec::new();
            for_each_separator(&bytes, |at| found.push(at));
            let wanted: Vec<usize> = (0..bytes.len()).filter(|&i| b",\r\n".contains(&bytes[i])).collect();
            proptest::prop_assert_eq!(&found, &wanted);
            // The eight-byte path on its own (other targets, and the tail).
            let mut in_words = Vec::new();
            for_each_separator_in_words(&bytes, |at| in_words.push(at));
            proptest::prop_assert_eq!(in_words, wanted);
            proptest::prop_assert_eq!(cut, bytes.split(|&b| b == b',').collect::<Vec<_>>());
        }

        /// Any text over the bytes that matter to record ends cuts into
        /// the csv crate's rows, whatever the chunk size.
        #[test]
        fn any_text_cuts_into_the_csv_crates_rows(text in proptest::collection::vec(
            proptest::sample::select(&b"a ,\"\r\n"[..]), 0..60)) {
            agrees(&text);
        }

        /// The same without quotes, where fields are split without the csv
        /// crate (tabs, other whitespace and bytes that are not UTF-8 too).
        #[test]
        fn any_text_without_quotes_splits_into_the_csv_crates_rows(text in proptest::collection::vec(
            proptest::sample::select(&b"a ,\r\n\t\xff"[..]), 0..60)) {
            agrees(&text);
        }
    }

    #[test]
    fn a_record_past_the_bytes_read_is_not_counted_before_the_end() {
        assert_eq!(scan(b"a,b\nc,\"d", 5, false, true), Found { rows: 1, end: 4 });
        assert_eq!(scan(b"a,b\nc,\"d", 5, true, true), Found { rows: 2, end: 8 });
        // A closing quote at the end of the bytes: the next byte may escape it.
        assert_eq!(scan(b"a,\"b\"", 5, false, true), Found { rows: 0, end: 0 });
    }
}
