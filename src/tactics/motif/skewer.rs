//! # skewer
//!
//! How Koga decides (Lichess's idea of the theme):
//! - Our next move, by a rook, bishop or queen, captures an enemy piece (the
//!   piece behind) without mating, and the opponent's answer before it moved
//!   another piece (the front piece) off the line between our slider and
//!   that capture, elsewhere than onto the captured square.
//! - The front piece is worth more than the piece behind (a king most of
//!   all): it had to move, and it uncovered the cheaper piece.
//! - Before our capture, the piece behind stands badly: attacked, and
//!   undefended or attackable by a cheaper piece.
//! - It fires on our move before the capture (the move the front piece
//!   answered). Where that move is a forced recapture and our move before it
//!   brought the slider in with the line-up already standing (slider, front
//!   piece and piece behind in line, nothing else between), the skewer is
//!   that earlier move and fires there. The reverse order (more valuable
//!   piece behind) is a `pin`.
//! - Roles: `attacker` (our slider, where it stood), `targets` (the front
//!   piece, where it stood), `behind` and `victim` (the piece behind,
//!   collected). `gain` is what the skewer nets once the exchange is over:
//!   the queen behind the king, less the skewering rook taken back
//!   (`crate::net`).
//!
//! Koga and Lichess:
//! - Lichess 411, Koga 411, both 411: precision, recall and F1 1.000. Koga's
//!   earlier rule (a new line-up whose front piece must move and whose piece
//!   behind the line then collects) gave Koga 608, both 404, F1 0.793.
//!
//! Judged by hand:
//! - 20 of 20 random dev fires (seed 7) are the tactic, with the right slider,
//!   front piece and piece behind. The detector did not change after.
//! - Moving the fire to the line-up past a forced recapture moved 2 of 414 dev
//!   fires (00baa Be5, 066PI Ba4), each read: the skewer was that move.
//! - Issue 34, after its fixes (20 random dev fires, seed 42): strict 20, lenient 20 (1.00 / 1.00).
//!   Each names the right slider, front piece and piece behind.

use crate::board::{in_bad_spot, value, value_at};
use crate::facts::PlyFacts;
use crate::line::Cursor;
use crate::tactics::{Detector, Fire, Label, Roles, Run};
use shakmaty::{attacks, Bitboard, Position, Role, Square};

pub const DETECTOR: Detector = Detector { labels: &[Label::Skewer], run: Run::Move(detect) };

/// The skewer cashed by our move after `at`: (slider's square, front piece's
/// square, the capture square, the piece captured there).
fn cashed(at: Cursor) -> Option<(Square, Square, Square, Role)> {
    let (reply, next) = (at.reply()?, at.next_own()?);
    let (m, answer) = (next.mv(), reply.mv());
    let (captured, slider_from) = (m.capture()?, m.from()?);
    let slider = next.after().board().role_at(m.to());
    if !matches!(slider, Some(Role::Queen | Role::Rook | Role::Bishop)) || next.mates() {
        return None;
    }
    let front_from = answer.from()?;
    if answer.to() == m.to() || !attacks::between(slider_from, m.to()).contains(front_from) {
        return None;
    }
    if value_at(reply.after().board(), answer.to()) <= value(captured) || !in_bad_spot(next.before().board(), m.to()) {
        return None;
    }
    Some((slider_from, front_from, m.to(), captured))
}

/// `at` takes back on the square the opponent's last move captured on.
fn recaptures(at: Cursor) -> bool {
    at.mv().is_capture() && at.previous().is_some_and(|p| p.mv().is_capture() && p.mv().to() == at.mv().to())
}

/// After `arrival`, our slider on `slider`, the front piece on `front` and
/// the piece behind on `behind` already stood in line, each as it stands
/// before `cash` (the move the front piece answered).
fn lined_up_after(arrival: Cursor, cash: Cursor, (slider, front, behind): (Square, Square, Square)) -> bool {
    let (then, now) = (arrival.after().board(), cash.before().board());
    arrival.mv().to() == slider
        && [slider, front, behind]
            .iter()
            .all(|&sq| then.piece_at(sq).is_some() && then.piece_at(sq) == now.piece_at(sq))
        && (attacks::between(slider, behind) & then.occupied()) == Bitboard::from_square(front)
}

