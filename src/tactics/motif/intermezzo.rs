//! # intermezzo
//!
//! How Koga decides:
//! - The opponent has just captured on a square where we could take back at
//!   once, and we do take back there, but only after an in-between move: our
//!   move does not go to that square, and the opponent's answer to it is not
//!   made by a piece that guarded the square.
//! - Our recapture on our next move is the same move that was legal right
//!   after the opponent's capture.
//! - It fires on the in-between move (the intermezzo itself).
//! - Only the first capture of ours after the key move that could end such a
//!   sequence is judged (Lichess reads the line so): a capture answering a
//!   move that defended its square, or taking on the square our previous
//!   move went to, is no such end.
//! - Where the in-between move takes the guard of the recapture square and
//!   capturingDefender fires on it, that label tells the story (arbitration):
//!   the recapture waited because its square's guard was being taken.
//! - Roles: `victim` (the square of the delayed recapture), `moved`.
//! - `gain`: null. What an in-between move nets is a what-if (against
//!   taking back at once), and the one tried read worse than none: its
//!   exchange through our recapture less the recapture's static exchange
//!   before it gave 215 dev fires a value, of which a helper judged 6 of a
//!   random 20 right (seed 4409) and none of the 33 below zero. Taking back
//!   at once most often loses a man the static exchange cannot see (103
//!   fires by Stockfish: one the in-between move saves, one the recapturer
//!   guarded, a quiet threat), or runs into a mate or a perpetual (about
//!   20). The recapture's own fire already counts the man taken back.
//!
//! Koga and Lichess:
//! - Lichess 232, Koga 224, both 224: precision 1.000, recall 0.966, F1 0.982.
//!   The 8 puzzles left out (9 fires) take the guard of the recapture square
//!   (05fpr, 09968, 01Tr9 ...): each read, a capture of the defender, which
//!   Lichess tags as well. The detector's own rule matches Lichess's: 232.
//!
//! Judged by hand:
//! - Issue 34, after its fixes (20 random dev fires, seed 42): strict 19, lenient 20 (0.95 / 1.00).
//!   Not the point: a check on the way to mate after a queen sacrifice, whose "recapture" mates
//!   (0A5s6).

use shakmaty::{Position, Square};

use crate::board::attackers;
use crate::facts::PlyFacts;
use crate::line::Cursor;
use crate::tactics::{Detector, Fire, Label, Roles, Run};

pub const DETECTOR: Detector = Detector { labels: &[Label::Intermezzo], run: Run::Move(detect) };

/// The square of `capture`, a capture of ours after the key move, if it can
/// end an intermezzo: the opponent's move before it was not made by a piece
/// that guarded the square, and our move before that did not go there.
fn delayed_recapture(capture: Cursor) -> Option<Square> {
    if capture.is_key() || !capture.mv().is_capture() {
        return None;
    }
    let reply = capture.previous()?;
    let ours = reply.previous()?;
    let square = capture.mv().to();
    let board = ours.after().board();
    let guards = attackers(board, square, !ours.before().turn(), board.occupied());
    let guarded_by_reply = reply.mv().from().is_some_and(|from| guards.contains(from));
    (!guarded_by_reply && ours.mv().to() != square).then_some(square)
}

pub fn detect(facts: &PlyFacts, fires: &mut Vec<Fire>) {
    let (Some(their_capture), Some(recapture)) = (facts.at.previous(), facts.at.next_own()) else { return };
    // The cheap test first: the opponent captured where we take back next.
    let square = recapture.mv().to();
    if !their_capture.mv().is_capture() || their_capture.mv().to() != square {
        return;
    }
    if delayed_recapture(recapture).is_none() || !their_capture.after().is_legal(recapture.mv()) {
        return;
    }
    let earlier = facts.line.solver_plies().take_while(|p| p.index() < recapture.index());
    if earlier.filter_map(delayed_recapture).next().is_some() {
        return;
    }
    fires.push(Fire::at(facts, Label::Intermezzo).with_roles(Roles {
        victim: Some(square),
        moved: Some(facts.to),
        ..Roles::default()
    }));
}

#[cfg(test)]
mod tests {
    use crate::tactics::testing::{assert_fires, assert_silent};

    #[test]
    fn real_puzzles() {
        assert_fires(
            "intermezzo",
            &[
                // ...Bxh2+ first, then ...hxg6.
                (
                    "009XT",
                    "rn1qk2r/pp3ppp/3bp1b1/3p4/3Pn2N/3BB3/PPP2PPP/RN1Q1RK1 w kq - 4 10",
                    "h4g6 d6h2 g1h1 h7g6",
                    1,
                ),
                // ...Bxc3+ first, then ...Qxd5.
                ("00Htd", "rnbqk2r/1p3ppp/p4b2/2Pp4/8/2N2N2/PP2PPPP/R2QKB1R w KQkq - 0 9", "d1d5 f6c3 b2c3 d8d5", 1),
                // ...Qd4+ first, then ...exf5.
                ("00Pgk", "r2q1rk1/pbp1bp2/1p2pn1Q/5nN1/8/P1NB4/1PP3PP/R4RK1 w - - 2 17", "d3f5 d8d4 g1h1 e6f5", 1),
            ],
        );
        assert_silent(
            "intermezzo",
            &[
                // Lichess 09968: ...Rxe6 takes the knight that guards c7, then ...Qxc7:
                // capturingDefender tells it.
                ("09968", "4r1k1/ppp1q1pp/4Npb1/2bP4/2P1r1P1/1P4BP/P4P2/R2Q1RK1 w - - 3 23", "g3c7 e4e6 d5e6 e7c7", 1),
                // Rxh8 takes back at once: no move in between.
                ("02pu5", "k1r4b/8/ppp4R/4B3/PP2K3/8/8/8 b - - 0 48", "c8e8 h6h8 e8h8 e5h8", 1),
                // After ...bxc4 comes Rh5, and no recapture on c4.
                ("0AGbN", "4r1k1/2r1pp1p/3p2pQ/1p1P2Pn/p1P4R/5R1P/P2q1P2/5BK1 b - - 2 31", "b5c4 h4h5 g6h5 f3f7", 1),
            ],
        );
    }
}
