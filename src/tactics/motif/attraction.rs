//! # attraction
//!
//! How Koga decides:
//! - Our move goes to a square, and the opponent's answer brings its king,
//!   queen or rook onto that square (taking what we put there, as a rule).
//! - Our next move attacks the lured piece on that square with the piece
//!   that moves.
//! - A lured king is then in check: that is the point. A lured queen or rook
//!   is captured on that square by our move after next.
//! - The lure is needed: with the lured piece put back where it came from
//!   (all else as played), our next move must fail or do less — be
//!   illegal, mate or check only as played, leave the opponent fewer
//!   replies as played, or be a move the piece at home would attack; for a
//!   lured queen or rook, our attacker must miss it at home or win less
//!   there (static exchange) than on the lure square. A sacrifice that only
//!   opens a file or removes a guard, whose follow-up works as well with
//!   the piece at home, is no attraction (Lichess 07lMF: Qxh7+ Kxh7 Rh4+,
//!   mate with the king on h8 all the same).
//! - It fires on the luring move.
//! - Roles: `moved` (the square the piece is lured to), `targets` (the lured
//!   piece, there), `attacker` (our piece that then attacks it).
//!
//! Koga and Lichess:
//! - Lichess 703, Koga 579, both 579: precision 1.000, recall 0.824, F1 0.903.
//!   With Lichess's own rule it was 703 and F1 1.000: 124 lures the follow-up
//!   does not need are left out (708 fires, now 584). Lichess's exact tag is
//!   in `themes`.
//!
//! Judged by hand:
//! - Before this rule, 16 of 20 random dev fires (seed 24, each checked by
//!   Stockfish with the lured piece put back) needed the lure. After, 19 of
//!   20 (seed 2026): 06T6r ...Rg2+ Kxg2 Qxe2+ deflects the king from e2 more
//!   than it draws it to g2.

use shakmaty::{uci::UciMove, Bitboard, CastlingMode, Chess, EnPassantMode, FromSetup, Position, Role};

use crate::board::{attackers, attacks_from, see, value};
use crate::facts::PlyFacts;
use crate::line::Cursor;
use crate::tactics::{Detector, Fire, Label, Roles, Run};

pub const DETECTOR: Detector = Detector { labels: &[Label::Attraction], run: Run::Move(detect) };

pub fn detect(facts: &PlyFacts, fires: &mut Vec<Fire>) {
    let (Some(reply), Some(follow)) = (facts.at.reply(), facts.at.next_own()) else { return };
    let square = facts.to;
    if reply.mv().to() != square {
        return;
    }
    let lured = reply.after().board().role_at(square);
    if !matches!(lured, Some(Role::King | Role::Queen | Role::Rook)) {
        return;
    }
    let board = follow.after().board();
    let attacker = follow.mv().to();
    if !attackers(board, square, facts.us, board.occupied()).contains(attacker) {
        return;
    }
    let cashed = lured == Some(Role::King) || follow.next_own().is_some_and(|p| p.mv().to() == square);
    if cashed && lure_needed(reply, follow) {
        let roles = Roles {
            moved: Some(square),
            targets: Bitboard::from_square(square),
            attacker: Some(attacker),
            ..Roles::default()
        };
        fires.push(Fire::at(facts, Label::Attraction).with_roles(roles));
    }
}

