//! Writing a selection: PGN for people (each judged move commented with its
//! fires in words, and drawn with the `[%cal]` arrows and `[%csl]` squares
//! that Lichess studies and ChessBase read), the Lichess CSV's own columns
//! for tools, and JSON lines for scripts.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use shakmaty::{Bitboard, Board, Color, Position, Role, Square};

use super::Puzzle;
use crate::fire::Fire;
use crate::input::COLUMN_NAMES;
use crate::line::{Line, LineForm};
use crate::role::RoleName;

/// The formats a selection is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Pgn,
    Csv,
    Jsonl,
}

/// Writes `puzzles` in `format` (a CSV header first). In PGN,
/// `lichess_user` is the solver's name (see [`pgn`]).
pub fn write(out: &mut dyn Write, format: Format, puzzles: &[Puzzle], lichess_user: Option<&str>) -> io::Result<()> {
    match format {
        Format::Pgn => puzzles.iter().try_for_each(|p| out.write_all(pgn(p, lichess_user).as_bytes())),
        Format::Csv => {
            let mut csv = csv::Writer::from_writer(out);
            csv.write_record(COLUMN_NAMES)?;
            for p in puzzles {
                csv.write_record(csv_record(p))?;
            }
            csv.flush()
        }
        Format::Jsonl => puzzles.iter().try_for_each(|p| writeln!(out, "{}", jsonl(p))),
    }
}

/// Writes `puzzles` to `path`, or with `split` to files of at most that many
/// puzzles named after it (`set.pgn` → `set-001.pgn`, `set-002.pgn`, …);
/// returns what was written, for the summary line.
pub fn write_files(
    path: &Path,
    format: Format,
    puzzles: &[Puzzle],
    split: Option<u64>,
    lichess_user: Option<&str>,
) -> io::Result<String> {
    let create = |path: &Path, puzzles: &[Puzzle]| -> io::Result<()> {
        let named = |e: io::Error| io::Error::new(e.kind(), format!("cannot write {}: {e}", path.display()));
        let mut file = io::BufWriter::new(std::fs::File::create(path).map_err(named)?);
        write(&mut file, format, puzzles, lichess_user).map_err(named)?;
        file.flush().map_err(named)
    };
    let Some(size) = split else {
        create(path, puzzles)?;
        return Ok(path.display().to_string());
    };
    let (stem, extension) = split_name(path);
    let chunks: Vec<&[Puzzle]> = puzzles.chunks(size as usize).collect();
    let names: Vec<PathBuf> =
        (1..=chunks.len().max(1)).map(|n| path.with_file_name(format!("{stem}-{n:03}{extension}"))).collect();
    for (name, chunk) in names.iter().zip(chunks.iter().copied().chain(std::iter::once(&[][..])).take(names.len())) {
        create(name, chunk)?;
    }
    Ok(match names.as_slice() {
        [one] => one.display().to_string(),
        [first, .., last] => format!("{} … {} ({} files)", first.display(), last.display(), names.len()),
        [] => unreachable!("at least one file"),
    })
}

/// The stem and extension split files are named with (`set.pgn`: `set`, `.pgn`).
fn split_name(path: &Path) -> (String, String) {
    let stem = path.file_stem().map_or_else(|| "selection".into(), |s| s.to_string_lossy().into_owned());
    let extension = path.extension().map(|e| format!(".{}", e.to_string_lossy())).unwrap_or_default();
    (stem, extension)
}

/// Checks, before any work, that the selection can be written to `path`
/// (with `split`, to the files named after it): its directory exists, and
/// no file would be written over unless `force`.
pub fn check_destination(path: &Path, split: Option<u64>, force: bool) -> Result<(), String> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        return Err(format!("cannot write {}: no directory {}", path.display(), dir.display()));
    }
    if force {
        return Ok(());
    }
    let existing: Vec<PathBuf> = match split {
        None => [path.to_owned()].into_iter().filter(|p| p.exists()).collect(),
        Some(_) => {
            let (stem, extension) = split_name(path);
            let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
                .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                    name.strip_prefix(&format!("{stem}-"))
                        .and_then(|rest| rest.strip_suffix(&extension))
                        .is_some_and(|n| n.len() >= 3 && n.bytes().all(|b| b.is_ascii_digit()))
                })
                .collect();
            found.sort();
            found
        }
    };
    match existing.as_slice() {
        [] => Ok(()),
        [one] => Err(format!("{} already exists; nothing was written: pass --force to replace it", one.display())),
        [first, ..] => Err(format!(
            "{} and {} more files of an earlier selection already exist; nothing was written: pass --force to \
             replace them",
            first.display(),
            existing.len() - 1
        )),
    }
}

