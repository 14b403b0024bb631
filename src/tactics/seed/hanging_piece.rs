//! # hangingPiece (seed 002)
//!
//! How Koga decides:
//! - The move we judge must be a capture of an enemy piece or pawn.
//! - If the captured square has no enemy defender, we take the piece for
//!   free: that is a hanging piece, from a pawn to the queen.
//! - A piece is defended if any friendly man — a pawn or the king included,
//!   even where the king's recapture would be illegal — attacks its square
//!   after our capture ([`crate::board::is_defended`]).
//! - X-ray defenders count: a friendly slider that would guard the square
//!   once one enemy slider in front of it is removed makes it defended.
//! - Defended but still won by the full exchange is `insufficientlyDefended`
//!   (its own file), never `hangingPiece`.
//! - Lasting gain: when the line goes on, the material balance after our
//!   next move (two plies on) must not be lower than right after the
//!   capture; when the line ends sooner there is nothing to re-check.
//! - Plain recapture (spec §3): if the opponent's previous move captured, on
//!   the same square, a piece worth at least as much as the one we take, our
//!   capture only restores the balance — not a hanging piece.
//! - Coexists with fork and skewer; outranks a bare deflection, one that
//!   wins no more than the hanging capture (arbitration, spec §4).
//! - Roles: `victim` (the piece taken), `moved` (our capturer's square).
//!   `gain` is what the capture nets once its exchange is over
//!   (`crate::net`).
//!
//! Judged by hand:
//! - Follow-up fires: 19 of 20 random dev fires (seed 7) win material for good;
//!   10 of those 20 only collect what an earlier fire named (a forked, skewered
//!   or trapped piece) and now say so in `collects` (4,122 of the dev set's
//!   follow-up fires). Miss: 0CCm0, a delayed recapture after an intermezzo,
//!   which the plain-recapture rule (spec §3) reads only one move back.
//! - Payoff marking (`collects`, seed 11): 20 of 20 follow-up fires that
//!   have it only collect what the earlier fire named; 16 of 20 without it
//!   are new wins (misses: desperado and delayed recaptures, 03OFF, 057Kw,
//!   which the recapture rule does not read; a double threat no label names,
//!   015ah).

use crate::facts::PlyFacts;
use crate::tactics::{Detector, Fire, Label, Roles, Run};

pub const DETECTOR: Detector = Detector { labels: &[Label::HangingPiece], run: Run::Move(detect) };

pub fn detect(facts: &PlyFacts, fires: &mut Vec<Fire>) {
    let Some(v) = facts.capture_verdict() else { return };
    if v.defended || v.plain_recapture || !v.lasting {
        return;
    }
    let roles = Roles { victim: Some(v.victim), moved: Some(facts.to), ..Roles::default() };
    fires.push(Fire::at(facts, Label::HangingPiece).with_roles(roles).with_stake(v.victim_value));
}

#[cfg(test)]
mod tests {
    use crate::tactics::testing::{fires_on, labels_on};

    #[test]
    fn free_knight_and_free_pawn() {
        let fires = fires_on("6k1/p4ppp/8/n7/8/8/1P3PPP/R5K1 b - - 0 30", "h7h6 a1a5", 1);
        let hanging = fires.iter().find(|f| f.label.name() == "hangingPiece").unwrap();
        assert_eq!(hanging.roles.victim.unwrap().to_string(), "a5");
        // The knight, 3 (the a7 pawn the rook then hits takes a quiet move
        // more, no part of the exchange).
        assert_eq!(hanging.gain, Some(3));
        assert!(labels_on("6k1/pp3ppp/8/4p3/3P4/8/PP3PPP/6K1 b - - 0 30", "h7h6 d4e5", 1).contains(&"hangingPiece"));
    }

    #[test]
    fn real_puzzles() {
        // Lichess 002bK: Nxb5 takes the loose bishop.
        assert!(labels_on("8/7p/2b1k3/p2p1pPB/1n1P3P/N1p1P3/4K3/8 b - - 1 42", "c6b5 a3b5 c3c2 e2d2", 1)
            .contains(&"hangingPiece"));
        // Lichess 00QQS: Bxd4 wins the queen.
        assert!(labels_on("2r3k1/1p1q1ppp/4p3/Q7/3P4/P1B5/1Pr2PPP/R5K1 b - - 0 22", "d7d4 c3d4 c2c1 a5e1", 1)
            .contains(&"hangingPiece"));
        // Lichess 0095W: fxe5 takes a knight that had taken a pawn.
        assert!(labels_on("8/pp1r2kp/q2P1ppb/4p3/2N1P3/1Q5P/PPR2PP1/6K1 w - - 3 32", "c4e5 f6e5 c2c7 a6d6", 1)
            .contains(&"hangingPiece"));
    }

    #[test]
    fn defended_recaptured_or_handed_back() {
        // Defended by the d7 knight.
        let got = labels_on("r1bqkb1r/pppn1ppp/5n2/4p3/4P3/3P1N2/PPP2PPP/RNBQKB1R b KQkq - 0 6", "h7h6 f3e5 d7e5", 1);
        assert!(!got.contains(&"hangingPiece"), "{got:?}");
        // X-ray: the a8 bishop guards e4 through the capturer's old square.
        let got = labels_on("b5k1/p4ppp/2B5/8/4n3/8/PP3PPP/6K1 b - - 0 30", "h7h6 c6e4 a8e4", 1);
        assert!(!got.contains(&"hangingPiece"), "{got:?}");
        // Lichess 06cqX: Qxf3 only takes back the bishop that took our knight.
        let got = labels_on("rn1q1rk1/pb3ppp/1N2p3/8/3P4/3B1N2/PP1b1PPP/R2Q1RK1 b - - 0 12", "b7f3 d1f3 d8b6 f3a8", 1);
        assert!(!got.contains(&"hangingPiece"), "{got:?}");
        // The gain is handed straight back two plies later.
        let got = labels_on("4r1k1/1p3ppp/8/n7/8/6P1/1P3PKP/R3N3 b - - 0 30", "h7h6 a1a5 e8e1 h2h4 g8h7 a5a3", 1);
        assert!(!got.contains(&"hangingPiece"), "{got:?}");
    }
}
