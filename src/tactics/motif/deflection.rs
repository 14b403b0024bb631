//! # deflection
//!
//! How Koga decides (Lichess's idea of the theme):
//! - Our move forces an enemy piece away: the opponent's answer captures on
//!   the square our move went to, or our move gives check. Our move is not a
//!   plain capture of something worth more (as Lichess counts it: the
//!   captured value must stay below the number of the moving piece's kind,
//!   pawn 1 to king 6).
//! - Before its answer, the deflected piece guarded a square; after the
//!   answer it no longer does. Our next move lands on that square and
//!   captures there (nothing worth more than the capturing piece, a king
//!   counted highest) or promotes there (a pawn may also promote on the
//!   guarded piece's file, where it stood in the way).
//! - That square is neither where the deflected piece went nor where our
//!   first move landed.
//! - It fires on the forcing move. A hangingPiece on the same move outranks
//!   a bare deflection (seed 002, spec §4, arbitration): one that goes on
//!   to take the piece the hanging capture takes, or one worth no more; a
//!   deflection that wins a bigger piece stays beside it.
//! - Roles: `defender` (the deflected piece, where it stood before our
//!   move), `victim` (the enemy piece we then take, where it stood; none
//!   when we cash in by promoting on an empty square), `moved`.
//!
//! Koga and Lichess:
//! - Lichess 804, Koga 799, both 798: precision 0.999, recall 0.993, F1
//!   0.996 (812 dev fires). While every hangingPiece on the move removed
//!   it: Koga 778, both 777, F1 0.982 (785 fires). Koga's earlier rule (any
//!   forcing move whose deflected guard let us win or mate next) gave Koga
//!   1,145, both 759, F1 0.779.
//!
//! Judged by hand:
//! - 19 of 20 random dev fires (seed 7) are the tactic. Miss: 01bFi, a skewer:
//!   the checked king steps off the line and the piece behind falls; nothing is
//!   lured (29 dev fires have that shape, Lichess tags them deflection too).
//! - The 27 deflections kept beside a hanging piece that wins less: 10 read
//!   (seed 4), 10 are the tactic (02CA5 ...Qxc3+ Qd2 Qxa1+, 0BpJL ...Rxd5+
//!   Kf4 Kxe6, 04F28, 09EXc, 00nh0: a capture with check pulls the guard off
//!   a bigger piece; 08sjm, 00yDE: off the mating square).
//! - The victim's square still guarded by another piece after the answer
//!   (81 of 785 dev fires, 37 with our capture taken back at once): 10 read
//!   (seed 2), all deflections a coach names: the guards fall one short
//!   (02Fby ...Bxg2+ Kxg2 Rxe1, 02n4I, 05vT9, 07IND), or a pawn
//!   breakthrough (00ziz d6 cxd6 cxb6). Kept.
//! - Issue 34, after its fixes (20 random dev fires, seed 42): strict 20, lenient 20 (1.00 / 1.00),
//!   defender and victim right in all 20: 16 checks, captures or sacrifices that pull a guard
//!   off (00g5H Rd8+ Rxd8 Qxc4, 09GVA ...Rh1+ Kxh1 Rxf1#), 3 pawn levers (05DRj b4 cxb4 Kxd4,
//!   00uKb, 03uwb), a king driven off the promotion square (079JT g7+ Ke7 g8=Q+).

use shakmaty::{Move, Position, Role};

use crate::board::{attacks_from, value, value_at};
use crate::facts::PlyFacts;
use crate::tactics::{Detector, Fire, Label, Roles, Run};

pub const DETECTOR: Detector = Detector { labels: &[Label::Deflection], run: Run::Move(detect) };

/// Lichess's piece numbers (pawn 1 … king 6), against which it compares
/// values here.
fn kind_number(role: Role) -> i32 {
    role as i32
}