fn csv_record(p: &Puzzle) -> [String; 10] {
    let number = |n: Option<i32>| n.map_or(String::new(), |n| n.to_string());
    let text = |t: &Option<String>| t.clone().unwrap_or_default();
    [
        p.id.clone(),
        p.fen.clone(),
        p.moves.clone(),
        number(p.numbers.rating),
        number(p.numbers.rating_deviation),
        number(p.numbers.popularity),
        number(p.numbers.nb_plays),
        text(&p.themes),
        text(&p.game_url),
        text(&p.opening_tags),
    ]
}

/// One puzzle as a JSON object: the `puzzles.parquet` columns it has, and
/// its fires as `fires.parquet` holds them.
pub fn jsonl(p: &Puzzle) -> serde_json::Value {
    use serde_json::{json, Map, Value};
    fn words(t: &Option<String>) -> Option<Vec<&str>> {
        t.as_ref().map(|t| t.split_ascii_whitespace().collect())
    }
    let fires: Vec<Value> = p
        .analysis
        .fires
        .iter()
        .zip(&p.analysis.fire_moves)
        .map(|(f, (uci, san))| {
            let mut roles = Map::new();
            for (role, squares) in f.roles.filled() {
                let names: Vec<String> = f.squares(role).map(|s| s.to_string()).collect();
                let value = match role.arity() {
                    crate::Arity::One => json!(names[0]),
                    crate::Arity::Many => json!(names),
                };
                debug_assert!(squares.any());
                roles.insert(role.name().to_owned(), value);
            }
            json!({
                "ply": f.ply, "uci": uci.to_string(), "san": san.to_string(), "label": f.label.name(),
                "follow_up": f.follow_up, "gain": f.gain, "collects": f.collects, "roles": roles,
            })
        })
        .collect();
    let themes: Option<Vec<&str>> = p.analysis.themes.as_ref().map(|t| t.iter().map(|t| t.theme.name()).collect());
    json!({
        "puzzle_id": p.id, "fen": p.fen, "moves": p.moves, "rating": p.numbers.rating,
        "rating_deviation": p.numbers.rating_deviation, "popularity": p.numbers.popularity,
        "nb_plays": p.numbers.nb_plays,
        "lichess_themes": words(&p.themes), "game_url": p.game_url, "opening_tags": words(&p.opening_tags),
        "key_labels": p.key_labels().into_iter().map(|l| l.name()).collect::<Vec<_>>(), "themes": themes,
        "fires": fires,
    })
}

/// One puzzle as a PGN game: the line from the opponent's setup move, each
/// judged move with fires commented in words and drawn.
pub fn pgn(p: &Puzzle, lichess_user: Option<&str>) -> String {
    let Ok(line) = Line::parse(&p.fen, &p.moves, LineForm::Puzzle) else { return String::new() };
    let labels: Vec<&str> = p.key_labels().into_iter().map(|l| l.name()).collect();
    let site = p.game_url.clone().unwrap_or_else(|| format!("https://lichess.org/training/{}", p.id));
    // The solver is the side to move after the setup move. A Lichess study
    // opens a chapter imported from PGN from the side of the player tag
    // naming the importing user, before any other rule (lila's
    // `ChapterMaker.resolveOrientation`): name the solver's side so.
    let solver = !line.before(0).turn();
    let name = |side: Color| match lichess_user {
        Some(user) if side == solver => user.to_owned(),
        _ => "?".to_owned(),
    };
    let mut tags = vec![
        (
            "Event",
            format!("Puzzle {}: {}", p.id, if labels.is_empty() { "no label".into() } else { labels.join(", ") }),
        ),
        ("Site", site),
        ("Date", "????.??.??".into()),
        ("Round", "-".into()),
        ("White", name(Color::White)),
        ("Black", name(Color::Black)),
        ("Result", "*".into()),
        ("SetUp", "1".into()),
        ("FEN", p.fen.clone()),
        ("PuzzleId", p.id.clone()),
        // A study keeps only the tags it knows; it names the chapter after
        // `ChapterName`: the puzzle, its rating and its Lichess themes.
        ("ChapterName", chapter_name(p)),
        ("Annotator", "Koga".into()),
    ];
    if let Some(rating) = p.numbers.rating {
        tags.push(("PuzzleRating", rating.to_string()));
    }
    if let Some(themes) = &p.themes {
        tags.push(("PuzzleThemes", themes.clone()));
    }
    let mut text = String::new();
    for (name, value) in tags {
        text.push_str(&format!("[{name} \"{}\"]\n", value.replace('\\', "\\\\").replace('"', "\\\"")));
    }
    text.push('\n');

    let mut tokens = Vec::new();
    let first = line.before(0);
    let (mut number, mut turn) = (first.fullmoves().get(), first.turn());
    for ply in 0..line.plies() {
        let san = line.san(ply).to_string();
        match turn {
            Color::White => tokens.push(format!("{number}. {san}")),
            Color::Black if ply == 0 => tokens.push(format!("{number}... {san}")),
            Color::Black => tokens.push(san),
        }
        let fires: Vec<&Fire> = p.analysis.fires.iter().filter(|f| usize::from(f.ply) == ply).collect();
        if !fires.is_empty() {
            tokens.push(comment(&fires, line.before(ply).board(), line.after(ply).board()));
        }
        if turn == Color::Black {
            number += 1;
        }
        turn = !turn;
    }
    tokens.push("*".into());
    text.push_str(&wrap(&tokens, 79));
    text.push_str("\n\n");
    text
}

