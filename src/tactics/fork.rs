//! # fork
//!
//! How Koga decides:
//! - The moved piece (not the king) attacks two or more enemy pieces (pawns
//!   do not count) that it really menaces: the king, a piece worth more than
//!   the forking piece, or one it wins by the static exchange.
//! - The forking piece is not simply lost: the opponent has no profitable
//!   capture of it on its square.
//! - The line cashes the fork: our next move captures one of the forked
//!   pieces. (A fork on the last move of a line, never collected, is not
//!   reported, as in Lichess.)
//! - Coexists with hangingPiece; a trappedPiece on the same move gives way.
//! - Roles: `attacker` (the forking piece), `target` (the most valuable
//!   forked piece), `victim` (the piece the line collects). `gain` is the
//!   collected piece's value.

use super::threats::{cashed_target, new_threats};
use super::{Detector, Fire, Label, Roles, Run};
use crate::board::{self, value_at};
use crate::facts::PlyFacts;
use shakmaty::{Position, Role};

pub const DETECTOR: Detector = Detector { labels: &[Label::Fork], run: Run::Move(detect) };

pub fn detect(facts: &PlyFacts, fires: &mut Vec<Fire>) {
    if facts.moved_role == Role::King || board::profitable_capture(facts.after, facts.to) {
        return;
    }
    let forked: Vec<_> = new_threats(facts).into_iter().filter(|t| t.attacker == facts.to).collect();
    if forked.len() < 2 {
        return;
    }
    let Some(victim) = cashed_target(facts, forked.iter().map(|t| t.target)) else { return };
    let target = forked.iter().max_by_key(|t| t.target_value).map(|t| t.target);
    let roles = Roles { attacker: Some(facts.to), target, victim: Some(victim), ..Roles::default() };
    let gain = value_at(facts.after.board(), victim) as i16;
    fires.push(Fire::at(facts, Label::Fork).with_roles(roles).with_gain(gain));
}

#[cfg(test)]
mod tests {
    use crate::tactics::testing::{assert_fires, assert_silent, fires_on};

    #[test]
    fn real_forks() {
        assert_fires(
            "fork",
            &[
                ("000Pw", "6k1/5p1p/4p3/4q3/3nN3/2Q3P1/PP3P1P/6K1 w - - 2 37", "e4d2 d4e2 g1f1 e2c3", 1),
                ("000rO", "3R4/8/K7/pB2b3/1p6/1P2k3/3p4/8 w - - 4 58", "a6a5 e5c7 a5b4 c7d8", 1),
                ("001wr", "r4rk1/p3ppbp/Pp1q1np1/3PpbB1/2B5/2N5/1PPQ1PPP/3RR1K1 w - - 4 18", "f2f3 d6c5 g1h1 c5c4", 1),
                ("0017R", "r2qk2r/pp2ppbp/1n1p2p1/3Pn3/2P5/2NBBP1P/PP3P2/R2QK2R b KQkq - 0 12", "e5c4 d3c4 b6c4 d1a4 d8d7 a4c4", 3),
            ],
        );
        let fork = fires_on("6k1/5p1p/4p3/4q3/3nN3/2Q3P1/PP3P1P/6K1 w - - 2 37", "e4d2 d4e2 g1f1 e2c3", 1)
            .into_iter()
            .find(|f| f.label.name() == "fork")
            .unwrap();
        assert_eq!(fork.roles.attacker.unwrap().to_string(), "e2");
        assert_eq!(fork.roles.victim.unwrap().to_string(), "c3");
        assert_eq!(fork.gain, Some(9));
    }

    #[test]
    fn not_forks() {
        assert_silent(
            "fork",
            &[
                // The same knight fork on the last move: never collected.
                ("000Pw cut", "6k1/5p1p/4p3/4q3/3nN3/2Q3P1/PP3P1P/6K1 w - - 2 37", "e4d2 d4e2", 1),
                // A knight attacking king and rook from a square where it is simply taken.
                ("constructed", "r3k3/5ppp/8/8/8/8/3N1PPP/6K1 b - - 0 30", "h7h6 d2c4", 1),
                ("0000D", "5rk1/1p3ppp/pq3b2/8/8/1P1Q1N2/P4PPP/3R2K1 w - - 2 27", "d3d6 f8d8 d6d8 f6d8", 1),
            ],
        );
    }
}