/// Our follow-up fails or does less with the lured piece back on the
/// square it came from, everything else as played.
fn lure_needed(reply: Cursor, follow: Cursor) -> bool {
    let (Some(home), lure) = (reply.mv().from(), reply.mv().to()) else { return true };
    let played = reply.after();
    let Some(lured) = played.board().piece_at(lure) else { return true };
    let mut setup = played.to_setup(EnPassantMode::Legal);
    let _ = setup.board.remove_piece_at(lure);
    setup.board.set_piece_at(home, lured);
    let Ok(unlured) = Chess::from_setup(setup, CastlingMode::Standard) else { return true };
    let uci = UciMove::from_standard(follow.mv());
    let Ok(same) = uci.to_move(&unlured) else { return true };
    if attacks_from(unlured.board(), home).contains(same.to()) {
        return true;
    }
    let mut at_home = unlured.clone();
    at_home.play_unchecked(same);
    let as_played = follow.after();
    if (as_played.is_check() && !at_home.is_check()) || (follow.mates() && !at_home.is_checkmate()) {
        return true;
    }
    let attacker = same.to();
    if lured.role != Role::King {
        if !attacks_from(at_home.board(), attacker).contains(home) {
            return true;
        }
        let worth = value(lured.role);
        if see(at_home.board(), attacker, home, worth) < see(as_played.board(), attacker, lure, worth) {
            return true;
        }
    }
    // Counting replies costs most: it comes last.
    as_played.legal_moves().len() < at_home.legal_moves().len()
}

#[cfg(test)]
mod tests {
    use crate::tactics::testing::{assert_fires, assert_silent};

    #[test]
    fn real_puzzles() {
        assert_fires(
            "attraction",
            &[
                // Qh7+ Kxh7 g8=Q+: the king is drawn to h7.
                ("001w5", "1rb2rk1/q5P1/4p2p/3p3p/3P1P2/2P5/2QK3P/3R2R1 b - - 0 29", "f8f7 c2h7 g8h7 g7g8q", 1),
                // Qxf7+ draws the king to f7 for Rd7+.
                ("00TJN", "r3r1k1/pp3pB1/2q3pp/3R1b2/8/P4Q2/BP3PPP/1R4K1 b - - 0 23", "f5b1 f3f7 g8f7 d5d7", 1),
                // Lichess 05hh9: ...Qxd4 draws the queen to d4 for the ...Nc2+ fork.
                (
                    "05hh9",
                    "r1b1kr2/3p3p/pq4p1/1p6/1n1NP3/1P2Q3/P2N1P1P/R3K2R w KQq - 7 18",
                    "a2a3 b6d4 e3d4 b4c2 e1e2 c2d4",
                    1,
                ),
                // Lichess 02TAY: ...Rxe5 draws the rook to e5 for the ...Nd3+ fork.
                ("02TAY", "4r1k1/5pp1/pp5p/2nRB3/8/2P2P2/PP4PP/6K1 w - - 0 30", "g1f2 e8e5 d5e5 c5d3 f2e3 d3e5", 1),
                // Rh8+ draws the king to h8 for Qh7#.
                ("00Ueq", "r1b2rk1/pp4b1/n1pqp1Q1/4p3/2P2PP1/P2B4/1P6/R1B1K2R b KQ - 1 19", "f8f6 h1h8 g8h8 g6h7", 1),
            ],
        );
        assert_silent(
            "attraction",
            &[
                // Lichess 07lMF: Qxh7+ Kxh7 Rh4+ opens the h-file; the mate works
                // with the king on h8 as well.
                ("07lMF", "4rnrk/pp3p1p/2pq1PpQ/3p2P1/3P1R2/2N4P/PPP5/3R2K1 b - - 3 27", "f8e6 h6h7 h8h7 f4h4", 1),
                // Lichess 045Dp: ...Rxh2+ opens the h-file for ...Qh8+.
                (
                    "045Dp",
                    "1k1q3r/pp6/2p2p2/8/2P2p2/1P2b3/P1Q1R1PP/5R1K w - - 3 28",
                    "f1d1 h8h2 h1h2 d8h8 c2h7 h8h7",
                    1,
                ),
                // ...Qa1#: a mate in one, no lure.
                ("02pdl", "3r1rk1/5p1p/2p2R2/4q1P1/p3p3/P2BQ3/2P3P1/2KR4 w - - 1 27", "d3e4 e5a1", 1),
                // ...Qxe1#: a mate in one, no lure.
                ("0AFf5", "1r2kb1r/1p2q2p/p1p3p1/1P1pBp2/P1P5/1Q1P1B2/3P1PPP/RN2R1K1 w k - 1 18", "e5b8 e7e1", 1),
            ],
        );
    }
}
