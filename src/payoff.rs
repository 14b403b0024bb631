//! Payoff fires (spec §2): a follow-up capture that only collects what an
//! earlier fire of the same line already named — the forked queen taken two
//! plies later, the trapped rook finally captured, the pinned piece won. It
//! stays a fire, and says so: `collects` holds the ply of that earlier fire.
//!
//! How Koga decides:
//! - The fire is of a label declared `payoff` (a capture: hangingPiece,
//!   insufficientlyDefended, pinnedDefender), on a follow-up ply.
//! - The man it captures is followed back through the moves it made since
//!   (the opponent's moves only: ours would have taken it).
//! - It collects the latest earlier solver ply with a fire that names that
//!   man where it stood right after that ply, as its `victim`, one of its
//!   `targets`, or its `pinned`, `behind` or `defender` piece.
//! - Else, where it takes back in one run of captures on a square that an
//!   earlier fire's capture began, that fire naming the man it took there,
//!   it collects that fire: it carries on the exchange whose `gain` that
//!   fire already counts (Lichess 01N1L: ...Rxe2 wins the knight, and
//!   ...Qxe2 after Qxe2 is the same exchange).

use shakmaty::Bitboard;

use crate::facts::capture_square;
use crate::fire::Fire;
use crate::line::Line;
use crate::role::{RoleName, Roles};

/// The enemy pieces a fire names: where they stood right after its ply.
fn named(roles: &Roles) -> Bitboard {
    [RoleName::targets, RoleName::victim, RoleName::pinned, RoleName::behind, RoleName::defender]
        .into_iter()
        .fold(Bitboard::EMPTY, |named, role| named | roles.get(role))
}

/// Sets `collects` on the payoff fires among `fires` (every fire of one
/// line, ordered by ply).
pub fn mark(line: &Line, fires: &mut [Fire]) {
    for i in 0..fires.len() {
        let fire = fires[i];
        if !fire.follow_up || !fire.label.info().payoff {
            continue;
        }
        let ply = line.at(usize::from(fire.ply));
        let mv = ply.mv();
        if !mv.is_capture() {
            continue;
        }
        // Back from the capture, ply by ply: where the man stood after each.
        let mut square = capture_square(mv);
        let mut earlier = ply.previous();
        let mut collects = None;
        while let Some(at) = earlier {
            if at.is_solver() {
                let index = at.index() as u16;
                if fires[..i].iter().any(|f| f.ply == index && named(&f.roles).contains(square)) {
                    collects = Some(index);
                    break;
                }
                if at.mv().to() == square {
                    break; // we took something there: another man
                }
            } else if at.mv().to() == square {
                let Some(from) = at.mv().from() else { break };
                square = from;
            }
            earlier = at.previous();
        }
        // Else the recapture that carries on an earlier fire's exchange.
        let run_start = || ply.run_before().last().filter(|at| at.is_solver()).map(|at| at.index() as u16);
        fires[i].collects = collects.or_else(|| {
            run_start().filter(|&start| fires[..i].iter().any(|f| f.ply == start && named(&f.roles).contains(mv.to())))
        });
    }
}

#[cfg(test)]
mod tests {
    use crate::tactics::testing::{fire_on, fires_on};

    /// The `collects` of the `label` fire on `ply`.
    fn collects(fen: &str, moves: &str, ply: u16, label: &str) -> Option<u16> {
        fire_on(fen, moves, ply, label).collects
    }

    #[test]
    fn a_follow_up_capture_of_a_named_piece_collects_its_fire() {
        // Lichess 09Nmb: ...Ne2+ forks king and queen; ...Nxc3 takes the queen.
        let fen = "r4r2/2q2pbk/1pp1b1pp/p1p1p3/P1N1Pn2/1PQPBN1P/2P2PP1/R4RK1 w - - 7 17";
        assert_eq!(collects(fen, "c4e5 f4e2 g1h1 e2c3", 3, "hangingPiece"), Some(1));
        // Lichess 05cR1: Bg5 pins the h6 pawn; ...Qxg5 Rxg5 takes the queen
        // the pawn can no longer guard, a pinnedDefender that collects the pin.
        let fen = "r4r1k/pbp2pp1/1p1ppq1p/n6R/5B2/2PB2PQ/PPP2P1P/R5K1 b - - 3 17";
        assert_eq!(collects(fen, "b7f3 f4g5 f6g5 h5g5", 3, "pinnedDefender"), Some(1));
        // Lichess 06Lxf: Rg3+ skewers king and rook; Rxg8 takes the rook.
        let fen = "6r1/8/R7/p7/7k/5R2/r4P1K/8 b - - 3 48";
        assert_eq!(collects(fen, "h4g4 f3g3 g4f5 g3g8", 3, "hangingPiece"), Some(1));
        // Lichess 08Hmx: ...Re8+ is a discovered check whose rook hits b8.
        let fen = "6k1/5b1p/1R4p1/5p2/PP1b4/4rB2/6PP/5RK1 w - - 1 40";
        assert_eq!(collects(fen, "b6b8 e3e8 g1h1 e8b8", 3, "hangingPiece"), Some(1));
    }

    #[test]
    fn a_recapture_in_an_earlier_fires_exchange_collects_it() {
        // Lichess 01N1L: ...Rxe2 takes the knight the e1 rook alone guards;
        // Qxe2 ...Qxe2 goes on with that exchange, the ply-1 fire's gain.
        let fen = "4r1k1/ppp1qp2/2np3p/6p1/4r3/2P3B1/PP2NPPP/R2QR1K1 w - - 3 17";
        assert_eq!(collects(fen, "d1d2 e4e2 d2e2 e7e2", 3, "insufficientlyDefended"), Some(1));
    }

    #[test]
    fn a_capture_no_earlier_fire_named_collects_nothing() {
        // Lichess 0CPdX: Qg6 threatens mate; the d3 queen was never named.
        let fen = "4rrk1/5pp1/p1Q4p/PpP4q/1P6/6K1/BB3PP1/3R4 b - - 2 28";
        assert_eq!(collects(fen, "h5d1 c6g6 d1d3 g6d3", 3, "hangingPiece"), None);
        // Never on the key move.
        let fires = fires_on(fen, "h5d1 c6g6 d1d3 g6d3", 1);
        assert!(fires.iter().all(|f| f.collects.is_none()));
    }
}
