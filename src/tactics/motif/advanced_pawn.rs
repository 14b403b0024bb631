//! # advancedPawn
//!
//! How Koga decides:
//! - Our move takes a pawn to its seventh or eighth rank (a promotion
//!   included), as Lichess's theme means it.
//! - Captures count: the pawn may take on its way there.
//! - Roles: `moved` (where the pawn, or the piece it became, landed).
//!
//! Koga and Lichess:
//! - Lichess 1,239, Koga 1,239, both 1,239: precision, recall and F1 1.000.
//!   The rule is Lichess's.

use shakmaty::Rank;

use crate::facts::PlyFacts;
use crate::tactics::{Detector, Fire, Label, Roles, Run};

pub const DETECTOR: Detector = Detector { labels: &[Label::AdvancedPawn], run: Run::Move(detect) };

pub fn detect(facts: &PlyFacts, fires: &mut Vec<Fire>) {
    if facts.pawn_reaches(Rank::Seventh) {
        fires
            .push(Fire::at(facts, Label::AdvancedPawn).with_roles(Roles { moved: Some(facts.to), ..Roles::default() }));
    }
}

#[cfg(test)]
mod tests {
    use crate::tactics::testing::{assert_fires, assert_silent};

    #[test]
    fn real_puzzles() {
        assert_fires(
            "advancedPawn",
            &[
                // A promotion.
                ("007fJ", "8/1P3ppp/8/8/8/2pk3P/3p2P1/3K4 w - - 0 52", "b7b8q c3c2", 1),
                // A pawn capture onto the seventh rank (...exf2).
                ("00QBx", "rn1qk2r/pb3ppp/5n2/2b5/7N/2N1p1P1/PP1PPP1P/R1BQKB1R w KQkq - 0 9", "h4g2 e3f2", 1),
                // ...g2, next to the king.
                ("01Xg6", "B2Qnk1r/p1p2pp1/6q1/2b5/5B2/2P2Np1/PP2P2P/R4R1K w - - 0 19", "b2b4 g3g2", 1),
            ],
        );
        assert_silent(
            "advancedPawn",
            &[
                // A king move: no pawn advances.
                ("07LnK", "8/8/8/8/1p6/1kp5/1P6/K7 w - - 0 52", "b2c3 b3c3 a1a2 c3c2", 1),
                // A knight sacrifice on b6.
                ("0B9PL", "2b2r2/R4p1k/4pqpp/3pN3/N2Pn1Q1/1P6/2P2PPP/6K1 w - - 5 27", "a4b6 f6f2 g1h1 f2e1", 1),
            ],
        );
    }
}
