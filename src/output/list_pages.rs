//! The pages of a list column, without polars-parquet's general nested
//! encoder.
//!
//! polars-parquet computes a nested column's repetition and definition
//! levels with a general Dremel iterator, walked three times per page
//! (count, repetition, definition): on Koga's tables that was about a
//! sixth of a run's CPU, for lists one level deep. Here the values go
//! through polars-parquet's flat path (same encoding, statistics and
//! dictionary page) and the levels, which for `list<item>` follow from
//! the offsets and validities alone, are encoded with its own run-length
//! encoder in front of them. The page comes out byte for byte as the
//! nested path writes it (the tests compare the two); where the flat path
//! splits the values over more than one page, or the column is not a
//! one-level list, the caller keeps the nested path.

use polars::error::PolarsResult;
use polars_arrow::array::{Array, ListArray};
use polars_arrow::bitmap::Bitmap;
use polars_parquet::parquet::encoding::hybrid_rle;
use polars_parquet::parquet::page::{DataPage, DataPageHeader};
use polars_parquet::parquet::schema::Repetition;
use polars_parquet::parquet::CowBuffer;
use polars_parquet::write::{array_to_columns, Encoding, Page, ParquetType, WriteOptions};

/// The pages of a one-level list column (a dictionary page first where
/// `encoding` is a dictionary), or `None` where the nested path must
/// write it.
pub(super) fn list_pages(
    array: &dyn Array,
    parquet_type: &ParquetType,
    options: WriteOptions,
    encoding: Encoding,
) -> PolarsResult<Option<Vec<Page>>> {
    let Some(list) = array.as_any().downcast_ref::<ListArray<i64>>() else { return Ok(None) };
    let ParquetType::GroupType { field_info, fields, .. } = parquet_type else { return Ok(None) };
    // A list is a group holding one repeated group holding one leaf.
    let [ParquetType::GroupType { fields: repeated, .. }] = fields.as_slice() else { return Ok(None) };
    let [leaf @ ParquetType::PrimitiveType(leaf_type)] = repeated.as_slice() else { return Ok(None) };
    let list_optional = field_info.repetition == Repetition::Optional;
    let items_optional = leaf_type.field_info.repetition == Repetition::Optional;

    let offsets = list.offsets();
    let start = *offsets.first() as usize;
    let values = list.values().sliced(start, offsets.range() as usize);
    let mut flat = Vec::new();
    for column in array_to_columns(values.as_ref(), leaf.clone(), options, &[encoding])? {
        for page in column {
            flat.push(page?);
        }
    }
    let mut data_pages = flat.iter().enumerate().filter(|(_, page)| matches!(page, Page::Data(_)));
    let (Some((data_at, Page::Data(data))), None) = (data_pages.next(), data_pages.next()) else { return Ok(None) };
    let DataPageHeader::V1(header) = data.header() else { return Ok(None) };

    // The flat page: the items' definition levels (a 4-byte length, then
    // the levels) where items may be null, then the values.
    let buffer = data.buffer();
    let values_at = if items_optional {
        let Some(length) = buffer.get(..4) else { return Ok(None) };
        4 + u32::from_le_bytes(length.try_into().expect("four bytes")) as usize
    } else {
        0
    };
    let Some(encoded_values) = buffer.get(values_at..) else { return Ok(None) };

    let (repetition, definition, max_definition) = levels(list, values.validity(), list_optional, items_optional);
    let mut out = Vec::with_capacity(buffer.len() + repetition.len() / 2 + 16);
    write_levels(&mut out, &repetition, 1)?;
    write_levels(&mut out, &definition, u32::BITS - max_definition.leading_zeros())?;
    out.extend_from_slice(encoded_values);

    let mut header = header.clone();
    header.num_values = repetition.len() as i32;
    let page = DataPage::new(DataPageHeader::V1(header), CowBuffer::Owned(out), data.descriptor.clone(), list.len());
    flat[data_at] = Page::Data(page);
    Ok(Some(flat))
}

