//! `koga compare --exact`: how often the `themes` Koga computes by
//! Lichess's rules ([`crate::lichess`]) equal Lichess's published `Themes`,
//! over the themes Lichess's tagger emits, and why the other rows differ.
//! The engine's themes (crushing, advantage, equality, zugzwang) are
//! compared on the rows the engine stage judged (`--engine`), like any
//! other; where no row was judged the report says nothing of them.

use std::fmt::Write;

use serde::Serialize;

use super::{EXAMPLES, LENGTH_THEMES};
use crate::lichess::Theme;

/// A set of themes, one bit per [`Theme`].
type ThemeSet = u64;

fn bit(theme: Theme) -> ThemeSet {
    1 << theme as usize
}

fn members(set: ThemeSet) -> impl Iterator<Item = Theme> {
    Theme::ALL.iter().copied().filter(move |&t| set & bit(t) != 0)
}

/// Counts for one theme.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ThemeCounts {
    #[serde(serialize_with = "theme_name")]
    pub theme: Theme,
    /// Compared rows whose published `Themes` hold it.
    pub lichess: u64,
    /// Compared rows Koga's `themes` give it.
    pub koga: u64,
    /// Rows where only Koga gives it.
    pub extra: u64,
    /// Rows where only Lichess gives it.
    pub missing: u64,
}

fn theme_name<S: serde::Serializer>(theme: &Theme, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(theme.name())
}

/// Why a row differs: a theme only one side gives.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Cause {
    /// `"extra"` (Koga only) or `"missing"` (Lichess only).
    pub kind: &'static str,
    #[serde(serialize_with = "theme_name")]
    pub theme: Theme,
    /// Rows with this cause.
    pub rows: u64,
    /// Their puzzle ids, the first [`EXAMPLES`] (with `--examples`).
    pub examples: Vec<String>,
}

/// The exactness report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExactReport {
    /// Rows read.
    pub rows: u64,
    /// Rows Lichess has tagged (a length theme) whose `themes` Koga computed.
    pub tagged: u64,
    /// Tagged rows whose `themes` equal the published `Themes` over the
    /// themes Lichess's tagger emits (from the moves, and the engine's on
    /// the rows it judged).
    pub equal: u64,
    /// Tagged rows whose engine themes were compared: those the engine
    /// stage judged. Without any, `themes` and `causes` leave the engine's
    /// themes out.
    pub engine_rows: u64,
    pub themes: Vec<ThemeCounts>,
    /// The causes of the differing rows, most frequent first.
    pub causes: Vec<Cause>,
}

impl ExactReport {
    /// Share of tagged rows that are equal.
    pub fn share(&self) -> Option<f64> {
        (self.tagged > 0).then(|| self.equal as f64 / self.tagged as f64)
    }
}

/// Accumulates rows, in input order, into an [`ExactReport`].
pub struct ExactTally {
    report: ExactReport,
    examples: bool,
    /// The themes compared on a row the engine did not judge.
    from_moves: ThemeSet,
}

impl ExactTally {
    /// With `examples`, each cause lists its first puzzle ids.
    pub fn new(examples: bool) -> ExactTally {
        let themes = Theme::ALL.iter().map(|&theme| ThemeCounts { theme, lichess: 0, koga: 0, extra: 0, missing: 0 });
        let report =
            ExactReport { rows: 0, tagged: 0, equal: 0, engine_rows: 0, themes: themes.collect(), causes: Vec::new() };
        let from_moves = Theme::ALL.iter().filter(|t| !t.from_engine()).map(|&t| bit(t)).fold(0, |a, b| a | b);
        ExactTally { report, examples, from_moves }
    }