/// A study chapter's name: the puzzle id, its rating and Lichess themes,
/// within a chapter name's 100 characters.
fn chapter_name(p: &Puzzle) -> String {
    let mut name = p.id.clone();
    if let Some(rating) = p.numbers.rating {
        name.push_str(&format!(" · {rating}"));
    }
    if let Some(themes) = p.themes.as_deref().filter(|t| !t.trim().is_empty()) {
        name.push_str(" · ");
        for (i, theme) in themes.split_ascii_whitespace().enumerate() {
            if name.chars().count() + theme.len() + 2 > 100 {
                name.push_str(" …");
                break;
            }
            if i > 0 {
                name.push(' ');
            }
            name.push_str(theme);
        }
    }
    name
}

/// Tokens joined by spaces, in lines of at most `width` characters where a
/// token allows (PGN's export format).
fn wrap(tokens: &[String], width: usize) -> String {
    let mut out = String::new();
    let mut line_len = 0;
    for word in tokens.iter().flat_map(|t| t.split(' ')) {
        if line_len > 0 && line_len + 1 + word.len() > width {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(word);
        line_len += word.len();
    }
    out
}

/// The comment on a judged move: each fire in words, then its arrows and
/// squares.
fn comment(fires: &[&Fire], before: &Board, after: &Board) -> String {
    let mut arrows = Vec::new();
    let mut squares = Vec::new();
    let words: Vec<String> = fires.iter().map(|f| describe(f, before, after, &mut arrows, &mut squares)).collect();
    arrows.dedup();
    squares.retain(|s: &String| !arrows.iter().any(|a: &String| a[1..3] == s[1..] || a[3..] == s[1..]));
    let mut text = format!("{{{}.", words.join(". "));
    if !arrows.is_empty() {
        text.push_str(&format!(" [%cal {}]", arrows.join(",")));
    }
    if !squares.is_empty() {
        let mut unique = Vec::new();
        for s in squares {
            if !unique.contains(&s) {
                unique.push(s);
            }
        }
        text.push_str(&format!(" [%csl {}]", unique.join(",")));
    }
    text.push('}');
    text
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

/// "the knight on f7": the piece of `side` on `sq` after the move, or
/// before it where the move took it (a captured victim, a defender taken
/// off); a defender is named as it stood before.
fn piece(sq: Square, side: Color, before: &Board, after: &Board, before_first: bool) -> String {
    let boards = if before_first { [before, after] } else { [after, before] };
    let found =
        boards.iter().find(|b| b.color_at(sq) == Some(side)).or(boards.iter().find(|b| b.occupied().contains(sq)));
    match found.and_then(|b| b.role_at(sq)) {
        Some(role) => format!("the {} on {sq}", role_name(role)),
        None => format!("{sq}"),
    }
}

/// Whether a role names the solver's pieces (else the opponent's).
fn ours(role: RoleName) -> bool {
    matches!(
        role,
        RoleName::attacker
            | RoleName::pinner
            | RoleName::moved
            | RoleName::threatened
            | RoleName::checkers
            | RoleName::guards
    )
}

fn and_list(items: Vec<String>) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        n => format!("{} and {}", items[..n - 1].join(", "), items[n - 1]),
    }
}

