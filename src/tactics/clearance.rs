//! # clearance
//!
//! How Koga decides:
//! - Our move (not a promotion) vacates a square, and our next move, a quiet
//!   one, brings a queen, rook or bishop onto that square or across it.
//! - The clearing move itself gives something away: it goes to an empty
//!   square, or to a square where the piece stands badly (attacked, and
//!   undefended or attackable by a cheaper piece).
//! - The two moves are different pieces' work: the cleared piece does not
//!   go where the slider comes from or goes to. Neither the opponent's
//!   answer nor our move after it is out of check, and a check our next
//!   move gives is not the answer to a king move.
//! - It fires on the clearing move.
//! - Roles: `moved` (where the cleared piece went), `attacker` (the slider
//!   using the line, where it stood).
//!
//! Koga and Lichess:
//! - Lichess 274, Koga 273, both 273: precision 1.000, recall 0.996, F1 0.998.

use shakmaty::{attacks, Position, Role};

use super::{Detector, Fire, Label, Roles, Run};
use crate::board::in_bad_spot;
use crate::facts::PlyFacts;

pub const DETECTOR: Detector = Detector { labels: &[Label::Clearance], run: Run::Move(detect) };

pub fn detect(facts: &PlyFacts, fires: &mut Vec<Fire>) {
    let (Some(reply), Some(next)) = (facts.at.reply(), facts.at.next_own()) else { return };
    let (ours, slide) = (facts.mv, next.mv());
    let Some(slider_from) = slide.from() else { return };
    let slider = next.after().board().role_at(slide.to());
    if slide.is_capture() || !matches!(slider, Some(Role::Queen | Role::Rook | Role::Bishop)) {
        return;
    }
    if ours.is_promotion() || facts.to == slider_from || facts.to == slide.to() {
        return;
    }
    if next.before().is_check() || (next.after().is_check() && reply.mv().role() == Role::King) {
        return;
    }
    if facts.from != slide.to() && !attacks::between(slider_from, slide.to()).contains(facts.from) {
        return;
    }
    if facts.captured.is_none() || in_bad_spot(facts.after.board(), facts.to) {
        let roles = Roles { moved: Some(facts.to), attacker: Some(slider_from), ..Roles::default() };
        fires.push(Fire::at(facts, Label::Clearance).with_roles(roles));
    }
}

#[cfg(test)]
mod tests {
    use crate::tactics::testing::{assert_fires, assert_silent};

    #[test]
    fn real_puzzles() {
        assert_fires(
            "clearance",
            &[
                // Rxh6+ clears h4 for Qh4.
                ("00Huv", "3r2q1/5prk/p3pQpp/1p2P3/2p4R/2P2P1P/PPB2P2/6K1 b - - 2 29", "g8f8 h4h6 h7g8 f6h4", 1),
                // exf5 clears e4 for Bd5 along the diagonal.
                ("00IMS", "1r4k1/r5q1/p2p1pP1/4pP2/2p1P2Q/2PbnBK1/P6R/2R5 b - - 7 35", "e3f5 e4f5 d3f5 f3d5", 1),
                // ...Qxg3+ clears the h-file for ...Rh1#.
                ("00IUW", "8/Q1p1r1kp/5pp1/3P3r/4P3/2N2bPq/PPP2R1P/5RK1 w - - 3 23", "a7e3 h3g3 h2g3 h5h1", 1),
            ],
        );
        assert_silent(
            "clearance",
            &[
                // ...Rxe7 takes back; the next move is a capture.
                ("07chg", "2Q5/3rprk1/2p2p2/2Pp2p1/3P2q1/p1P1R1B1/b4PP1/4R1K1 w - - 0 32", "e3e7 d7e7 c8g4 e7e1", 1),
                // Qa4: a fork, no line is opened.
                ("05RxM", "r1bqk2r/pppn1ppp/4p3/3p4/1bPPnB2/2N1PN2/PPQ2PPP/R3KB1R b KQkq - 2 7", "d7f6 c2a4 c8d7 a4b4", 1),
            ],
        );
    }
}