    /// Counts one row the engine did not judge: `published` is its
    /// `Themes` field, `computed` the theme names Koga computed, `None`
    /// when it computed none (an error row): such a row is not compared.
    pub fn add<'a>(&mut self, puzzle_id: &str, published: &str, computed: Option<impl Iterator<Item = &'a str>>) {
        self.add_judged(puzzle_id, published, computed, false);
    }

    /// Counts one row as [`ExactTally::add`] does; with `judged` (the
    /// engine stage judged the row) the engine's themes are compared too.
    pub fn add_judged<'a>(
        &mut self,
        puzzle_id: &str,
        published: &str,
        computed: Option<impl Iterator<Item = &'a str>>,
        judged: bool,
    ) {
        self.report.rows += 1;
        let Some(computed) = computed else { return };
        let mut tagged = false;
        let mut lichess: ThemeSet = 0;
        for name in published.split_ascii_whitespace() {
            tagged |= LENGTH_THEMES.contains(&name);
            lichess |= Theme::from_name(name).map_or(0, bit);
        }
        if !tagged {
            return;
        }
        let koga: ThemeSet = computed.filter_map(Theme::from_name).map(bit).fold(0, |a, b| a | b);
        let compared = if judged { !0 } else { self.from_moves };
        let (lichess, koga) = (lichess & compared, koga & compared);
        self.report.tagged += 1;
        self.report.engine_rows += u64::from(judged);
        self.report.equal += u64::from(koga == lichess);
        for counts in &mut self.report.themes {
            let b = bit(counts.theme);
            counts.lichess += u64::from(lichess & b != 0);
            counts.koga += u64::from(koga & b != 0);
        }
        for (kind, set) in [("extra", koga & !lichess), ("missing", lichess & !koga)] {
            for theme in members(set) {
                let counts = &mut self.report.themes[theme as usize];
                match kind {
                    "extra" => counts.extra += 1,
                    _ => counts.missing += 1,
                }
                let cause = match self.report.causes.iter_mut().find(|c| c.kind == kind && c.theme == theme) {
                    Some(cause) => cause,
                    None => {
                        self.report.causes.push(Cause { kind, theme, rows: 0, examples: Vec::new() });
                        self.report.causes.last_mut().expect("just pushed")
                    }
                };
                cause.rows += 1;
                if self.examples && cause.examples.len() < EXAMPLES {
                    cause.examples.push(puzzle_id.to_owned());
                }
            }
        }
    }

    pub fn finish(mut self) -> ExactReport {
        if self.report.engine_rows == 0 {
            self.report.themes.retain(|t| !t.theme.from_engine());
        }
        self.report.causes.sort_by(|a, b| b.rows.cmp(&a.rows).then(a.theme.cmp(&b.theme)).then(a.kind.cmp(b.kind)));
        self.report
    }
}

impl super::Render for ExactReport {
    /// The share, the causes, then the per-theme counts, as text.
    fn to_text(&self) -> String {
        let mut out = String::new();
        let share = self.share().map_or_else(|| "-".to_owned(), |s| format!("{:.2} %", 100.0 * s));
        let _ = writeln!(
            out,
            "{} rows, {} tagged by Lichess and compared: `themes` equals `Themes` on {} ({share})",
            self.rows, self.tagged, self.equal
        );
        let _ = match self.engine_rows {
            0 => writeln!(out, "(over the themes Lichess's tagger emits; `koga labels --lichess` lists them)"),
            judged => writeln!(
                out,
                "(over the themes Lichess's tagger emits, `koga labels --lichess` lists them: crushing, advantage, \
                 equality and zugzwang on the {judged} rows the engine judged)"
            ),
        };
        if !self.causes.is_empty() {
            let _ = writeln!(out, "\nrows that differ, by cause (a row may have several):");
            for c in &self.causes {
                let _ = write!(out, "  {:<8} {:<20} {:>6}", c.kind, c.theme.name(), c.rows);
                if !c.examples.is_empty() {
                    let _ = write!(out, "  {}", c.examples.join(" "));
                }
                out.push('\n');
            }
        }
        let _ = writeln!(out, "\n{:<20} {:>8} {:>8} {:>8} {:>8}", "theme", "lichess", "koga", "extra", "missing");
        for t in self.themes.iter().filter(|t| t.lichess + t.koga > 0) {
            let _ =
                writeln!(out, "{:<20} {:>8} {:>8} {:>8} {:>8}", t.theme.name(), t.lichess, t.koga, t.extra, t.missing);
        }
        out
    }

