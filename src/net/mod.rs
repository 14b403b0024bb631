//! `gain`: what a tactic nets once the exchange it starts is over (issue
//! 24), read off the line rather than off the piece it hits.
//!
//! Where each part lives: [`settle`] (here) reads every fire of a line;
//! `claims` says what fires name and claim, `exchange` where a fire's
//! count starts and ends and what a capture of theirs on the way charges
//! it; `line_end` what still falls after the line, by the capture search
//! (`search`); `threat` what a threat never carried out
//! keeps; `premise` and `men` the premise and the bitboard tests beneath
//! them all.
//!
//! How Koga computes it, for every fire whose detector saw material to win
//! (a stake) or whose label is a material motif:
//! - **The men it wins.** The enemy men the fire names as there to be won:
//!   its `victim`, `pinned`, `behind` and `targets` (kings never count), where
//!   they stand right after the fire's move.
//! - **The capture that collects it.** The move of ours that takes the most
//!   valuable of those men the line takes (the fire's own move, or a later
//!   one, the men followed as the opponent moves them): a fork's queen taken
//!   two moves on wherever it fled, after the knight that fled first.
//! - **The exchange it starts**: that capture and the captures that follow
//!   it in the line without a quiet move between (the recapture, and the
//!   queen the recapturing king let go), and the opponent's capture on our
//!   square after a check of theirs in between and our answer (the
//!   zwischenzug is charged), or on a man of ours that stood since the key
//!   move after a capture of theirs with check and our answer (08Erp:
//!   ...Rxh5 Bxh5+ ...Kf8 dxe7+ ...Qxe7: 3, not 5), the exchange stopping
//!   there where another tactic of ours takes next (Lichess 0AfWu: ...gxf4
//!   takes the rook, Qc3+ ...Kg8 traps the knight, exf4 ...Qxf8: 4, not 7;
//!   5 dev gains, each down, each now summing with the line's other gains
//!   to its net).
//!   - Where the tactic sets up a later capture, the exchange stops at a
//!     capture of ours another tactic claims (Lichess 08hfz: the first
//!     fork's queen, the second fork's rook), not at our retake of their
//!     capture on its square, a payoff's or not (02UDs: Nxf7+ ...Rxf7
//!     Rxf7, 3, not -2; until stop 69 a retake whose fire named the man
//!     stopped it) nor at our capture of the man their recapturer stopped
//!     guarding (0Agob: Rxe8+ ...Qxe8 Qxf6, 3, not 0), and, like any, at a quiet
//!     move, our check and its answer included (0AxTx: ...Qh4+ Kd2
//!     ...Qxf4+ Ke2, and the interference nets f4, 1, not 2; until stop 68
//!     it ran on through our checks and their answers to the line's end:
//!     47 dev gains in 39 puzzles, 8 up; judged old against new, blind,
//!     c6325: new 23, old 1, neither 1); a check of theirs starts
//!     something else.
//!   - A capture that takes back where the opponent just captured or
//!     promoted counts from the first move of that run (a queen taken as
//!     it is made is a pawn won), or from after their capture where the run
//!     starts with their capture of the man a sacrifice of ours gave there:
//!     the sacrifice is charged that man (08Ao7: ...Re3, fxe3, and the
//!     ...Nxe3+ fork nets 7, not 2), the sacrifice a capture or not
//!     (00fJC: Rxc3+ bxc3, and the Qxc3+ fork nets 6, not 1).
//!   - An opponent's desperado elsewhere (a man we attack, sold for a
//!     lesser man we take back, the captures ending there, no line of
//!     theirs opened) is a trade of its own: the next fire's, not counted
//!     twice (where we take it back with check, its side answers the check
//!     first: 01uDg, Nxf8 ...Nxf6 Qxf6+, and the knight gets out: 5, not 2;
//!     2 dev gains). So is any capture or promotion of theirs elsewhere
//!     that another tactic of ours takes back at once (Lichess 08B8I: gxf5
//!     wins the bishop, ...Qxf6 Rxf6 is the next fire's: 3, not 9; 05Shd:
//!     ...Nxf2 wins the bishop, a8=Q+ ...Kxa8 is the next fire's: 2, not
//!     -6; 19 dev gains in 14 puzzles), one whose fire
//!     names the man it takes back, gives material or has a stake: the
//!     retake of a pin that names other men goes on with the exchange
//!     (0758S: Bxf6 wins the queen, ...Nxg3 Rxg3 trades ours: 3, not 9; 1
//!     dev gain). The exchange either cuts is settled as at the line's end,
//!     the capturing man left out.
//! - **The line's end.** Where the line ends before the opponent has
//!   answered, a small capture search finishes it: what the opponent still
//!   nets by captures (4 plies, material only, either side free to stop),
//!   starting on the exchange's last square or with a man of ours the
//!   exchange left hanging, is taken off. So where the exchange ends with
//!   our capture and the line with our quiet answer to their quiet check
//!   (Lichess 095vY: ...Rxa7 Qb8+ ...Kf7, and Qxa7: -2, not 3; 02lVn:
//!   ...Rxe7 Rc8+ ...Re8, and Rxe8+: 4, not 9; 76 dev gains, each down),
//!   or with our quiet answer to their capture with check (044Gb: ...Bxe1
//!   exf7+ ...Kf8, and Kxe1: 2, not 5; 1 dev gain).
//!   - Before the first captures on those men, a side may capture any
//!     other man with check, where that capture loses nothing by its
//!     exchange and the man did not stand en prise before the key move:
//!     the checked side must answer, and the captures go on (Lichess
//!     04fOl: hxg7+ Kxg7 before Kxd2, a pawn traded, not lost: 3, not 4;
//!     03FPz: the queen that blocks our check is taken with check, 7, not
//!     3; 138 dev gains).
//!   - A side in check may not stop: it plays its best legal answer, a
//!     king step, a block or a capture, and the other side's captures go
//!     on from there (Lichess 040Jq: ...Qxf1+ Kd2 ...Qxf2+ takes the pawn
//!     too: 1, not 2). A capture with check on the search's last ply is
//!     answered all the same (05Vzs: ...Qxf2+ meets Kxf2: 6, not 7). So a
//!     capture may net more than it takes, and the search's bounds leave
//!     out only captures that give no check. At the line's end, the other
//!     side may then also take what the answer itself leaves en prise
//!     (Lichess 04E6r: after ...Rxc1+, Ke2 leaves the h1 rook: 6, not 1;
//!     0AyxI: Kxc2 opens the first rank for ...Qxa1: 5, not 0; 100 dev
//!     gains in 61 puzzles, 98 up; judged c5717), and an answer after
//!     which the checking side mates in one is played only where every
//!     answer allows one (07V4V: after ...Bf5+, Kg5 meets ...Qg3#, so
//!     Qxf5 ...Qxf5+ gives the queen: 7, not 2; 14 dev gains in 10
//!     puzzles, each up; judged c5716).
//!   - The opponent's captures after our answer, as its first, leave
//!     alone the men of ours that stood en prise before the key move
//!     (Lichess 05uHR: after ...cxb3, axb3 ...Nxd5, and Qxa7 would take
//!     a pawn the queen hit before the key move: 3, not 2; 45 dev gains
//!     in 30 puzzles, all up; judged c6008).
//!   - A capture on the search's last ply counts as its static exchange
//!     on that square, not as the man whole (Lichess 07GSL: after Rxf6+
//!     is answered, Rxb6 meets the king's recapture: 3, not 4; 103 dev
//!     gains, of 25 read 17 closer and 8 farther, most of those where a
//!     quiet move decides, which no captures-only search sees).
//!   - A king guards only a man it may take back: not one whose square
//!     stays attacked after the first capture (0CKgM: fxg4 opens the
//!     f-file, and Bxf7+ Kh8 Bxe8 follows: 3, not 5). Nor, for a side in
//!     check, a piece the checker hits that the king alone guards: the
//!     answer may give it up (0CIBR: ...Qxg2+ hits the f1 rook, and Kd1
//!     ...Qxf1+ follows: 7, not 2; 3 dev gains, each up).
//!   - Nothing past captures and checks counts: a quiet move after the
//!     line (a loose man picked up, a pawn that runs to queen, a forking
//!     check of the side to move there) is no part of it, as issue 34
//!     defines the line's end. Answers to a check are the search's: a
//!     side in check answers (above), and after their answer our check
//!     that wins counts (below; and where their king took in answer, our
//!     forking check, an undefended pawn one of the men it may hit:
//!     028yE's ...Bxg2+ Kxg2 ...Qe4+, unless they have a mate in one we
//!     do not hit: 08bm9's ...Rxg1+ Kxg1, where ...Qb1+ would take the
//!     knight but Ra8# is threatened). Until stop 72
//!     three tests past the search counted those (a forking check, the
//!     loose men no answer saves, a pawn that queens): over 25 fresh
//!     rounds judged by captures alone, 584 of 625 right with them, 608
//!     without (docs/gain-judging.md).
//!   - Where the line ends with our check and the opponent has one legal
//!     answer, we may then give a check that forks (by a man that stands
//!     safe, hitting a piece worth more than it or undefended), or check
//!     with a man only a greater man may take, guarded, whose every answer
//!     may lose
//!     (Lichess 08QFG: ...Qxf3+ Kg1, and ...Rg8+ wins the queen for the
//!     rook: 9, not 5; 03zMQ: ...Qxe3+ Kh2 ...Qe5+ forks the a5 knight).
//!     12 dev gains, each up; read with Stockfish, 6 of the 8 puzzles
//!     closer, 2 neither (a pawn a check wins where Stockfish plays for
//!     more). +83 instructions a puzzle, most of it asking whether the
//!     answer is the only one.
//!   - A first capture after which we mate in one is not one the
//!     opponent plays (Lichess 04uIX: ...Qxc6 would take the pinning
//!     queen, and Rd8# follows: bxc5 nets the bishop, 3, not -6; 57 dev
//!     gains, each up, 02L3h 2 -> 7). Searched once for every exchange
//!     that ends on the same move against the same premise.
//!   - A man is en prise where it is undefended or a lesser man attacks
//!     it (Lichess 03Lyw: the rook on b3 a pawn takes), but not by a man
//!     pinned to its king, or to a greater man behind it, that would
//!     leave the pin's line (042kS: the f6 queen the pinned e7 bishop
//!     hits was not en prise before the key move; 2, not -1).
//!   - In it our side only answers: it takes back, takes what their
//!     capture unmasked or left unguarded or what the line left en prise,
//!     saves an attacked man with a capture, takes a greater man with a
//!     lesser, or captures with check; and it may take back later a man
//!     whose capture it could not answer at once, having a check to
//!     answer first (Lichess 09vCU: Bxc8+ unmasks the e1 rook, ...Kd8
//!     Rxa1 ...Kxc8: 0, not -3; 26 dev gains, of 14 read 9 closer and
//!     none farther). A trade of ours that was there anyway does not
//!     cancel what they win. Promotions by a push were tried (15 dev
//!     gains, of 11 read 5 closer and 3 farther: a new queen that a mate
//!     or a knight's fork answers) and left out.
//!   - A recapturer pinned to a piece behind it gives that piece up, as
//!     the search sees: the defender the tactic pinned does not recapture.
//!   - A man that stood en prise before the key move is not its business,
//!     for either side (where the puzzle ends, such a man is often immune
//!     for a reason material alone cannot see), unless it is ours and the
//!     setup move put it en prise (Lichess 06etG: h6 hits the g7 bishop,
//!     ...Qh5+ Qh3 ...Qxg6 wins the rook, and hxg7 Kxg7 follows: 3, not 5;
//!     315 dev gains), by its piece or by opening a line onto it, or by
//!     taking or blocking its guard (046Sy: ...Bxe4 takes the rook that
//!     guarded e5, and after Rxe4 ...Qxe4 dxe4 ...Rxe5 follows: 4, not 7;
//!     49 dev gains more); one the line left en prise
//!     on the way is (Lichess 08p4b: ...Rxe1 Nxe8 ...Bxf3 wins the queen,
//!     and Rxe1 then takes back the rook).
//! - **The net** is the material balance (ours minus theirs) once that
//!   exchange is over, minus the balance before the fire's move: the skewered
//!   queen that costs the skewering rook nets 4, not 9; a capture that ends
//!   in a lost exchange nets below zero, and says so. Where the fire's move
//!   takes back on the square where the opponent just captured, the balance
//!   is counted from the first capture of that run on the square (no
//!   earlier than the key move): a fork that retakes a sacrificed piece does
//!   not count the piece twice. Where it takes back late, moves elsewhere
//!   between, the man that took one of ours on its square after a quiet
//!   move of ours, what that capture took is taken off, as it would be at
//!   once (Lichess 02rFZ: Qa4 ...Nxc4 exd7 ...Qxd7 Qxc4: 0, not 3; 9 dev
//!   gains, each down by the man taken; judged blind against the old, c6322:
//!   new 9 of 9). So where their capture came just before our move,
//!   elsewhere, and the run our move starts takes their man back (0BuQl:
//!   Nxf6 ...Qxf3, and Nxe8+ ...Rxe8 gxf3: 2, not 11; c6323: new 3 of 3).
//! - **A trade on two squares.** Where our capture answers one of theirs
//!   elsewhere, of a man worth the same, that answered a quiet move of ours,
//!   a capture a fire (no payoff) wins material on (whose exchange runs
//!   through both) or a capture no fire names, the capture counts from
//!   before theirs (Lichess 02wgI: Nxe5 wins the knight, ...Bxe2 Nxd7
//!   trades the queens: 0, not 9; 089nL: ...Rd4 Rxe5 ...Rxc4, bishops
//!   traded: 0; 0AzTR: Bxe7 ...Bxd1 Bxd8, no fire on Bxe7: 0, not 9; 67
//!   dev fires, and 22 more by the fire-less capture, 16 of them trades to
//!   0, 6 now below 0 by a loss the line's end charges, such as a pawn the
//!   key move left, and 1 to 3 off). So for a payoff's capture (09d1o:
//!   ...d3 hits the queen, Rxe5 ...dxc2+ Kxc2 ...Bxe5: 4, not 13; 56 dev
//!   gains, each down; of 20 read, 19 closer), and where we take their man
//!   back later, that capture another tactic's (02qd6: Bxf6 ...Bxf3 Bxd8
//!   ...Rxd8 gxf3: 0, and gxf3's bishop 3; 8 dev gains, each down). Where
//!   their capture took back a capture of ours no fire names (a grab
//!   before the trade), the capture counts from before that grab: the
//!   trade nets what the grab took (Lichess 08AfH: ...Qxe3+ Rxe3 ...Bxh6,
//!   the bishop: 3, not 9; 01aTs: Qxd4 ...Rxd4 gxh4: 3; 54 dev gains, each
//!   down, each line's gains now summing to its net).
//! - **A grab in answer to a quiet threat.** Where our capture carries out
//!   the threat of our quiet move before it, a move no fire wins or gives
//!   material on, and the opponent answered that move by taking a man of
//!   ours (not taking back), the capture counts from before the quiet
//!   move: the grab is charged (Lichess 04e0U: e5 attacks the queen,
//!   ...Rxc1, exf6: 4, not 9; 08RC5: Bd2 ...Nxe2 Bxb4, a queen trade: 0),
//!   also where the quiet move lined up on the man behind the one that
//!   grabbed (082g9: Qc8, ...Rxc7 Qxe6: 4, not 9; 6 dev gains, each down).
//! - A man of ours that hung before the key move (attacked and undefended,
//!   not hit by the setup move's piece) and that the opponent takes
//!   between the fire's move and its capture is the puzzle's premise, as
//!   at the line's end, unless it plays a part in the fire (Lichess 01FCo:
//!   Nc6+ forks, ...Kxb7 takes the pawn the king attacked already, Nxe5:
//!   6, not 5; 09X01: the rook that gives the check is the tactic's price;
//!   30 dev gains, each up).
//! - **A line that mates** nets nothing: the mate is the point, and every
//!   fire's `gain` on it is null, what it takes or gives on the way
//!   included (Lichess 07kQI: ...Rxd1+ Qe1 ...Rxe1#, no rook won; 054S8:
//!   ...Qxf2+ Rxf2 Rxe1+ Rf1 Rexf1#; 06vSn: Rxh3+ Nh4 Rxh4+, a spite
//!   block). Until 2026-12-05 a capture on the way kept its gain where
//!   the line took more than it gave: 192 dev gains, 145 of them a
//!   capture with check two plies before the mate (a step of the mate,
//!   which a coach does not count as material won).
//! - The men to win never include their king; our king may stand where
//!   it took one (Kxf1 after ...Qxf1+ nets the exchange, not the queen).
//! - A sacrifice's `gain` is what its move gives up with the answer, below
//!   zero, and where the answer captures, the captures that follow on its
//!   square, unless another tactic of ours takes there (Lichess 00vf5:
//!   Ndb5 axb5 Nxb5, -2): a later tactic that wins it back nets its own
//!   win, and a line's gains sum to its net (029wQ: -6, then the fork's
//!   9, the queen). A tactic whose man
//!   only a later sacrifice takes nets 0 (059XJ: Qd8+ forks the knight
//!   Qxf6+ gives the queen for). A sacrifice that
//!   takes back where they just took counts from before their capture
//!   (01Isj: ...Rxe1+ Rxe1 leaves the b6 bishop: -3, not 2).
//!   What a sacrifice gives up is charged to it alone: another fire of its
//!   move whose exchange comes out below zero nets what it wins besides
//!   (06tA5: Rb7 gives the rook, and the deflection wins the d6 pawn: 1,
//!   not -4; 46 dev fires, each up; judged, seed 4513: 15 of 15 read
//!   closer, 12 right as they stand). One whose exchange wins it back nets
//!   the balance (the pin on the same move: 5): charging the give-up to no
//!   co-fire would count a later tactic's payoff twice (the pin 10 beside
//!   the fork's 9), so the two readings meet at 0, and five dev moves show
//!   both (00v6q: the fork 2, the counterThreat 5). But where the answer
//!   takes the moving man itself and no other tactic wins before the
//!   fire's capture, the win is the fire's alone, and it nets it whole, so
//!   the line's gains sum to its net (06WdM: ...Nf3+ Rxf3 gives the knight,
//!   -3, and the fork's ...Re1+ Qxe1 ...Qxe1+ wins the queen for the rook:
//!   4, not 1; 5 dev gains, each up). Left: a co-fire whose
//!   exchange runs into a later tactic's sacrifice stays below zero
//!   (08qdE, 09fDR: -2; 01U1t's shape).
//! - **The man the move takes.** Where another fire of the move names the
//!   man its capture takes (a hanging piece) and the man that took keeps
//!   it (not taken back at once, nor later without our taking back, nor en
//!   prise as the line ends, unless it makes the fire's capture on our
//!   next move, the answer taking nothing, and falls in that exchange), a
//!   fire naming other men counts from
//!   after the move: the capture is the other fire's (Lichess 09KlA: gxh6
//!   takes the queen and unmasks the rook on a rook that is traded: 0, not
//!   9; 08i3m: Nxe7+ takes the pawn and forks, Nxf5 gxf5: the fork 6).
//!   So where the move is the capture that collects an earlier fire's man
//!   (not for a payoff: 01VBW, Nxf8+ takes the rook Ng6+ forked, and its
//!   discovery nets the queen, 4, not 9), or goes on with a run an earlier
//!   fire started by taking a man it names (07gRJ: ...Nxh3+ Bxh3 ...Qxh3,
//!   and the double attack of ...Qxh3 nets what follows, 4, not 5).
//! - A fire whose man the line never takes keeps its detector's stake (the
//!   hung or trapped piece's value): what it threatens to win, the line
//!   stopping before it falls.
//!   - Where the threat comes to nothing by the line's end (its men,
//!     followed as they move, no longer attacked; or one man that can
//!     step to a square we do not attack, or, in check, an answer after
//!     which nothing of theirs is en prise: 0BuRD ...exf2+ unmasks the
//!     queen on the e1 rook, and Kxf2 guards it), it wins what the best
//!     escape leaves us (a man that takes a man of ours on a square we
//!     attack trades itself: 01gA2, ...Rh8 shuts the h7 queen in, Qxh8+
//!     Qxh8: 4, not 9; where our move threatens other men
//!     too, the least our captures net over the man's escapes and the
//!     captures of their other threatened men: 0BJDT, d5 unmasks the
//!     bishop on the queen and hits the e6 bishop, ...Qc7 dxe6 fxe6: 2,
//!     not 0; 02fRr, ...Qxb3
//!     guards the knight: 0; where it threatens two or more of its men,
//!     the least our captures net over letting it be, their moves and the
//!     captures of the men that hit them, guarded men taken too: 06ZIT,
//!     Ng3 hits the queen and two bishops, ...Qc7 Nxf5: 3, not 9), and what its
//!     move took, with the answer that took a man of ours (0 where another
//!     fire of the move wins or gives material, where the move takes back
//!     what the opponent just took, or where the man that took falls
//!     later). Lichess 083dK: the queen dxe5
//!     unmasks takes the pawn: 0; 04Dbs: Bb4 unmasks the queen on the d4
//!     bishop, which may step away as the line ends: 0, the fork wins the
//!     queen; 09YuP: Bxe4 takes the knight, and the queen it unmasks on
//!     steps away: 3. A threat only a search would see through, as 0AoZa's,
//!     is read as 0 too.
//!   - Where one of its men, followed, took a man of ours (it met the
//!     threat by trading) and the line ends with our check, the line's
//!     balance from before the move, finished by the capture search, is
//!     the gain (Lichess 07b7A: Nxg5 unmasks the g6 queen on the c2
//!     queen, which takes it; Nxf3+, and hxg6 is to come: 3, not 9).
//!     So too where no escape meets the threat and the line ends with
//!     our check, unless another fire of the move gives material or
//!     names its capture, or a later fire claims a capture on the way
//!     (0C9wz: hxg7+ unmasks the h1 rook on the pinned queen, and
//!     gxf8=Q+ and Rxh7 follow: 16, not 9).
//!
//! How far the values are right, judged by hand round by round, and every
//! rule tried and left out: `docs/gain.md` and `docs/gain-judging.md`.