pub fn detect(facts: &PlyFacts, fires: &mut Vec<Fire>) {
    let at = facts.at;
    let found = match cashed(at) {
        // A forced recapture between: the skewer is the move that made the
        // line-up, our move before it, and fires there.
        Some((slider, front, to, _))
            if recaptures(at)
                && at
                    .previous()
                    .and_then(|p| p.previous())
                    .is_some_and(|arrival| lined_up_after(arrival, at, (slider, front, to))) =>
        {
            None
        }
        Some(found) => Some(found),
        None => at.next_own().filter(|&next| recaptures(next)).and_then(|next| {
            cashed(next).filter(|&(slider, front, to, _)| lined_up_after(at, next, (slider, front, to)))
        }),
    };
    let Some((slider_from, front_from, to, captured)) = found else { return };
    let roles = Roles {
        attacker: Some(slider_from),
        targets: Bitboard::from_square(front_from),
        behind: Some(to),
        victim: Some(to),
        ..Roles::default()
    };
    fires.push(Fire::at(facts, Label::Skewer).with_roles(roles).with_stake(value(captured)));
}

#[cfg(test)]
mod tests {
    use crate::tactics::testing::{assert_fires, assert_silent};

    #[test]
    fn real_skewers() {
        assert_fires(
            "skewer",
            &[
                ("001m3", "7r/6k1/2b1pp2/8/P1N3p1/5nP1/4RP2/Q4K2 w - - 2 38", "e2e6 h8h1 f1e2 h1a1", 1),
                ("001xl", "8/4R1k1/p5pp/3B4/5q2/8/5P1P/6K1 b - - 5 40", "g7f6 e7f7 f6e5 f7f4", 1),
                ("0039T", "1r5r/p3kp2/4p2p/4P3/3R1Pp1/6P1/P1P4P/4K2R w K - 1 25", "d4a4 b8b1 e1f2 b1h1 a4a7 e7f8", 1),
                ("000qP", "8/7R/8/5p2/4bk1P/8/2r2K2/6R1 w - - 7 51", "f2f1 f4f3 f1e1 c2c1 e1d2 c1g1", 3),
                // Lichess 066PI: ...Ba4 lines up queen b3 and rook d1; after the forced
                // ...gxf6 recapture the queen steps off and ...Bxd1 follows.
                (
                    "066PI",
                    "2r2rk1/p2b1ppp/4pb2/q7/1p6/1QN3P1/PP2PPBP/R2R2K1 w - - 0 19",
                    "c3e4 d7a4 e4f6 g7f6 b3f3 a4d1",
                    1,
                ),
            ],
        );
    }

    #[test]
    fn not_skewers() {
        assert_silent(
            "skewer",
            &[
                // Lichess 066PI: ...gxf6 is a forced recapture; the skewer was ...Ba4.
                (
                    "066PI",
                    "2r2rk1/p2b1ppp/4pb2/q7/1p6/1QN3P1/PP2PPBP/R2R2K1 w - - 0 19",
                    "c3e4 d7a4 e4f6 g7f6 b3f3 a4d1",
                    3,
                ),
                // The piece behind is the more valuable one: a pin, not a skewer.
                ("constructed", "4k3/7p/8/4n3/8/8/8/R5K1 b - - 0 1", "h7h6 a1e1", 1),
                // A later line-up the line never cashes (golden hp-later-skewer, ply 7).
                (
                    "constructed",
                    "4r1k1/pbp2ppp/8/8/1N6/8/PPP2PBP/2KR4 w - - 0 30",
                    "a2a3 b7g2 b4d3 a7a6 h2h4 g8f8 h4h5 g2e4",
                    7,
                ),
            ],
        );
    }
}