    /// One line per theme, with a header.
    fn to_csv(&self) -> String {
        let mut out = "theme,lichess,koga,extra,missing\n".to_owned();
        for t in &self.themes {
            let _ = writeln!(out, "{},{},{},{},{}", t.theme.name(), t.lichess, t.koga, t.extra, t.missing);
        }
        out
    }

    /// The report as JSON, the share included.
    fn to_json(&self) -> String {
        #[derive(Serialize)]
        struct Json<'a> {
            share: Option<f64>,
            #[serde(flatten)]
            report: &'a ExactReport,
        }
        serde_json::to_string_pretty(&Json { share: self.share(), report: self }).expect("plain data")
    }
}

#[cfg(test)]
mod tests {
    use super::super::Render;
    use super::*;

    #[test]
    fn compares_tagged_rows_over_the_emitted_themes() {
        let mut tally = ExactTally::new(true);
        let names = |s: &'static str| Some(s.split(' '));
        // `crushing` is not emitted by the tagger's board rules: ignored.
        tally.add("a", "crushing fork short middlegame", names("fork short middlegame"));
        tally.add("b", "fork short middlegame", names("short middlegame"));
        tally.add("c", "short middlegame", names("pin short middlegame"));
        // Untagged (no length theme) and error rows are not compared.
        tally.add("d", "fork", names("fork"));
        tally.add("e", "fork short", None::<std::str::Split<char>>);
        let report = tally.finish();
        assert_eq!((report.rows, report.tagged, report.equal), (5, 3, 1));
        let fork = *report.themes.iter().find(|t| t.theme == Theme::Fork).unwrap();
        assert_eq!((fork.lichess, fork.koga, fork.extra, fork.missing), (2, 1, 0, 1));
        let causes: Vec<(&str, &str, u64, Vec<String>)> =
            report.causes.iter().map(|c| (c.kind, c.theme.name(), c.rows, c.examples.clone())).collect();
        assert_eq!(causes, [("missing", "fork", 1, vec!["b".to_owned()]), ("extra", "pin", 1, vec!["c".to_owned()])]);
        assert!(report.to_text().contains("equals `Themes` on 1 (33.33 %)"), "{}", report.to_text());
        // No row judged by the engine: its themes are not in the report.
        assert_eq!(report.engine_rows, 0);
        assert!(report.themes.iter().all(|t| !t.theme.from_engine()));
        assert!(!report.to_csv().contains("crushing") && !report.to_json().contains("crushing"));
    }

    #[test]
    fn the_engines_themes_count_on_the_rows_it_judged() {
        let mut tally = ExactTally::new(true);
        let names = |s: &'static str| Some(s.split(' '));
        tally.add_judged("a", "crushing fork short", names("crushing fork short"), true);
        tally.add_judged("b", "advantage fork short", names("crushing fork short"), true);
        // Not judged (the engine failed on it): its crushing is not a miss.
        tally.add_judged("c", "crushing fork short", names("fork short"), false);
        let report = tally.finish();
        assert_eq!((report.tagged, report.equal, report.engine_rows), (3, 2, 2));
        let counts = |theme| *report.themes.iter().find(|t| t.theme == theme).unwrap();
        let crushing = counts(Theme::Crushing);
        assert_eq!((crushing.lichess, crushing.koga, crushing.extra, crushing.missing), (1, 2, 1, 0));
        assert_eq!(counts(Theme::Advantage).missing, 1);
        let causes: Vec<(&str, &str)> = report.causes.iter().map(|c| (c.kind, c.theme.name())).collect();
        assert_eq!(causes, [("missing", "advantage"), ("extra", "crushing")]);
        assert!(report.to_text().contains("on the 2 rows the engine judged"), "{}", report.to_text());
    }
}