mod claims;
mod exchange;
mod line_end;
mod men;
mod premise;
mod search;
#[cfg(test)]
mod tests;
mod threat;

use shakmaty::Position;
use std::cell::{OnceCell, RefCell};

use crate::facts::{capture_square, captured_value};
use crate::fire::{Fire, GainSpan};

use crate::line::{Cursor, Line};

use claims::{
    among, any_between, claimed_by_others, collecting_capture, counting_their_captures, men_to_win, wins_material,
};
use exchange::{
    balance_after_exchange, exchange_start, given, keeps_its_capture, makes_the_capture, premise_of,
    premise_taken_on_the_way, retaken_on_the_way, their_capture_taken_back_in_the_run, their_capture_taken_back_late,
    took, trade_start, unclaimed_threat, Claims,
};
pub use line_end::at_the_lines_end;
use line_end::LineEnd;
use premise::SetupHits;
use threat::{left_at_end, traded_itself};

/// Sets `gain` on `fires` (every fire of one line): the net where the line
/// collects, the detector's stake where it does not. `balances` are the
/// line's ([`crate::facts::balances`]).
///
/// None where the line mates: the mate is the point, and what was taken or
/// given on the way to it is not what the tactic nets (Lichess 07kQI:
/// Rxd1+ Qe1 Rxe1#, no rook won; 054S8: ...Qxf2+ Rxf2 Rxe1+ Rf1 Rexf1#,
/// neither the queen given nor the rook taken).
pub fn settle(line: &Line, balances: &[i32], fires: &mut [Fire]) {
    if line.last().mates() {
        for fire in fires {
            fire.gain = None;
        }
        return;
    }
    // The plies a sacrifice fire stands on.
    let sacrifices = fires.iter().filter(|f| f.ply < 128 && f.label.info().gives).fold(0u128, |p, f| p | 1 << f.ply);
    // The plies where a fire wins material, other than by collecting an
    // earlier fire's win (whose exchange may stop short of the next fire's).
    let wins = fires
        .iter()
        .filter(|f| f.ply < 128 && wins_material(f) && f.collects.is_none())
        .fold(0u128, |plies, f| plies | 1 << f.ply);
    let fired = fires.iter().filter(|f| f.ply < 128).fold(0u128, |plies, f| plies | 1 << f.ply);
    // The plies where a fire names the man its move takes, or gives
    // material (a sacrifice is charged what follows its move): asked only
    // of a retake by another fire, so only where fires stand on two plies.
    let named_takes = if fired.count_ones() < 2 {
        0
    } else {
        fires
            .iter()
            .filter(|f| {
                f.ply < 128
                    && (f.label.info().gives || f.stake.is_some() || {
                        let m = line.at(usize::from(f.ply)).mv();
                        m.is_capture() && men_to_win(&f.roles).contains(capture_square(m))
                    })
            })
            .fold(0u128, |plies, f| plies | 1 << f.ply)
    };
    // Asked only where a sacrifice is charged, once.
    let counting = OnceCell::new();
    let end = LineEnd { hits: SetupHits::of(line), pending: RefCell::default() };
    // Fires of one ply most often collect with the same capture.
    let mut settled = [((0, false, 0, 0), (0, GainSpan::default())); 8];
    let mut known = 0;
    for i in 0..fires.len() {
        let ply = line.at(usize::from(fires[i].ply));
        let info = fires[i].label.info();
        if info.gives {
            let claimed = claimed_by_others(fires, fires[i].ply);
            let counting =
                if claimed == 0 { 0 } else { *counting.get_or_init(|| counting_their_captures(fires, line)) };
            let (gain, span) = given(ply, balances, claimed & counting);
            (fires[i].gain, fires[i].span) = (gain, Some(span));
            continue;
        }
        if fires[i].stake.is_none() && !info.material {
            continue;
        }
        let claimed = claimed_by_others(fires, fires[i].ply);
        // The man our move takes is the fire's that names it, where there
        // is one (both uses below).
        // So is a man an earlier fire of ours names, which this move
        // collects for it (Lichess 01VBW: Ng6+ forks the f8 rook, and Nxf8+
        // takes it with a discovered attack on the queen: the discovery
        // nets the queen, not the rook again).
        let capture_named_elsewhere = ply.mv().is_capture() && {
            let taken = capture_square(ply.mv());
            let names = |f: &Fire| men_to_win(&f.roles).contains(taken);
            // This move is the capture that collects an earlier fire's win.
            let named_earlier = |f: &Fire| {
                let at = line.at(usize::from(f.ply));
                let men = men_to_win(&f.roles) & !(at.after().board().kings());
                collecting_capture(at, men).is_some_and(|c| c.index() == ply.index())
            };
            !names(&fires[i])
                && fires.iter().any(|f| {
                    f.label != fires[i].label
                        && wins_material(f)
                        && ((f.ply == fires[i].ply && names(f))
                            || (f.ply < fires[i].ply && fires[i].collects.is_none() && named_earlier(f)))
                })
        };
        // Whether our move goes on with a run on its square that an earlier
        // fire started by taking a man it names: the run is that fire's
        // (Lichess 07gRJ: ...Nxh3+ Bxh3 ...Qxh3 is the first fire's pawn,
        // and the double attack of ...Qxh3 nets what follows: 4, not 5).
        // The cheap tests first: a win earlier, their capture on our square.
        let earlier_run = fires[i].collects.is_none()
            && wins & ((1u128 << fires[i].ply.min(127)) - 1) != 0
            && ply.mv().is_capture()
            && ply.previous().is_some_and(|theirs| theirs.mv().is_capture() && theirs.mv().to() == ply.mv().to())
            && {
                let run = exchange_start(ply);
                run.index() < ply.index()
                    && among(wins, run)
                    && fires.iter().any(|f| {
                        usize::from(f.ply) == run.index()
                            && wins_material(f)
                            && men_to_win(&f.roles).contains(capture_square(run.mv()))
                    })
            };
        let gives_on_the_move = fires.iter().any(|f| f.ply == fires[i].ply && f.label.info().gives);
        let counting =
            if gives_on_the_move { *counting.get_or_init(|| counting_their_captures(fires, line)) } else { 0 };
        let wins_on_the_move =
            fires.iter().any(|f| f.ply == fires[i].ply && f.label != fires[i].label && wins_material(f));
        let unclaimed_threat = unclaimed_threat(ply, fires);
        let later_win =
            gives_on_the_move && fires.iter().any(|f| f.ply > fires[i].ply && f.collects.is_none() && wins_material(f));
        let (settled_fires, rest) = fires.split_at_mut(i);
        let fire = &mut rest[0];
        // Kings never count, theirs: our king may stand where it took.
        let board = ply.after().board();
        let men = men_to_win(&fire.roles) & !(board.kings() & board.by_color(!line.solver()));
        // Each exchange (its capture, the tactics' plies its checks stop
        // before, if it runs through them, where it began) is settled once.
        let mut balance_after = |capture: Cursor, stop_at: bool, start: Cursor| {
            let key = (capture.index(), stop_at, start.index(), claimed);
            if let Some(&(_, settled)) = settled[..known].iter().find(|&&(k, _)| k == key) {
                return settled;
            }
            let balance = balance_after_exchange(
                capture,
                stop_at,
                Claims { claimed, named_takes, sacrifices },
                premise_of(start),
                &end,
                balances,
            );
            if known < settled.len() {
                settled[known] = (key, balance);
                known += 1;
            }
            balance
        };
        (fire.gain, fire.span) = match collecting_capture(ply, men) {
            // Taken only by a later sacrifice: the loss is the sacrifice's,
            // and the tactic won nothing of its own (Lichess 059XJ: Qd8+
            // forks, and Qxf6+ Kxf6 gives the queen for the knight: 0).
            Some(capture) if capture.index() > ply.index() && among(sacrifices, capture) => (Some(0), None),
            Some(capture) => {
                // A tactic that sets up a later capture stops where another
                // tactic's capture comes next; one that is the capture nets
                // its own exchange.
                let stop_at = capture.index() > ply.index();
                let start = match unclaimed_threat {
                    Some(threat) if capture.index() == ply.index() => threat,
                    _ if capture.index() == ply.index() => {
                        trade_start(ply, wins, fired).unwrap_or_else(|| exchange_start(ply))
                    }
                    _ => exchange_start(ply),
                };
                // A run that starts with their capture of the man a sacrifice
                // gave is counted from after it: the sacrifice is charged
                // that man (Lichess 08Ao7: Re3 is the sacrifice's -5, fxe3
                // takes it, and the Nxe3+ fork wins the queen: 7, not 2).
                // So where the run starts with the sacrifice's own capture
                // (Lichess 00fJC: Rxc3+ is the sacrifice's -4, bxc3 takes
                // the rook, and the Qxc3+ fork wins the a5 rook: 6, not 1).
                let start = match start.previous() {
                    Some(given)
                        if !start.is_solver() && among(sacrifices, given) && given.mv().to() == start.mv().to() =>
                    {
                        start.reply().unwrap_or(start)
                    }
                    _ if start.is_solver() && start.index() < ply.index() && among(sacrifices, start) => start
                        .reply()
                        .filter(|taken| taken.mv().to() == start.mv().to())
                        .and_then(|taken| taken.reply())
                        .unwrap_or(start),
                    _ => start,
                };
                // Where another fire names the man our move took and no one
                // takes it back, this one counts from after the move
                // (Lichess 09KlA: gxh6 takes the queen, the hanging piece's,
                // and unmasks the g8 rook on the g3 rook, which is traded:
                // the discovery nets 0, not 9).
                // The man that took may fall in this fire's own exchange,
                // having made its capture on our next move (Lichess 08i3m:
                // Nxe7+ takes the pawn, the hanging piece's, and forks; Nxf5
                // gxf5 trades the knight for the queen: the fork nets 6, the
                // pawn is not its).
                let keeps = || keeps_its_capture(ply) || makes_the_capture(ply, capture);
                // So where its move goes on with an earlier fire's run.
                let theirs = capture_named_elsewhere || (earlier_run && start.index() < ply.index());
                let from = if theirs && keeps() { ply.index() + 1 } else { start.index() };
                // Our take-back of their capture, late or in our run, answers
                // it: asked of a capture counted from its own move alone.
                let answered = if [capture.index(), start.index(), from] == [ply.index(); 3] {
                    their_capture_taken_back_late(ply, &end.hits, sacrifices, settled_fires)
                        .or_else(|| their_capture_taken_back_in_the_run(ply, &end.hits, sacrifices, settled_fires))
                        .map_or(0, |theirs| captured_value(theirs.mv()))
                } else {
                    0
                };
                let (balance, span) = balance_after(capture, stop_at, start);
                let net = balance - balances[from]
                    + premise_taken_on_the_way(ply, capture, &fire.roles, &end.hits)
                    + retaken_on_the_way(ply, capture, settled_fires)
                    - answered;
                // What a sacrifice on the move gives up is the sacrifice's:
                // a fire whose own exchange does not repay it nets what it
                // wins besides (Lichess 06tA5: Rb7 gives the rook, and the
                // deflection wins the d6 pawn: 1, not -4); so does one whose
                // moving man the answer takes, where no other tactic wins
                // before its capture (06WdM: ...Nf3+ Rxf3, and the fork's
                // ...Re1+ Qxe1 ...Qxe1+: 4, not 1).
                let gave_the_mover = || {
                    ply.reply().is_some_and(|r| r.mv().is_capture() && r.mv().to() == ply.mv().to())
                        && from <= ply.index()
                        && ply.later().take_while(|at| at.index() <= capture.index()).all(|at| !among(claimed, at))
                };
                let net = if gives_on_the_move && (net < 0 || gave_the_mover()) {
                    net - given(ply, balances, claimed & counting).0.map_or(0, i32::from)
                } else {
                    net
                };
                (i16::try_from(net).ok(), Some(GainSpan { from: from as u16, ..span }))
            }
            // A threat met by the line's end, or on one man that may then
            // step away, wins what the escape leaves and what its move took,
            // where no other fire of the move names that man or gives
            // material. Where a sacrifice on the move is charged and a later
            // fire of ours wins material, what the line's end leaves is that
            // fire's, its exchange running there (Lichess 038Be: ...Nxc3
            // gives the queen, the e4 rook escapes by taking it, and the
            // loose h4 rook is Ne2+'s: 0, not 2).
            None if let Some(left) = fire.stake.and_then(|_| left_at_end(ply, men)) => {
                let left = if later_win { 0 } else { left };
                let gain = left + if wins_on_the_move || gives_on_the_move { 0 } else { took(ply, balances) };
                let span = GainSpan { from: fire.ply, through: line.last().index() as u16, searched: true };
                (i16::try_from(gain).ok(), Some(span))
            }
            // Where the line ends with our check, whose answers the capture
            // search reads, the line from the move says what came of the
            // threat: a threatened man that took a man of ours met it by
            // trading (Lichess 07b7A: Nxg5 unmasks the g6 queen on the c2
            // queen, which takes it, Nxf3+, and hxg6 is to come: the bishop,
            // 3), and a threat no escape meets is carried out there or
            // costs us the checker (0C9wz: hxg7+ unmasks the h1 rook on the
            // pinned queen, and gxf8=Q+ and Rxh7 follow: 16, not 9; 00UB0:
            // Ng5+ unmasks the bishop on the queen, and hxg5 comes first:
            // 6, not 9), where no other fire of the move wins or gives
            // material and no later fire claims a capture on the way.
            None if fire.stake.is_some()
                && line.last().gives_check()
                && (traded_itself(ply, men)
                    || line.last().is_solver()
                        && !(gives_on_the_move || capture_named_elsewhere)
                        && !any_between(claimed, ply.index() + 1, 128)) =>
            {
                let (balance, span) = balance_after(line.last(), false, ply);
                (i16::try_from(balance - balances[ply.index()]).ok(), Some(GainSpan { from: fire.ply, ..span }))
            }
            None => (fire.stake, None),
        };
    }
}
