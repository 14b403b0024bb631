//! # castling
//!
//! How Koga decides:
//! - The solver's move castles (either side): `castling` fires on that ply.
//! - `moved` is the king's destination square.

use shakmaty::Move;

use crate::facts::PlyFacts;
use crate::tactics::{Detector, Fire, Label, Roles, Run};

pub const DETECTOR: Detector = Detector { labels: &[Label::Castling], run: Run::Move(detect) };

pub fn detect(facts: &PlyFacts, fires: &mut Vec<Fire>) {
    let m = facts.mv;
    let Move::Castle { .. } = m else { return };
    let Some(side) = m.castling_side() else { return };
    let roles = Roles { moved: Some(side.king_to(facts.us)), ..Roles::default() };
    fires.push(Fire::at(facts, Label::Castling).with_roles(roles));
}

#[cfg(test)]
mod tests {
    use crate::line::{Line, LineForm};
    use crate::tactics::classify;
    use shakmaty::Square;

    #[test]
    fn queenside_castling_real_puzzle() {
        // Lichess 035YV: O-O-O on the key move, discovering the d-file.
        let fen = "r1bk3r/1p3ppp/p7/2b5/P7/4Bp2/1P3PPP/R3KB1R b KQ - 1 14";
        let line = Line::parse(fen, "h8e8 e1c1 c8d7 e3c5", LineForm::Puzzle).unwrap();
        let fires = classify(&line);
        let castling: Vec<_> = fires.iter().filter(|f| f.label.name() == "castling").collect();
        assert_eq!(castling.len(), 1);
        assert_eq!(castling[0].ply, 1);
        assert_eq!(castling[0].roles.moved, Some(Square::C1));
    }

    #[test]
    fn king_move_that_is_not_castling() {
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1";
        let line = Line::parse(fen, "a8b8 e1f1", LineForm::Puzzle).unwrap();
        assert!(classify(&line).iter().all(|f| f.label.name() != "castling"));
    }

    #[test]
    fn opponent_castling_is_context_only() {
        // Lichess 01xdm: ply 0 is ...Nxh2, the key move O-O-O.
        let fen = "r3k2r/4bppp/p2p4/2pPp3/4P1n1/2N2P1q/PP1BQP1P/R3K2R b KQkq - 6 15";
        let line = Line::parse(fen, "g4h2 e1c1 h3f3 h1h2 f3e2 c3e2", LineForm::Puzzle).unwrap();
        let fires = classify(&line);
        assert_eq!(fires.iter().filter(|f| f.label.name() == "castling").count(), 1);
        // Same position, but judged as a plain line from Black's move: no castling by Black.
        let line = Line::parse(fen, "g4h2 e1c1", LineForm::Line).unwrap();
        assert!(classify(&line).iter().all(|f| f.label.name() != "castling"));
    }
}

#[cfg(test)]
mod real_castling {
    use crate::tactics::testing::{assert_fires, assert_silent};

    #[test]
    fn castling_on_real_puzzles() {
        assert_fires(
            "castling",
            &[
                (
                    "01xdm",
                    "r3k2r/4bppp/p2p4/2pPp3/4P1n1/2N2P1q/PP1BQP1P/R3K2R b KQkq - 6 15",
                    "g4h2 e1c1 h3f3 h1h2 f3e2 c3e2",
                    1,
                ),
                ("035YV", "r1bk3r/1p3ppp/p7/2b5/P7/4Bp2/1P3PPP/R3KB1R b KQ - 1 14", "h8e8 e1c1 c8d7 e3c5", 1),
                (
                    "05Jwg",
                    "r3k1r1/2p2p2/p3pP2/1pq5/2p1P3/2N4p/PQP2RPP/1R4K1 w q - 1 26",
                    "g1f1 g8g2 f2g2 h3g2 f1g2 e8c8",
                    5,
                ),
            ],
        );
        assert_silent(
            "castling",
            &[
                // A king move that is not castling.
                ("constructed", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "a8b8 e1f1", 1),
                ("0000D", "5rk1/1p3ppp/pq3b2/8/8/1P1Q1N2/P4PPP/3R2K1 w - - 2 27", "d3d6 f8d8 d6d8 f6d8", 1),
            ],
        );
    }
}
