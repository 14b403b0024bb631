//! `koga explain`: the line ply by ply, each move in SAN, and the fires on
//! it with their roles and gain — what a user checks a label against.

use std::fmt::Write;

use shakmaty::Position;

use crate::line::Line;
use crate::tactics::{classify_explained, puzzle_labels, Fire};

/// Renders the explanation of one line as text.
pub fn explain(line: &Line) -> String {
    let classified = classify_explained(line);
    let fires = &classified.fires;
    let mut out = String::new();
    let _ = writeln!(out, "FEN   {}", line.fen_before(0));
    let _ = writeln!(out, "solver {:?}, key move at ply {}", line.solver(), line.key_ply);
    for at in (0..line.plies()).map(|ply| line.at(ply)) {
        let ply = at.index();
        let who = if !at.is_solver() {
            "opponent"
        } else if at.is_key() {
            "key move"
        } else {
            "follow-up"
        };
        let mover = at.before().turn();
        let _ = writeln!(
            out,
            "ply {ply:>2}  {:<8} {:<6} ({who}, {mover:?})",
            line.san(ply).to_string(),
            line.uci(ply).to_string()
        );
        for fire in fires.iter().filter(|f| f.ply as usize == ply) {
            let _ = writeln!(out, "          + {}", describe(fire));
        }
        for removed in classified.removed.iter().filter(|r| r.fire.ply as usize == ply) {
            let _ = writeln!(
                out,
                "          - {} (gives way to {}: {})",
                describe(&removed.fire),
                removed.by.name(),
                removed.rule
            );
        }
    }
    if fires.iter().any(|f| f.gain.is_some()) {
        write_material(&mut out, line);
        write_spans(&mut out, line, fires);
    }
    let labels: Vec<&str> = puzzle_labels(line).iter().map(|l| l.name()).collect();
    let _ = writeln!(out, "puzzle labels: {}", labels.join(" "));
    if let Some(themes) = crate::lichess::themes(line) {
        let themes: Vec<String> = themes
            .iter()
            .map(|t| match t.ply {
                Some(ply) => format!("{}@{ply}", t.theme.name()),
                None => t.theme.name().to_owned(),
            })
            .collect();
        let _ = writeln!(out, "Lichess's themes (its rules, theme@ply): {}", themes.join(" "));
    }
    out
}

/// Which plies each gain reads the material of, fires that read the same
/// plies on one line: from before the first to after the last, and what the
/// capture search finds after it where it searched there; a gain no capture
/// collected is the detector's stake, and one whose man only a later
/// sacrifice takes is 0.
fn write_spans(out: &mut String, line: &Line, fires: &[Fire]) {
    let mut spans: Vec<(String, Vec<String>)> = Vec::new();
    for fire in fires.iter().filter(|f| f.gain.is_some()) {
        let reads = match fire.span {
            Some(span) => {
                let search = match span.searched {
                    true if usize::from(span.through) + 1 == line.plies() => ", and after the line",
                    true => ", and the capture search after it",
                    false => "",
                };
                match span.through - span.from {
                    0 => format!("the material over ply {}{search}", span.from),
                    _ => format!("the material over plies {} to {}{search}", span.from, span.through),
                }
            }
            None if fire.gain == fire.stake => "the detector's stake, which no capture collected".to_owned(),
            // A man only a later sacrifice takes: the loss is the sacrifice's.
            None => "nothing of its own, its man taken by a later sacrifice".to_owned(),
        };
        let name = format!("{}@{}", fire.label.name(), fire.ply);
        match spans.iter_mut().find(|(r, _)| *r == reads) {
            Some((_, names)) => names.push(name),
            None => spans.push((reads, vec![name])),
        }
    }
    let _ = writeln!(out, "what each gain reads:");
    for (reads, names) in spans {
        let _ = writeln!(out, "  {reads}: {}", names.join(" "));
    }
}