/// Each slot's repetition and definition levels (a slot is an item, or a
/// null or empty list), and the definition level of a present item.
fn levels(
    list: &ListArray<i64>,
    items: Option<&Bitmap>,
    list_optional: bool,
    items_optional: bool,
) -> (Vec<u32>, Vec<u32>, u32) {
    let empty = u32::from(list_optional);
    let null_item = empty + 1;
    let item = null_item + u32::from(items_optional);
    let slots = list.values().len().max(list.len());
    let (mut repetition, mut definition) = (Vec::with_capacity(slots), Vec::with_capacity(slots));
    let first = *list.offsets().first() as usize;
    for row in 0..list.len() {
        let (start, end) = list.offsets().start_end(row);
        if !list.is_valid(row) {
            repetition.push(0);
            definition.push(0);
        } else if start == end {
            repetition.push(0);
            definition.push(empty);
        } else {
            for at in start..end {
                repetition.push(u32::from(at > start));
                definition.push(if items.is_none_or(|valid| valid.get_bit(at - first)) { item } else { null_item });
            }
        }
    }
    (repetition, definition, item)
}

/// Levels as a version-1 data page holds them: their byte length, then
/// the hybrid run-length encoding.
fn write_levels(out: &mut Vec<u8>, levels: &[u32], bit_width: u32) -> PolarsResult<()> {
    let length_at = out.len();
    out.extend_from_slice(&[0; 4]);
    encode_levels(out, levels, bit_width)?;
    let length = (out.len() - length_at - 4) as u32;
    out[length_at..length_at + 4].copy_from_slice(&length.to_le_bytes());
    Ok(())
}

/// The most values polars-parquet's encoder buffers as one literal run.
const MAX_LITERAL_RUN: usize = 8 * 1024;

