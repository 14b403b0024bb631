//! # sacrifice
//!
//! How Koga decides:
//! - After one of our moves later than the key move, our material stands at
//!   least two pawns below where it stood before the key move: we gave
//!   something up on purpose.
//! - It fires on our move the opponent then took from: the solver move right
//!   before the first such later move (the key move, most often). One fire
//!   per line.
//! - Not when any opponent move after the key move promotes: that material
//!   was lost, not given.
//! - Roles: `moved` (where the given-up piece went).
//!
//! Koga and Lichess:
//! - Lichess 1,529, Koga 1,529, both 1,529: precision, recall and F1 1.000.
//!   Lichess tags the puzzle; Koga names the move that gives the material.

use super::{Detector, Fire, Label, Roles, Run};
use crate::facts::PlyFacts;

pub const DETECTOR: Detector = Detector { labels: &[Label::Sacrifice], run: Run::Move(detect) };

pub fn detect(facts: &PlyFacts, fires: &mut Vec<Fire>) {
    let start = facts.balance_before_ply(facts.line.key());
    let mut later = facts.line.solver_plies().skip(1);
    let Some(down) = later.find(|p| facts.balance_after_ply(*p) - start <= -2) else { return };
    let given = down.previous().and_then(|reply| reply.previous());
    if given.map(|g| g.index()) != Some(facts.ply) {
        return;
    }
    let opponent_promotes = facts.line.key().later().any(|p| !p.is_solver() && p.mv().is_promotion());
    if !opponent_promotes {
        fires.push(Fire::at(facts, Label::Sacrifice).with_roles(Roles { moved: Some(facts.to), ..Roles::default() }));
    }
}

#[cfg(test)]
mod tests {
    use crate::tactics::testing::{assert_fires, assert_silent};

    #[test]
    fn real_puzzles() {
        assert_fires(
            "sacrifice",
            &[
                // ...bxc5 leaves the c8 rook to Bxc8.
                ("001xO", "k1r1b3/p1r1nppp/1p1qpn2/2Np4/1P1P4/PQRBPN2/5PPP/2R3K1 w - - 0 19", "d3a6 b6c5 a6c8 c5c4", 1),
                // Nf7+ gives the knight.
                ("008LT", "r4rk1/6p1/b3p1nN/p1pp4/1p3P1q/3P1Q1B/PPP2PK1/R6R b - - 0 26", "g8h8 h6f7 f8f7 h3e6", 1),
                // ...Rb1+ gives the rook for ...Nc2#.
                ("00Cwz", "1r5r/5pk1/4p3/2Np2PP/p1nP4/n1P5/P3B3/K1R4R w - - 2 34", "c5a4 b8b1 c1b1 a3c2", 1),
            ],
        );
        assert_silent(
            "sacrifice",
            &[
                // ...Rxe7 takes back: nothing is given up.
                ("07chg", "2Q5/3rprk1/2p2p2/2Pp2p1/3P2q1/p1P1R1B1/b4PP1/4R1K1 w - - 0 32", "e3e7 d7e7 c8g4 e7e1", 1),
                // Qh4+ and Qxh5#: material is only won.
                ("05SLl", "2R3k1/4rpp1/3p2b1/3P4/4p1P1/P3P2P/1P3Q1K/3q4 b - - 1 36", "g8h7 f2h4 g6h5 h4h5", 1),
            ],
        );
    }
}