/// What a `gain` is read from: the material after each ply, the solver's
/// minus the opponent's, and what the side to move still nets where the
/// line ends (the search `gain` finishes an exchange with there).
fn write_material(out: &mut String, line: &Line) {
    let solver = line.solver();
    let balances = crate::facts::balances(line);
    let after: Vec<String> =
        balances[1..].iter().map(|&b| if b == 0 { "0".to_owned() } else { format!("{b:+}") }).collect();
    let _ = writeln!(out, "material, {solver:?}'s minus {:?}'s, after each ply: {}", !solver, after.join(" "));
    if let Some((side, nets)) = crate::net::at_the_lines_end(line) {
        let what = match nets {
            0 => "nets nothing more".to_owned(),
            n if n > 0 => format!("still nets {n}"),
            n => format!("loses {} more", -n),
        };
        let _ = writeln!(out, "after the line {side:?}, to move, {what} (by the capture search of `gain`)");
    }
}

/// One fire as `label gain=… role=square … roles=square,square …`: every
/// square of every role, a set role's in colour-relative order.
pub fn describe(fire: &Fire) -> String {
    let mut text = fire.label.name().to_owned();
    if let Some(gain) = fire.gain {
        let _ = write!(text, " gain={gain}");
    }
    if let Some(ply) = fire.collects {
        let _ = write!(text, " collects={ply}");
    }
    for (role, _) in fire.roles.filled() {
        let squares: Vec<String> = fire.squares(role).map(|sq| sq.to_string()).collect();
        let _ = write!(text, " {}={}", role.name(), squares.join(","));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::line::LineForm;

    #[test]
    fn explains_a_mate_in_two() {
        let fen = "4r3/1k6/pp3r2/1b2P2p/3R1p2/P1R2P2/1P4PP/6K1 w - - 0 35";
        let line = Line::parse(fen, "e5f6 e8e1 g1f2 e1f1", LineForm::Puzzle).unwrap();
        let text = explain(&line);
        assert!(text.contains("ply  1  Re1+"), "{text}");
        assert!(text.contains("+ mateIn2 mated=f2"), "{text}");
        assert!(text.contains("Lichess's themes (its rules, theme@ply): endgame mate@3 mateIn2@1 short"), "{text}");
        assert!(text.contains("ply  3  Rf1#"), "{text}");
        assert!(text.contains("+ mate moved=f1 mated=f2"), "{text}");
        assert!(text.contains("puzzle labels: short"), "{text}");
        // A line that mates nets nothing: no material to read a gain from.
        assert!(!text.contains("material,"), "{text}");
    }

    #[test]
    fn shows_what_arbitration_removed() {
        // The pinned-defender capture absorbs the plain pin on d5.
        let line =
            Line::parse("6k1/p2r1ppp/2Nq4/3P4/3Q4/8/PP3PPP/6K1 w - - 0 30", "h2h3 d6c6", LineForm::Puzzle).unwrap();
        let text = explain(&line);
        assert!(text.contains("+ pinnedDefender gain=3 victim=c6 defender=d5 pinner=d7 pinned=d5 behind=d4"), "{text}");
        assert!(text.contains("- pin pinner=d7 pinned=d5 behind=d4 attacker=d7 moved=c6 targets=d5"), "{text}");
        assert!(text.contains("gives way to pinnedDefender"), "{text}");
    }

    #[test]
    fn names_every_square_of_a_set_role() {
        // Lichess 000Pw: ...Ne2+ forks the king on g1 and the queen on c3.
        let line =
            Line::parse("6k1/5p1p/4p3/4q3/3nN3/2Q3P1/PP3P1P/6K1 w - - 2 37", "e4d2 d4e2 g1f1 e2c3", LineForm::Puzzle)
                .unwrap();
        let text = explain(&line);
        // The queen (9) for the knight bxc3 takes back, and Qxc3 then wins
        // the pawn: the fork nets 7, which the material and the line's end
        // show: +7 after the line, -2 before the fork, 2 still to White.
        assert!(text.contains("+ fork gain=7 victim=c3 attacker=e2 targets=c3,g1"), "{text}");
        assert!(text.contains("material, Black's minus White's, after each ply: -2 -2 -2 +7\n"), "{text}");
        assert!(
            text.contains("after the line White, to move, still nets 2 (by the capture search of `gain`)"),
            "{text}"
        );
        // Which plies each gain reads: the fork and the discovery from
        // before ply 1 to the line's end, the payoff from before its own
        // capture.
        assert!(
            text.contains("\n  the material over plies 1 to 3, and after the line: discoveredAttack@1 fork@1\n"),
            "{text}"
        );
        assert!(text.contains("\n  the material over ply 3, and after the line: insufficientlyDefended@3\n"), "{text}");
    }

    #[test]
    fn the_lines_end_is_what_captures_alone_net() {
        let says = |fen: &str, moves: &str, end: &str| {
            let text = explain(&Line::parse(fen, moves, LineForm::Puzzle).unwrap());
            assert!(text.contains(&format!("\nafter the line {end} (by the capture search of `gain`)\n")), "{text}");
        };
        // Lichess 0240A: ...Bxg4 ends the line; White, to move, takes
        // nothing (the d7 pawn the bishop now hits takes a quiet move).
        says(
            "3b4/3P1k2/2pB4/1p1b2p1/2pK2B1/2P5/P4P2/8 w - - 2 47",
            "d4e5 d8f6 e5f5 d5e6 f5e4 e6g4",
            "White, to move, nets nothing more",
        );
        // 04Ov0: ...Bxc4 takes the knight back (Qc6+ would fork the king
        // and the b6 pawn: a quiet check, no part of it).
        says(
            "6k1/6pp/1p6/1b6/3pQ1N1/7P/5PPK/5q2 b - - 0 36",
            "f1c4 e4a8 g8f7 g4e5 f7f6 e5c4",
            "Black, to move, still nets 3",
        );
    }

    /// Whether `explain` on a puzzle line says of one span what `reads` says.
    fn reads(fen: &str, moves: &str, reads: &str) -> bool {
        let text = explain(&Line::parse(fen, moves, LineForm::Puzzle).unwrap());
        text.contains(&format!("\n  {reads}\n"))
    }

    #[test]
    fn shows_which_plies_each_gain_reads() {
        // Lichess 07PSG: ...Nxh5 takes the queen, and the exchange ends
        // there: the line's later trade and its end are no part of it.
        let fen = "1rkq4/pbp1b2r/1p1p1n1p/4pN2/4Pp2/1BNP4/PPP1QPPP/R3K2R w KQ - 0 20";
        assert!(reads(fen, "e2h5 f6h5 b3e6 d8d7 f5e7 h7e7", "the material over ply 1: hangingPiece@1"));
        // Lichess 0CWD7: Bg4 gives the queen and unmasks the h2 queen on
        // d2; the sacrifice reads its move and the answer.
        let (fen, moves) = ("r4rk1/7p/4bPp1/p2p4/1p2p3/8/PPPqB2Q/1K3R1R b - - 1 30", "a8a7 e2g4 d2h2 g4e6 g8h8 h1h2");
        assert!(reads(fen, moves, "the material over plies 1 to 2: sacrifice@1"));
        assert!(reads(fen, moves, "the material over plies 1 to 5, and after the line: discoveredAttack@1"));
        // Lichess 00EgR: the a8 knight is trapped as the line ends, and no
        // capture takes it: the gain is the detector's stake.
        let fen = "N2k3r/1b1n1Bpp/p7/1pb1P3/6P1/4p3/PPP4P/1K1R3R w - - 1 20";
        assert!(reads(
            fen,
            "e5e6 b7h1 d1d7 d8c8 d7c7 c8b8",
            "the detector's stake, which no capture collected: trappedPiece@5"
        ));
        // Lichess 059XJ: Qd8+ forks the f6 knight, which only Qxf6+, a
        // sacrifice, takes: the fork nets nothing of its own.
        let (fen, moves) =
            ("6k1/5p1p/4pnp1/ppq1N3/5P2/2P4P/PP4PK/3Q4 b - - 0 27", "c5f2 d1d8 g8g7 d8f6 g7f6 e5g4 f6f5 g4f2");
        assert!(reads(fen, moves, "nothing of its own, its man taken by a later sacrifice: fork@1"));
    }
}
