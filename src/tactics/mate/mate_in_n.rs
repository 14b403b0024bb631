//! # mate, mateIn1, mateIn2, mateIn3, mateIn4, mateIn5
//!
//! How Koga decides:
//! - The line ends in checkmate, delivered by the solver's last move.
//! - `mate` fires on the mating ply; `mated` is the mated king, `moved` the
//!   square the mating piece landed on.
//! - `mateInN` fires on the key move, N the number of solver moves in the line
//!   (5 stands for five or more, as in Lichess); `mated` is the mated king.
//! - On the mating move the mate is the whole story: the material motifs give
//!   way to `mate` there (arbitration).
//! - A line that ends in stalemate, or in a mate given by the opponent, gets
//!   neither.

use crate::mate_scene::MateScene;
use crate::tactics::{Detector, Fire, Label, Roles, Run};

const MATE_IN: [Label; 5] = [Label::MateIn1, Label::MateIn2, Label::MateIn3, Label::MateIn4, Label::MateIn5];

pub const DETECTOR: Detector = Detector {
    labels: &[Label::Mate, Label::MateIn1, Label::MateIn2, Label::MateIn3, Label::MateIn4, Label::MateIn5],
    run: Run::Mate(detect),
};

pub fn detect(scene: &MateScene, fires: &mut Vec<Fire>) {
    let line = scene.at.line();
    let mated = Roles { mated: Some(scene.king), ..Roles::default() };
    let n = line.solver_moves().clamp(1, 5);
    fires.push(Fire::on(line.key(), MATE_IN[n - 1]).with_roles(mated));
    fires.push(Fire::on(scene.at, Label::Mate).with_roles(Roles { moved: Some(scene.at.mv().to()), ..mated }));
}

#[cfg(test)]
mod tests {
    use crate::line::{Line, LineForm};
    use crate::tactics::classify;
    use shakmaty::Square;

    fn labels(fen: &str, moves: &str) -> Vec<(u16, &'static str)> {
        let line = Line::parse(fen, moves, LineForm::Puzzle).unwrap();
        classify(&line).iter().filter(|f| f.label.name().starts_with("mate")).map(|f| (f.ply, f.label.name())).collect()
    }

    #[test]
    fn mate_in_one_real_puzzle() {
        // Lichess 000rZ: back-rank mate in one.
        let fen = "2kr1b1r/p1p2pp1/2pqb3/7p/3N2n1/2NPB3/PPP2PPP/R2Q1RK1 w - - 2 13";
        let line = Line::parse(fen, "d4e6 d6h2", LineForm::Puzzle).unwrap();
        let fires: Vec<_> = classify(&line).into_iter().filter(|f| f.label.name().starts_with("mate")).collect();
        assert_eq!(
            fires.iter().map(|f| (f.ply, f.label.name())).collect::<Vec<_>>(),
            vec![(1, "mate"), (1, "mateIn1")]
        );
        assert_eq!(fires[0].roles.mated, Some(Square::G1));
        assert_eq!(fires[0].roles.moved, Some(Square::H2));
        assert!(!fires[0].follow_up);
    }

    #[test]
    fn mate_in_two_fires_on_key_and_mating_ply() {
        // Lichess 000Zo: ...Re1+ Kf2 Rf1# (an opera mate).
        let fen = "4r3/1k6/pp3r2/1b2P2p/3R1p2/P1R2P2/1P4PP/6K1 w - - 0 35";
        assert_eq!(labels(fen, "e5f6 e8e1 g1f2 e1f1"), vec![(1, "mateIn2"), (3, "mate")]);
    }

    #[test]
    fn mate_in_five_or_more_is_mate_in_five() {
        // Lichess 02iyq: six solver moves in all.
        let fen = "4r1k1/pp3p1p/q1p2Np1/3nP1Q1/8/1P1P3P/P3R1P1/7K b - - 1 28";
        let moves = "d5f6 e5f6 e8e2 g5h6 e2e1 h1h2 e1h1 h2h1 c6c5 h6g7";
        assert_eq!(labels(fen, moves), vec![(1, "mateIn5"), (9, "mate")]);
    }