/// One fire in words ("fork: the knight on f7 hits the queen on d8 and the
/// rook on h8; wins the queen on d8; nets 6"), adding its arrows and
/// squares.
fn describe(f: &Fire, before: &Board, after: &Board, arrows: &mut Vec<String>, squares: &mut Vec<String>) -> String {
    let one = |role: RoleName| f.squares(role).next();
    let many = |role: RoleName| f.squares(role).collect::<Vec<_>>();
    let name = |sq: Square, role: RoleName| {
        let side = if ours(role) { f.solver } else { !f.solver };
        piece(sq, side, before, after, role == RoleName::defender)
    };
    let names = |role: RoleName| and_list(many(role).into_iter().map(|sq| name(sq, role)).collect());
    let mut parts = Vec::new();
    let mut told = Bitboard::EMPTY;
    let mut tell = |role: RoleName| told |= f.roles.get(role);

    if let (Some(attacker), false) = (one(RoleName::attacker), many(RoleName::targets).is_empty()) {
        parts.push(format!("{} hits {}", name(attacker, RoleName::attacker), names(RoleName::targets)));
        arrows.extend(many(RoleName::targets).iter().map(|t| format!("R{attacker}{t}")));
        tell(RoleName::attacker);
        tell(RoleName::targets);
    }
    if let (Some(pinner), Some(pinned)) = (one(RoleName::pinner), one(RoleName::pinned)) {
        let behind = one(RoleName::behind).map(|b| format!(" to {}", name(b, RoleName::behind))).unwrap_or_default();
        parts.push(format!("{} pins {}{behind}", name(pinner, RoleName::pinner), name(pinned, RoleName::pinned)));
        arrows.push(format!("R{pinner}{}", one(RoleName::behind).unwrap_or(pinned)));
        tell(RoleName::pinner);
        tell(RoleName::pinned);
        tell(RoleName::behind);
    }
    if let Some(mated) = one(RoleName::mated) {
        parts.push(format!("mates {}", name(mated, RoleName::mated)));
        arrows.extend(many(RoleName::checkers).iter().map(|c| format!("R{c}{mated}")));
        tell(RoleName::mated);
        tell(RoleName::checkers);
    }
    if let Some(victim) = one(RoleName::victim) {
        parts.push(format!("wins {}", name(victim, RoleName::victim)));
        squares.push(format!("R{victim}"));
    }
    // The rest of the roles, by name, with their squares shaded.
    for (role, colour) in [
        (RoleName::defender, 'Y'),
        (RoleName::threatened, 'Y'),
        (RoleName::checkers, 'R'),
        (RoleName::guards, 'G'),
        (RoleName::blockers, 'B'),
        (RoleName::escapes, 'Y'),
        (RoleName::behind, 'Y'),
    ] {
        let shown: Vec<Square> = many(role).into_iter().filter(|sq| !told.contains(*sq)).collect();
        if shown.is_empty() {
            continue;
        }
        let words = if role == RoleName::escapes {
            and_list(shown.iter().map(|sq| sq.to_string()).collect())
        } else {
            and_list(shown.iter().map(|&sq| name(sq, role)).collect())
        };
        parts.push(format!("{}: {words}", role.name()));
        squares.extend(shown.iter().map(|sq| format!("{colour}{sq}")));
    }
    let mut text = f.label.name().to_owned();
    if !parts.is_empty() {
        text.push_str(": ");
        text.push_str(&parts.join("; "));
    }
    if let Some(gain) = f.gain.filter(|&g| g != 0) {
        text.push_str(&format!("; nets {gain}"));
    }
    if let Some(ply) = f.collects {
        text.push_str(&format!(" (collects the win of ply {ply})"));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::annotate::{analyse, Numbers};

    fn puzzle(id: &str, fen: &str, moves: &str) -> Puzzle {
        let line = Line::parse(fen, moves, LineForm::Puzzle).unwrap();
        Puzzle {
            row: 0,
            id: id.into(),
            fen: fen.into(),
            moves: moves.into(),
            numbers: Numbers { rating: Some(1500), ..Numbers::default() },
            themes: Some("fork short".into()),
            game_url: None,
            opening_tags: None,
            analysis: analyse(line),
        }
    }

    #[test]
    fn a_fork_reads_in_words_and_is_drawn() {
        // Lichess 000Pw: ...Ne2+ forks the king on g1 and the queen on c3.
        let p = puzzle("000Pw", "6k1/5p1p/4p3/4q3/3nN3/2Q3P1/PP3P1P/6K1 w - - 2 37", "e4d2 d4e2 g1f1 e2c3");
        let game = pgn(&p, None);
        let flat = game.replace('\n', " ");
        assert!(game.contains("[FEN \"6k1/5p1p/4p3/4q3/3nN3/2Q3P1/PP3P1P/6K1 w - - 2 37\"]"), "{game}");
        assert!(game.contains("[SetUp \"1\"]") && game.contains("[Event \"Puzzle 000Pw: "), "{game}");
        assert!(game.contains("37. Nd2 Ne2+ {"), "{game}");
        assert!(
            flat.contains(
                "fork: the knight on e2 hits the queen on c3 and the king on g1; wins the queen on c3; nets 7"
            ),
            "{game}"
        );
        assert!(flat.contains("Re2c3,Re2g1]"), "{game}");
        assert!(flat.contains("38. Kf1 Nxc3 {"), "{game}");
        assert!(game.trim_end().ends_with('*'), "{game}");
        assert!(game.lines().all(|l| l.len() <= 79 || l.starts_with('[')), "{game}");
    }

    #[test]
    fn the_solver_is_the_importing_user_and_the_chapter_names_rating_and_themes() {
        // White to move plays the setup move: Black solves.
        let p = puzzle("000Pw", "6k1/5p1p/4p3/4q3/3nN3/2Q3P1/PP3P1P/6K1 w - - 2 37", "e4d2 d4e2 g1f1 e2c3");
        let game = pgn(&p, Some("alice"));
        assert!(game.contains("[White \"?\"]\n[Black \"alice\"]"), "{game}");
        assert!(game.contains("[ChapterName \"000Pw · 1500 · fork short\"]"), "{game}");
        assert!(pgn(&p, None).contains("[White \"?\"]\n[Black \"?\"]"));
        // Black plays the setup move: White solves.
        let p = puzzle("001xl", "8/4R1k1/p5pp/3B4/5q2/8/5P1P/6K1 b - - 5 40", "g7f6 e7f7 f6e5 f7f4");
        assert!(pgn(&p, Some("bob")).contains("[White \"bob\"]\n[Black \"?\"]"));
    }

    #[test]
    fn black_to_move_first_numbers_its_move_with_dots() {
        let p = puzzle("001xl", "8/4R1k1/p5pp/3B4/5q2/8/5P1P/6K1 b - - 5 40", "g7f6 e7f7 f6e5 f7f4");
        assert!(pgn(&p, None).replace('\n', " ").contains("40... Kf6 41. Rf7+ {"), "{}", pgn(&p, None));
    }

    #[test]
    fn csv_rows_have_the_lichess_columns() {
        let p = puzzle("000Pw", "6k1/5p1p/4p3/4q3/3nN3/2Q3P1/PP3P1P/6K1 w - - 2 37", "e4d2 d4e2 g1f1 e2c3");
        let mut out = Vec::new();
        write(&mut out, Format::Csv, std::slice::from_ref(&p), None).unwrap();
        let text = String::from_utf8(out).unwrap();
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some(COLUMN_NAMES.join(",").as_str()));
        assert_eq!(
            lines.next(),
            Some("000Pw,6k1/5p1p/4p3/4q3/3nN3/2Q3P1/PP3P1P/6K1 w - - 2 37,e4d2 d4e2 g1f1 e2c3,1500,,,,fork short,,")
        );
    }

    #[test]
    fn json_lines_carry_the_fires_with_their_roles() {
        let p = puzzle("000Pw", "6k1/5p1p/4p3/4q3/3nN3/2Q3P1/PP3P1P/6K1 w - - 2 37", "e4d2 d4e2 g1f1 e2c3");
        let value = jsonl(&p);
        let fork = value["fires"].as_array().unwrap().iter().find(|f| f["label"] == "fork").unwrap();
        assert_eq!(fork["san"], "Ne2+");
        assert_eq!(fork["roles"]["targets"], serde_json::json!(["c3", "g1"]));
        assert_eq!(fork["roles"]["attacker"], "e2");
        assert_eq!(value["lichess_themes"], serde_json::json!(["fork", "short"]));
    }
}
