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

use csv::ByteRecord;

use super::{RowBatch, RowShape};

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
        let (mut one_field, mut all_blank) = (true, true);
        let terminated = 'record: loop {
            // A field: quoted if it starts with a quote.
            if bytes[i] == b'"' {
                i += 1;
                loop {
                    let Some(q) = bytes[i..].iter().position(|&b| b == b'"') else {
                        all_blank &= blank(&bytes[i..]);
                        i = n;
                        break 'record false;
                    };
                    all_blank &= blank(&bytes[i..i + q]);
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
            match bytes[i..].iter().position(|&b| matches!(b, b',' | b'\r' | b'\n')) {
                None => {
                    all_blank &= blank(&bytes[i..]);
                    i = n;
                    break 'record false;
                }
                Some(p) => {
                    all_blank &= blank(&bytes[i..i + p]);
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
    pub fn parse(&self) -> RowBatch {
        let mut batch = RowBatch::with_capacity(self.rows, self.shape);
        let mut csv = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(&self.bytes[..]);
        let mut record = ByteRecord::new();
        let mut index = self.first;
        // Reading a byte slice cannot fail: the csv crate's only errors here
        // are I/O ones and, with `flexible`, none else.
        while csv.read_byte_record(&mut record).unwrap_or(false) {
            if record.len() == 1 && blank(&record[0]) {
                continue;
            }
            batch.push(index, &record);
            index += 1;
        }
        debug_assert_eq!(batch.len(), self.rows, "the scan and the csv crate agree on the rows");
        batch
    }
}

/// A decoded CSV stream and the bytes read from it but not yet handed out.
pub(super) struct CsvStream {
    stream: Box<dyn Read + Send>,
    buffer: Vec<u8>,
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
        CsvStream { stream, buffer: Vec::new(), start: 0, found: Found { rows: 0, end: 0 }, eof: false, block: BLOCK }
    }

    /// Reads another block; `false` at the end of the stream.
    fn read_more(&mut self) -> io::Result<bool> {
        if self.start > 0 {
            self.buffer.drain(..self.start);
            self.start = 0;
        }
        let old = self.buffer.len();
        self.buffer.resize(old + self.block, 0);
        let mut filled = old;
        while filled < self.buffer.len() {
            match self.stream.read(&mut self.buffer[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.buffer.truncate(filled);
                    return Err(e);
                }
            }
        }
        self.buffer.truncate(filled);
        if filled == old {
            self.eof = true;
        }
        Ok(filled > old)
    }

    /// The first record (the header), as bytes; `None` at an empty input.
    /// `limit` bounds how far to look (a binary file has no line ends).
    pub fn header(&mut self, limit: usize) -> io::Result<Option<ByteRecord>> {
        loop {
            let found = scan(&self.buffer[self.start..], 1, self.eof, false);
            if found.rows == 1 || self.eof || self.buffer.len() - self.start > limit {
                if found.rows == 0 && !self.eof {
                    // No line end within the limit: hand the whole prefix
                    // to the header check, which says what is wrong.
                    let bytes = self.buffer[self.start..].to_vec();
                    self.start = self.buffer.len();
                    return Ok(Some(ByteRecord::from(vec![bytes])));
                }
                let bytes = &self.buffer[self.start..self.start + found.end];
                self.start += found.end;
                let mut csv = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(bytes);
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
            let more = scan(&self.buffer[self.start + self.found.end..], want - self.found.rows, self.eof, true);
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
    pub fn pending_rows(&self) -> usize {
        self.found.rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The csv crate's data rows of `text` (blank records skipped).
    fn csv_rows(text: &[u8]) -> Vec<Vec<Vec<u8>>> {
        let mut csv = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(text);
        let mut rows = Vec::new();
        let mut record = ByteRecord::new();
        while csv.read_byte_record(&mut record).unwrap() {
            if !(record.len() == 1 && blank(&record[0])) {
                rows.push(record.iter().map(<[u8]>::to_vec).collect());
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
                first += chunk.len() as u64;
                let batch = chunk.parse();
                assert_eq!(batch.len(), chunk.len(), "{:?}", String::from_utf8_lossy(text));
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
        /// Any text over the bytes that matter to record ends cuts into
        /// the csv crate's rows, whatever the chunk size.
        #[test]
        fn any_text_cuts_into_the_csv_crates_rows(text in proptest::collection::vec(
            proptest::sample::select(&b"a ,\"\r\n"[..]), 0..60)) {
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