    #[test]
    fn no_mate_when_the_line_does_not_end_in_mate() {
        // Lichess 0000D: a plain winning line.
        let fen = "5rk1/1p3ppp/pq3b2/8/8/1P1Q1N2/P4PPP/3R2K1 w - - 2 27";
        assert!(labels(fen, "d3d6 f8d8 d6d8 f6d8").is_empty());
        // The same mating line cut before the mate.
        let fen = "4r3/1k6/pp3r2/1b2P2p/3R1p2/P1R2P2/1P4PP/6K1 w - - 0 35";
        assert!(labels(fen, "e5f6 e8e1 g1f2").is_empty());
    }
}

#[cfg(test)]
mod real_mates {
    use crate::tactics::testing::{assert_fires, assert_silent};

    #[test]
    fn mate_labels_on_real_puzzles() {
        // Lichess 000rZ: ...Qxh2# in one.
        assert_fires(
            "mateIn1",
            &[("000rZ", "2kr1b1r/p1p2pp1/2pqb3/7p/3N2n1/2NPB3/PPP2PPP/R2Q1RK1 w - - 2 13", "d4e6 d6h2", 1)],
        );
        assert_fires(
            "mateIn2",
            &[("000Zo", "4r3/1k6/pp3r2/1b2P2p/3R1p2/P1R2P2/1P4PP/6K1 w - - 0 35", "e5f6 e8e1 g1f2 e1f1", 1)],
        );
        assert_fires(
            "mateIn3",
            &[("001wR", "6nr/pp3p1p/k1p5/8/1QN5/2P1P3/4KPqP/8 b - - 5 26", "b7b5 b4a5 a6b7 c4d6 b7b8 a5d8", 1)],
        );
        assert_fires(
            "mateIn4",
            &[(
                "00O9Z",
                "5QR1/5p1p/1b3qp1/p6k/P2P4/8/1P2rPPP/5RK1 w - - 7 32",
                "g8h8 f6f2 f1f2 e2e1 f2f1 b6d4 g1h1 e1f1",
                1,
            )],
        );
        assert_fires(
            "mateIn5",
            &[(
                "02iyq",
                "4r1k1/pp3p1p/q1p2Np1/3nP1Q1/8/1P1P3P/P3R1P1/7K b - - 1 28",
                "d5f6 e5f6 e8e2 g5h6 e2e1 h1h2 e1h1 h2h1 c6c5 h6g7",
                1,
            )],
        );
        assert_fires(
            "mate",
            &[
                ("000rZ", "2kr1b1r/p1p2pp1/2pqb3/7p/3N2n1/2NPB3/PPP2PPP/R2Q1RK1 w - - 2 13", "d4e6 d6h2", 1),
                ("000Zo", "4r3/1k6/pp3r2/1b2P2p/3R1p2/P1R2P2/1P4PP/6K1 w - - 0 35", "e5f6 e8e1 g1f2 e1f1", 3),
                ("001wR", "6nr/pp3p1p/k1p5/8/1QN5/2P1P3/4KPqP/8 b - - 5 26", "b7b5 b4a5 a6b7 c4d6 b7b8 a5d8", 5),
            ],
        );
        assert_silent(
            "mate",
            &[
                // Lichess 0000D: a winning line without mate.
                ("0000D", "5rk1/1p3ppp/pq3b2/8/8/1P1Q1N2/P4PPP/3R2K1 w - - 2 27", "d3d6 f8d8 d6d8 f6d8", 3),
                // Lichess 000Zo cut before the mate.
                ("000Zo cut", "4r3/1k6/pp3r2/1b2P2p/3R1p2/P1R2P2/1P4PP/6K1 w - - 0 35", "e5f6 e8e1 g1f2", 1),
            ],
        );
        assert_silent(
            "mateIn2",
            &[
                // Lichess 000Zo cut before the mate.
                ("000Zo cut", "4r3/1k6/pp3r2/1b2P2p/3R1p2/P1R2P2/1P4PP/6K1 w - - 0 35", "e5f6 e8e1 g1f2", 1),
                // A mate in three is not a mate in two (Lichess 001wR).
                ("001wR", "6nr/pp3p1p/k1p5/8/1QN5/2P1P3/4KPqP/8 b - - 5 26", "b7b5 b4a5 a6b7 c4d6 b7b8 a5d8", 1),
            ],
        );
    }
}