/// `hybrid_rle::encode`, byte for byte, over a slice: the same decisions
/// (runs of more than eight as RLE, the rest bit-packed in groups of
/// eight, literal runs of at most 8,192 values), but a literal run is a
/// range of the slice rather than a copy in a 32 KB buffer zeroed per call,
/// and a long run is skipped at once rather than value by value. Levels are
/// mostly long runs (empty lists, single items), so this is most of their
/// cost saved; the bit-packing and run headers are polars-parquet's own.
fn encode_levels(out: &mut Vec<u8>, values: &[u32], bit_width: u32) -> std::io::Result<()> {
    use hybrid_rle::Encoder;
    let bitpack = |out: &mut Vec<u8>, run: &[u32]| u32::bitpacked_encode(out, run.iter().copied(), bit_width as usize);
    // The names of polars-parquet's encoder: `start` is where its buffer
    // begins in `values`, `buffered` how many it holds, `literal` how many
    // of those form the literal run so far.
    let (mut consecutive, mut previous) = (0usize, 0u32);
    let (mut start, mut buffered, mut literal) = (0usize, 0usize, 0usize);
    let mut i = 0;
    while i < values.len() {
        let value = values[i];
        if value == previous {
            consecutive += 1;
            if consecutive > 8 {
                // A run long enough to RLE: the rest of it at once.
                let rest = values[i + 1..].iter().take_while(|&&v| v == value).count();
                consecutive += rest;
                i += 1 + rest;
                continue;
            }
            if consecutive == 8 {
                // The literal run so far must hold whole groups of eight.
                let padding = (8 - literal % 8) % 8;
                consecutive -= padding;
                literal += padding;
            }
        } else if consecutive > 8 {
            if literal > 0 {
                bitpack(out, &values[start..start + literal])?;
                literal = 0;
            }
            u32::run_length_encode(out, consecutive, previous, bit_width)?;
            consecutive = 1;
            (start, buffered) = (i, 0);
        } else {
            literal = buffered;
            consecutive = 1;
        }
        if buffered == MAX_LITERAL_RUN {
            bitpack(out, &values[start..start + buffered])?;
            consecutive = 1;
            (start, buffered, literal) = (i, 0, 0);
        }
        previous = value;
        buffered += 1;
        i += 1;
    }
    if consecutive <= 8 {
        literal = buffered;
    }
    if literal > 0 {
        bitpack(out, &values[start..start + literal])?;
    }
    if consecutive > 8 {
        u32::run_length_encode(out, consecutive, previous, bit_width)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    proptest! {
        /// The slice encoder writes what polars-parquet's encoder writes, for
        /// levels of any shape: long and short runs, literal runs past its
        /// 8,192-value buffer, every bit width Koga's levels take.
        #[test]
        fn levels_encode_as_polars_parquet_encodes_them(
            runs in prop_oneof![
                proptest::collection::vec((0u32..4, 1usize..40), 0..600),
                // Short runs only: literal runs that outgrow the buffer.
                proptest::collection::vec((0u32..4, 1usize..9), 1500..3000),
            ],
            bit_width in 1u32..3,
        ) {
            let levels: Vec<u32> =
                runs.iter().flat_map(|&(v, n)| std::iter::repeat_n(v % (1 << bit_width), n)).collect();
            let (mut ours, mut theirs) = (Vec::new(), Vec::new());
            encode_levels(&mut ours, &levels, bit_width).unwrap();
            hybrid_rle::encode::<u32, _, _>(&mut theirs, levels.iter().copied(), bit_width).unwrap();
            prop_assert_eq!(ours, theirs);
        }
    }

    #[test]
    fn levels_past_one_literal_buffer_encode_as_polars_parquet_encodes_them() {
        // Alternating values never make a run: literal runs fill the buffer.
        for len in [0, 1, 7, 8, 9, 8191, 8192, 8193, 20_000] {
            let levels: Vec<u32> = (0..len).map(|i| (i % 2) as u32).collect();
            let (mut ours, mut theirs) = (Vec::new(), Vec::new());
            encode_levels(&mut ours, &levels, 1).unwrap();
            hybrid_rle::encode::<u32, _, _>(&mut theirs, levels.iter().copied(), 1).unwrap();
            assert_eq!(ours, theirs, "{len} values");
        }
    }

    use polars::prelude::CompatLevel;
    use polars_arrow::datatypes::Field as ArrowField;
    use polars_parquet::write::to_parquet_type;

    use super::super::{dtype, encoding, write_options, ParquetArrays};
    use super::*;
    use crate::table::{ArrayBuilder, Kind};

    /// Rows of a list column in every shape: null and empty lists, lists of
    /// one to five items, null items where `null_items` (a small generator,
    /// so that the cases are the same on every run).
    fn shapes(rows: usize, seed: u64, null_items: bool) -> Vec<Option<Vec<Option<u8>>>> {
        let mut state = seed;
        let mut next = |below: u64| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) % below
        };
        (0..rows)
            .map(|_| match next(8) {
                0 => None,
                1 => Some(Vec::new()),
                _ => Some(
                    (0..1 + next(5))
                        .map(|_| if null_items && next(6) == 0 { None } else { Some(next(40) as u8) })
                        .collect(),
                ),
            })
            .collect()
    }

    fn column(kind: Kind, rows: &[Option<Vec<Option<u8>>>]) -> Box<dyn Array> {
        let names: Vec<String> = (0..40).map(|i| format!("word{i:02}")).collect();
        let vocabulary: Vec<&str> = names.iter().map(String::as_str).collect();
        let lists = rows.iter().map(|row| row.as_ref().map(|items| items.iter().copied()));
        match kind {
            Kind::Words => {
                ParquetArrays.words(lists.map(|items| items.map(|i| i.map(|i| vocabulary[i.unwrap() as usize]))))
            }
            Kind::Labels | Kind::Squares | Kind::Themes => {
                ParquetArrays.vocabulary_lists(&vocabulary, lists.map(|items| items.map(|i| i.map(Option::unwrap))))
            }
            Kind::Plies => ParquetArrays.int32_lists(lists.map(|items| items.map(|i| i.map(|i| i.map(i32::from))))),
            _ => unreachable!("not a list kind"),
        }
    }

    /// The nested path's pages, as polars-parquet writes them.
    fn nested_pages(array: &dyn Array, parquet_type: &ParquetType, options: WriteOptions, kind: Kind) -> Vec<Page> {
        let columns = array_to_columns(array, parquet_type.clone(), options, &[encoding(kind)]).unwrap();
        columns.into_iter().flatten().map(Result::unwrap).collect()
    }

    fn same_pages(ours: &[Page], theirs: &[Page]) -> Result<(), String> {
        if ours.len() != theirs.len() {
            return Err(format!("{} pages, the nested path {}", ours.len(), theirs.len()));
        }
        for (ours, theirs) in ours.iter().zip(theirs) {
            match (ours, theirs) {
                (Page::Data(ours), Page::Data(theirs)) => {
                    let same = ours.buffer() == theirs.buffer()
                        && format!("{:?}", ours.header()) == format!("{:?}", theirs.header())
                        && ours.num_rows == theirs.num_rows;
                    if !same {
                        return Err(format!("data pages differ:\n{:?}\n{:?}", ours.header(), theirs.header()));
                    }
                }
                (Page::Dict(ours), Page::Dict(theirs)) => {
                    if *ours.buffer != *theirs.buffer || ours.num_values != theirs.num_values {
                        return Err("dictionary pages differ".into());
                    }
                }
                _ => return Err("pages of different kinds".into()),
            }
        }
        Ok(())
    }

    #[test]
    fn list_pages_are_byte_for_byte_the_nested_paths() {
        let options = write_options();
        for kind in [Kind::Words, Kind::Labels, Kind::Plies] {
            let field = ArrowField::new("column".into(), dtype(kind).to_arrow(CompatLevel::newest()), true);
            let parquet_type = to_parquet_type(&field).unwrap();
            for (seed, rows) in [(1, 1), (2, 7), (3, 100), (4, 8192), (5, 3000)] {
                let rows = shapes(rows, seed, kind == Kind::Plies);
                let array = column(kind, &rows);
                // A slice's offsets do not start at zero: its pages are
                // those of the same rows built afresh (the nested path
                // miscounts nulls on a slice of a list with null rows).
                // Not for dictionaries: a slice keeps its whole dictionary.
                let cut = rows.len() / 3;
                let mut cases = vec![(array.clone(), array.clone())];
                if encoding(kind) == Encoding::Plain {
                    cases.push((array.sliced(cut, rows.len() - cut), column(kind, &rows[cut..])));
                }
                for (array, reference) in cases {
                    let ours = list_pages(array.as_ref(), &parquet_type, options, encoding(kind)).unwrap();
                    let ours =
                        ours.unwrap_or_else(|| panic!("{kind:?}, {} rows: left to the nested path", array.len()));
                    let theirs = nested_pages(reference.as_ref(), &parquet_type, options, kind);
                    same_pages(&ours, &theirs).unwrap_or_else(|e| panic!("{kind:?}, {} rows: {e}", array.len()));
                }
            }
        }
    }

    #[test]
    fn values_over_several_pages_are_left_to_the_nested_path() {
        let options = WriteOptions { data_page_size: Some(256), ..write_options() };
        let field = ArrowField::new("column".into(), dtype(Kind::Words).to_arrow(CompatLevel::newest()), true);
        let parquet_type = to_parquet_type(&field).unwrap();
        let array = column(Kind::Words, &shapes(5000, 9, false));
        assert!(list_pages(array.as_ref(), &parquet_type, options, Encoding::Plain).unwrap().is_none());
        assert!(nested_pages(array.as_ref(), &parquet_type, options, Kind::Words).len() > 1);
    }

    #[test]
    fn columns_that_are_not_lists_are_left_to_the_nested_path() {
        let array = ParquetArrays.int32([Some(1), None].into_iter());
        let field = ArrowField::new("column".into(), dtype(Kind::Int32).to_arrow(CompatLevel::newest()), true);
        let parquet_type = to_parquet_type(&field).unwrap();
        assert!(list_pages(array.as_ref(), &parquet_type, write_options(), Encoding::Plain).unwrap().is_none());
    }
}