pub fn detect(facts: &PlyFacts, fires: &mut Vec<Fire>) {
    let (Some(reply_ply), Some(cash_ply)) = (facts.at.reply(), facts.at.next_own()) else { return };
    let (reply, cash) = (reply_ply.mv(), cash_ply.mv());
    if matches!(reply, Move::Castle { .. }) {
        return;
    }
    let square = cash.to();
    match cash.capture() {
        Some(taken) if value(taken) > value_at(cash_ply.after().board(), square) => return,
        None if !cash.is_promotion() => return,
        _ => {}
    }
    if let Some((_, taken)) = facts.captured {
        if value(taken) >= kind_number(facts.moved_role) {
            return;
        }
    }
    let (Some(from), to) = (reply.from(), reply.to()) else { return };
    if square == to || square == facts.to || !(to == facts.to || facts.gives_check()) {
        return;
    }
    let guarded_before = attacks_from(facts.after.board(), from);
    let guarded = guarded_before.contains(square)
        || (cash.is_promotion()
            && square.file() == from.file()
            && cash.from().is_some_and(|f| guarded_before.contains(f)));
    if !guarded || attacks_from(reply_ply.after().board(), to).contains(square) {
        return;
    }
    // The victim is the enemy piece we take there (none for a promotion on
    // an empty square); the defender is named where it stood before our move.
    let victim = cash.is_capture().then_some(square).filter(|&sq| facts.after.board().color_at(sq) == Some(facts.them));
    let roles = Roles { defender: Some(from), victim, moved: Some(facts.to), ..Roles::default() };
    fires.push(Fire::at(facts, Label::Deflection).with_roles(roles));
}

#[cfg(test)]
mod tests {
    use crate::tactics::testing::{assert_fires, assert_silent};

    #[test]
    fn real_deflections() {
        assert_fires(
            "deflection",
            &[
                (
                    "001h8",
                    "2r3k1/2r4p/4p1p1/1p1q1pP1/p1bP1P1Q/P6R/5B2/2R3K1 b - - 5 34",
                    "c4e2 h4h7 c7h7 c1c8 g8g7 c8c7",
                    1,
                ),
                ("003IM", "8/5kp1/p3pb2/8/6Pp/1P4qP/P2RQ3/7K w - - 2 34", "e2g2 g3e1 g2g1 e1d2", 1),
                ("004LZ", "8/7R/5p2/p7/7P/2p5/3k2r1/1K2N3 w - - 3 48", "e1g2 c3c2 b1a2 c2c1q h7d7 d2e2", 1),
                ("002Mm", "rn1qr1k1/ppp3pQ/3p1pP1/3Pp3/2P1P3/8/PP3PP1/R1B1K3 b Q - 2 16", "g8f8 h7h8 f8e7 h8g7", 1),
                // Lichess 02CA5: ...Qxc3+ takes a hanging pawn and deflects
                // the d1 queen from the a1 rook: more than the pawn, so the
                // deflection stays beside the hanging piece.
                (
                    "02CA5",
                    "rnb1k2r/pp1p1ppp/2p2n2/q2Pp1B1/2P5/2P5/P3PPPP/R2QKBNR w KQkq - 1 7",
                    "g5f6 a5c3 d1d2 c3a1",
                    1,
                ),
                // Lichess 0BpJL: ...Rxd5+ takes a pawn and pulls the king off the e6 rook.
                ("0BpJL", "8/3k4/4R3/3P1p2/4pK2/3r4/8/8 w - - 6 68", "f4f5 d3d5 f5f4 d7e6", 1),
            ],
        );
    }

    #[test]
    fn not_deflections() {
        assert_silent(
            "deflection",
            &[
                // A hanging piece outranks a bare deflection (golden hp-with-fork).
                ("constructed", "8/p1r1kppp/8/3b4/8/2N5/PP3PPP/6K1 b - - 0 30", "h7h6 c3d5 e7e8 d5c7", 1),
                ("0000D", "5rk1/1p3ppp/pq3b2/8/8/1P1Q1N2/P4PPP/3R2K1 w - - 2 27", "d3d6 f8d8 d6d8 f6d8", 1),
            ],
        );
    }
}
