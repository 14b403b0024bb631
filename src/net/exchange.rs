//! The exchange a fire starts: where its count begins, where it ends, and
//! what a capture of theirs along the way charges it.

use std::cell::OnceCell;

use shakmaty::{attacks, Bitboard, CastlingMode, Chess, EnPassantMode, FromSetup, Position, Square};

use crate::board::{attacked_by, attackers, attacks_from, value};
use crate::facts::{capture_square, captured_value};
use crate::fire::{Fire, GainSpan};

use crate::line::Cursor;
use crate::role::{RoleName, Roles};

use super::claims::{among, any_between, men_to_win, moves_material, wins_material};
use super::line_end::{nets_after, LineEnd};
use super::men::{hanging, won_by_taking};
use super::premise::SetupHits;
use super::search::{best_answer_to_check, best_captures, best_captures_on, first_targets};

/// Where the exchange a capture belongs to began: a capture that takes
/// back on the square where the opponent just captured or promoted
/// (itself perhaps taking back ours) is counted from the first move of
/// that run on the square, the key move's at the earliest (the setup move
/// is the puzzle's premise). A queen taken the move it was made is a pawn
/// won (Lichess 04Fg4: d1=Q+ Kxd8... the king takes a pawn, not a queen).
pub(super) fn exchange_start(ply: Cursor) -> Cursor {
    let key = ply.line().key_ply;
    if !ply.mv().is_capture() {
        return ply;
    }
    ply.run_before().take_while(|at| at.index() >= key).last().unwrap_or(ply)
}

/// Where a capture of ours at `ply` answers one of theirs elsewhere, of a
/// man worth the same, that itself answered a quiet move of ours, a
/// capture on which a fire wins material, not a payoff (so that fire's
/// exchange runs through both; Lichess 01q7V: the fork's exchange stops
/// before ...Rxc6, which still wins the bishop back: 3), or a capture on
/// which no fire (`fired`) is: their capture, from before which the trade
/// is counted (Lichess 02wgI: Nxe5 wins the knight, ...Bxe2 Nxd7 trades
/// the queens on two squares: 0, not 9; 0AzTR: Bxe7 ...Bxd1 Bxd8, the
/// same). So for a payoff (09d1o: ...d3 Rxe5 ...dxc2+ Kxc2 ...Bxe5, the
/// queens traded and the rook won back: 4, not 13), and where we take
/// their man back later (02qd6: Bxf6 ...Bxf3 Bxd8 ...Rxd8 gxf3: the queens
/// traded, 0, and gxf3 the bishop's, not 9 and 3). Or, where theirs took
/// back such a capture of ours (not itself taking back one since the key
/// move), ours (08AfH: ...Qxe3+ Rxe3 ...Bxh6, the bishop: 3; 05mlq: Qxf2
/// takes back the setup move's rook, ...Nxf2 Rxd5: 5, less the pawn to
/// come).
pub(super) fn trade_start(ply: Cursor, wins: u128, fired: u128) -> Option<Cursor> {
    let m = ply.mv();
    let theirs = ply
        .previous()
        .filter(|p| p.index() > ply.line().key_ply && m.is_capture() && p.mv().is_capture() && p.mv().to() != m.to())?;
    let ours =
        theirs.previous().filter(|ours| !ours.mv().is_capture() || among(wins, *ours) || !among(fired, *ours))?;
    let square = theirs.mv().to();
    // Where it answers a capture, a late take-back of theirs is no answer:
    // ours takes a man left loose (after a quiet move it is their answer
    // to its threat, 089nL).
    let retakes = ours.mv().is_capture() && takes_back_late(theirs);
    let even = captured_value(theirs.mv()) == captured_value(m);
    // Where their capture takes back a capture of ours no fire names, the
    // trade is counted from before ours: what it took is the trade's.
    if even
        && ours.mv().is_capture()
        && ours.mv().to() == square
        && !among(fired, ours)
        && exchange_start(ours).index() == ours.index()
    {
        return Some(ours);
    }
    (even && continues_the_exchange(theirs) && ours.mv().to() != square && !retakes).then_some(theirs)
}

/// Whether their capture `theirs` takes back, late, a man of ours that
/// captured on its square since the key move and stood there since, with a
/// man that stood ready since: that exchange was over (03E8w: Bxd5
/// ...Rxf1+ Rxf1 ...exd5, and Bxe7 takes a loose bishop: 3). Not where a
/// move of theirs since brought the man or opened its line (05RTW: e5, then
/// exd6; 0Ar3q: Bxh7 opens the d-file for Qxd4).
fn takes_back_late(theirs: Cursor) -> bool {
    let (square, Some(from)) = (theirs.mv().to(), theirs.mv().from()) else { return false };
    let line_of_fire = attacks::between(from, square).with(from);
    // The last move since the key move that touched the square, or that
    // brought their man or opened its line.
    std::iter::successors(theirs.previous(), |at| at.previous())
        .take_while(|at| at.index() >= theirs.line().key_ply)
        .find(|at| {
            let m = at.mv();
            m.to() == square
                || m.from() == Some(square)
                || (!at.is_solver() && (m.to() == from || m.from().is_some_and(|f| line_of_fire.contains(f))))
        })
        .is_some_and(|at| at.is_solver() && at.mv().is_capture() && at.mv().to() == square)
}

/// The plies other fires of the line claim, as an exchange's count reads
/// them.
#[derive(Clone, Copy, Debug)]
pub(super) struct Claims {
    /// Where another tactic of ours wins or gives material.
    pub(super) claimed: u128,
    /// Where a fire names the man its move takes, gives material or has a
    /// stake.
    pub(super) named_takes: u128,
    /// Where a sacrifice fire stands.
    pub(super) sacrifices: u128,
}

/// The material balance once the exchange that `capture` opens is over:
/// the captures and promotions that follow it in the line, and the
/// opponent's capture back after a check in between
/// ([`resumed_after_a_check`]), where `stop_at_claims` (for a tactic that
/// set up `capture`) up to a capture of ours on a ply another tactic
/// claims, other than our retake of their capture (Lichess 08hfz, Rxg6+
/// Qxg6 Qxg6+ wins the queen, and the second fork's rook is its own). A quiet move ends it, our check and its answer
/// too (Lichess 0AxTx: ...Qh4+ Kd2 ...Qxf4+ Ke2, and the interference nets
/// f4, 1: what ...Qf2+ wins next is no part of it); where the
/// line stops with the other side to answer, or goes on with a desperado
/// of theirs ([`continues_the_exchange`]), what that side still wins by
/// captures ([`best_captures`]) is taken off, of the men left hanging
/// since `premise` (the position before the key move).
pub(super) fn balance_after_exchange(
    capture: Cursor,
    stop_at_claims: bool,
    claims: Claims,
    premise: &Chess,
    end: &LineEnd,
    balances: &[i32],
) -> (i32, GainSpan) {
    // An opponent's capture elsewhere that another tactic of ours takes
    // back at once, naming the man it takes, is that tactic's trade, cut
    // as a desperado's is (Lichess 08B8I: gxf5 wins the bishop; ...Qxf6
    // Rxf6 is the next fire's: 3, not 9). Not where the tactic of the
    // retake names other men: the trade is then no fire's, and belongs to
    // the exchange (0758S: Bxf6 wins the queen, ...Nxg3 takes ours, and
    // Rxg3's pin names g7: 3, not 9).
    let Claims { claimed, named_takes, sacrifices } = claims;
    let claimed_at = |at: Cursor| among(claimed, at);
    let retaken_by_another = |at: Cursor| {
        at.previous().is_some_and(|ours| ours.mv().to() != at.mv().to())
            && at.reply().is_some_and(|r| {
                r.mv().is_capture() && r.mv().to() == at.mv().to() && claimed_at(r) && among(named_takes, r)
            })
    };
    // A promotion is material like a capture: the pawn a capture let
    // through belongs to the exchange, unless another tactic of ours takes
    // the new man at once, naming it, as a capture elsewhere would be
    // (Lichess 05Shd: ...Nxf2, a8=Q+ ...Kxa8 is the next fire's: the fork
    // nets 2, not -6). A check of theirs starts something else (Lichess
    // 0BNSS: f6+ Nxf6 Qxe5 wins the pawn back, and ...Bc6+ starts the next
    // combination).
    // Our retake of their capture on its square is no other tactic's
    // trade, a payoff's neither: it goes on (Lichess 02UDs: Nd6 unmasks
    // the f3 rook on f7, and Nxf7+ ...Rxf7 Rxf7 nets the pawn and the rook
    // for the knight, 3, not -2). Not a sacrifice, which is charged what
    // follows its move.
    let retake = |at: &Cursor| {
        at.previous().is_some_and(|theirs| theirs.mv().is_capture() && theirs.mv().to() == at.mv().to())
            && !among(sacrifices, *at)
    };
    // So our capture of the man their recapturer stopped guarding as it
    // took (Lichess 0Agob: Rxe8+ ...Qxe8 Qxf6, the queen's guard of f6 gone).
    let let_go = |at: &Cursor| {
        at.previous().is_some_and(|theirs| {
            theirs.mv().is_capture()
                && theirs
                    .mv()
                    .from()
                    .is_some_and(|from| attacks_from(theirs.before().board(), from).contains(at.mv().to()))
        })
    };
    let goes_on = |at: &Cursor| match stop_at_claims {
        true if at.is_solver() && claimed_at(*at) && !retake(at) && !let_go(at) => false,
        _ => {
            (at.mv().is_capture() && (at.is_solver() || (continues_the_exchange(*at) && !retaken_by_another(*at))))
                || (at.mv().is_promotion() && !retaken_by_another(*at))
        }
    };
    let mut last = capture;
    loop {
        if let Some(next) = last.reply().filter(goes_on) {
            last = next;
        } else if let Some(end) = check_answered_as_the_line_ends(last) {
            // The line's end, searched from there.
            last = end;
            break;
        } else if let Some(resumed) = resumed_after_a_check(last).or_else(|| taken_after_their_check(last)) {
            last = resumed;
            // Where another tactic of ours takes next, what it takes is its
            // own (Lichess 0AfWu: ...gxf4 takes the rook, Qc3+ ...Kg8 traps
            // the f8 knight, and exf4 ...Qxf8: the rook for the pawn, 4).
            if last.reply().is_some_and(claimed_at) {
                break;
            }
        } else {
            break;
        }
    }
    let solver = capture.line().solver();
    let settled = balances[last.index() + 1];
    // A desperado ends the exchange as the line's end would: what our last
    // capture left en prise is still taken, the desperado's man aside, the
    // next fire's (Lichess 0A74b: ...Bxd1 takes the queen, Bxf7+ Kxf7 is
    // a trade of its own, and Rxd1 takes the bishop back).
    let desperado = last.reply().filter(|r| r.mv().is_capture() && !r.is_solver());
    if last.reply().is_some() && desperado.is_none() {
        return (settled, span(capture, last, false));
    }
    let hits = &end.hits;
    // Several fires' exchanges often end on the same move against the same
    // premise: searched once.
    let key = (last.index(), std::ptr::from_ref(premise) as usize);
    let known = end.pending.borrow().iter().find(|&&(at, from, _)| (at, from) == key).map(|&(.., net)| net);
    // Where we take the desperado back with check, its side must answer
    // that check before it may take what our capture left en prise
    // (Lichess 01uDg: Nxf8, ...Nxf6 opens the queen on f8, and Qxf6+
    // leaves no time to take it: 5, not 2).
    let checked = desperado.and_then(|d| d.reply()).filter(|r| r.gives_check());
    let pending = known.unwrap_or_else(|| match desperado.and_then(|d| d.mv().from()) {
        // The retaking man is the next fire's.
        Some(_) if let Some(retake) = checked => {
            let (pos, square) = (retake.after(), retake.mv().to());
            let attacks = attacked_by(pos.board(), pos.turn());
            let targets =
                first_targets(pos.board(), pos.turn(), square, premise.board(), hits, attacks).without(square);
            best_answer_to_check(pos, targets, premise).max(0)
        }
        Some(from) if !last.gives_check() => {
            // The position with their desperado's man gone, where it is a
            // legal one: no first capture of theirs there that lets us
            // mate is played (Lichess 042DR: ...Nxg3+ hxg3 ...Qxf3, and
            // gxf3 meets ...Rh2#, which is why they played Qxe2).
            let mut setup = last.after().to_setup(EnPassantMode::Legal);
            setup.board.discard_piece_at(from);
            let board = setup.board.clone();
            match Chess::from_setup(setup, CastlingMode::Standard) {
                Ok(pos) => best_captures(&pos, last.mv().to(), premise, hits),
                Err(_) => best_captures_on(&board, last.after().turn(), last.mv().to(), premise, hits),
            }
        }
        _ => nets_after(last, premise, hits),
    });
    if known.is_none() {
        end.pending.borrow_mut().push((key.0, key.1, pending));
    }
    let balance = if last.after().turn() == solver { settled + pending } else { settled - pending };
    (balance, span(capture, last, true))
}

/// The span of an exchange from `first` through `last` (`from` set by the
/// caller, which knows where the count starts).
fn span(first: Cursor, last: Cursor, searched: bool) -> GainSpan {
    GainSpan { from: first.index() as u16, through: last.index() as u16, searched }
}

/// Whether the opponent's capture `at` goes on with the exchange our move
/// before it made: it takes back on that move's square, or it is no
/// desperado. A desperado (a man we attack, sold for a lesser man, which
/// we take back, the line's captures ending there) is a trade of its own,
/// the next fire's (Lichess 0COYv: ...Rxe2 wins the rook; Nxf6+ gxf6, the
/// trapped knight sold for a pawn, is not the rook's). A man sold where
/// its side takes back (09yAZ: ...Qxe1+ Qxe1 Rxe1+), or whose capture
/// opens the way to another (0Af0x: Nxh4+ gxh4 Qxd3, a discovered attack),
/// belongs to the exchange.
fn continues_the_exchange(at: Cursor) -> bool {
    let (Some(ours), Some(from)) = (at.previous(), at.mv().from()) else { return true };
    let m = at.mv();
    let on_its_square = |c: Cursor| c.mv().is_capture() && c.mv().to() == m.to();
    let before = at.before().board();
    let (us, them) = (!at.before().turn(), at.before().turn());
    // Nor does it open a line of theirs onto a man of ours (Lichess 04Mis:
    // Bxh7+ Kxh7 lets the e1 rook at the bishop on e6).
    let opens_a_line = |taken: Cursor| {
        let after = taken.after().board();
        (after.by_color(us) & attacked_by(after, them) & !attacked_by(before, them)).any()
    };
    let desperado = captured_value(m) < value(m.role())
        && attackers(before, from, us, before.occupied()).any()
        && at.reply().is_some_and(|taken| {
            on_its_square(taken) && !taken.reply().is_some_and(|c| c.mv().is_capture()) && !opens_a_line(taken)
        });
    ours.mv().to() == m.to() || !desperado
}

/// The position whose hanging men the capture searches of an exchange
/// starting at `start` leave alone: the one before the key move (the
/// puzzle's premise), or before the last desperado of theirs since that
/// answers a capture of ours, whose cut exchange has charged what hung
/// there (Lichess 0A74b: ...Bxd1 is charged the bishop Rxd1 takes back;
/// Kxf7 after Bxf7+ is not). A desperado after a quiet move of ours cuts
/// no exchange, and what hung before it is still to be charged (02370:
/// Bb5+ opens the d-file on our queen, ...Kd6 Qxc7+ ...Kxc7, and Rxd4
/// follows: -1, not 8).
pub(super) fn premise_of(start: Cursor<'_>) -> &Chess {
    let line = start.line();
    line.key()
        .later()
        .take_while(|at| at.index() <= start.index())
        .filter(|&at| !at.is_solver() && at.mv().is_capture() && !continues_the_exchange(at))
        .filter(|&at| at.previous().is_some_and(|ours| ours.mv().is_capture()))
        .last()
        .map_or(line.key().before(), |desperado| desperado.before())
}

/// The opponent's capture that takes the exchange up again after their
/// check in between: the move after our capture `last` checks, we answer,
/// and they capture on the square we captured on (Lichess 05gES: ...Qxd8
/// Ne7+ Bxe7 Rxd8 Bxd8, the queen lost to the zwischenzug belongs to the
/// exchange). A check of ours in between is a tactic of its own (a fork
/// that wins the man back is the fork's).
fn resumed_after_a_check(last: Cursor) -> Option<Cursor> {
    let check = last.reply().filter(|c| !c.is_solver() && c.gives_check())?;
    let resumed = check.reply()?.reply()?;
    let square = last.mv().to();
    (last.mv().is_capture() && resumed.mv().is_capture() && resumed.mv().to() == square).then_some(resumed)
}

/// Our answer to their quiet check after our capture `last`, where the
/// line ends with it, taking nothing: the exchange is over, and what they
/// can still take there is the line's end (Lichess 095vY: ...Rxa7 Qb8+
/// ...Kf7, and Qxa7 takes the rook: -2, not 3; 02lVn: ...Rxe7 Rc8+ ...Re8
/// blocks, and Rxe8+ takes the rook: 4, not 9).
///
/// So too where `last` is their capture with check, part of the exchange,
/// and our answer ends the line: what they take next is still to come
/// (Lichess 044Gb: ...Bxf2+ forks, Kf1 ...Bxe1 exf7+ ...Kf8, and Kxe1
/// takes the bishop: 2, not 5).
fn check_answered_as_the_line_ends(last: Cursor) -> Option<Cursor> {
    if !last.mv().is_capture() {
        return None;
    }
    let check = if last.is_solver() {
        last.reply().filter(|c| !c.is_solver() && !c.mv().is_capture() && c.gives_check())?
    } else if last.gives_check() {
        last
    } else {
        return None;
    };
    check.reply().filter(|answer| answer.reply().is_none() && !answer.mv().is_capture())
}

/// The opponent's capture after its capture with check (`last`) and our
/// answer, which took nothing, of a man of ours that stood on its square
/// since the key move: the check forced the answer, so the capture belongs
/// to the exchange (Lichess 08Erp: ...Rxh5 wins the trapped queen, Bxh5+
/// Kf8 dxe7+ ...Qxe7 takes the bishop the setup move hit: 3, not 5). Not a
/// man moved since, as a block (0CCFX: ...Rf7 Qxf7+ ...Bxf7, the hanging
/// queen's exchange).
fn taken_after_their_check(last: Cursor) -> Option<Cursor> {
    if last.is_solver() || !last.mv().is_capture() || !last.gives_check() {
        return None;
    }
    let answer = last.reply()?;
    let taken = answer.reply().filter(|taken| !answer.mv().is_capture() && taken.mv().is_capture())?;
    stood_since_key(taken, capture_square(taken.mv())).then_some(taken)
}

/// Whether our man on `square` stood there since the key move: no move of
/// ours before `at` since then left or reached it.
fn stood_since_key(at: Cursor, square: Square) -> bool {
    !at.since_key().any(|by| by.is_solver() && (by.mv().from() == Some(square) || by.mv().to() == square))
}

/// What the move at `ply` gives up with the opponent's answer, as the
/// sacrifice detector reads it (below zero): a sacrifice's `gain`, which
/// the fire whose win repays it does not take off its own (Lichess 029wQ:
/// Qxe5 dxe5 gives 6, the Nf6+ fork that wins the queen back nets 9, the
/// line 3). `claimed`: the plies where
/// other fires count a capture in their own exchange
/// ([`counting_their_captures`](super::claims::counting_their_captures)).
pub(super) fn given(ply: Cursor, balances: &[i32], claimed: u128) -> (Option<i16>, GainSpan) {
    let mut last = ply.reply().unwrap_or(ply);
    // Where the answer captures, the captures that follow on its square
    // are the sacrifice's too, unless another tactic of ours takes there
    // and so counts the run as its own (Lichess 00vf5: Ndb5 axb5 Nxb5, a
    // knight for a pawn: -2; 07KyR: Re7 Bxe7 Rxe7 Qxe7 Qxe7, the last the
    // hanging queen's); not a threat never carried out (Lichess 0AmHt:
    // Nf6+ ...gxf6 exf6, whose discovered attack on the queen counts
    // nothing of the run: -2, not -3).
    if last.index() > ply.index() && last.mv().is_capture() {
        let square = last.mv().to();
        let run = || last.later().take_while(|at| at.mv().is_capture() && at.mv().to() == square);
        if !run().any(|at| at.is_solver() && among(claimed, at)) {
            last = run().last().unwrap_or(last);
        }
    }
    // A sacrifice that takes back where they just took counts from before
    // their capture: the trade on the square is even, and what the take-back
    // gives up is the sacrifice (Lichess 01Isj: ...Rxe1+ Rxe1 leaves the b6
    // bishop to cxb6: -3, not 2).
    let start = exchange_start(ply);
    let net = balances[last.index() + 1] - balances[start.index()];
    (i16::try_from(net).ok(), span(start, last, false))
}

/// Whether the man that captured on the move at `ply` keeps what it took:
/// the opponent does not take back at once, nor later without our taking
/// back on its square in turn, and it is not left en prise as the line
/// ends (Lichess 03K3h: Bxc3 takes the rook and falls seven moves on, the
/// exchange's and not a man won apart from the rest of the line).
pub(super) fn keeps_its_capture(ply: Cursor) -> bool {
    let mut man = Bitboard::from_square(ply.mv().to());
    let mut later = ply.later().peekable();
    while let Some(at) = later.next() {
        let m = at.mv();
        if at.is_solver() {
            man = at.moves_along(man);
        } else if m.is_capture() && man.contains(m.to()) {
            // Taken: kept only where we take back there at once, the man
            // that does so ours to follow.
            if !later.peek().is_some_and(|ours| ours.mv().is_capture() && man.contains(ours.mv().to()))
                || at.index() == ply.index() + 1
            {
                return false;
            }
        }
    }
    let end = ply.line().last().after();
    end.turn() == ply.line().solver() || !won_by_taking(end.board(), end.turn(), man).any()
}

/// What the opponent takes, between the fire's move at `ply` and its
/// capture, of our men that stood hanging before the key move (attacked
/// and undefended; not put en prise by the setup move, `setup_hits`, which
/// the line's end shares), have not moved since
/// and play no part in the fire (on its `roles`' squares: a checker
/// given up is the tactic's price): the puzzle's premise, not the
/// tactic's loss (Lichess
/// 01FCo: Nc6+ forks, and ...Kxb7 takes the pawn the king attacked
/// already: the fork's queen for the knight, 6, not 5).
pub(super) fn premise_taken_on_the_way(ply: Cursor, capture: Cursor, roles: &Roles, setup_hits: &SetupHits) -> i32 {
    // Most fires collect on their own move: no capture of theirs between.
    if capture.index() <= ply.index() + 1 {
        return 0;
    }
    let parts = OnceCell::new();
    let plays_a_part = |square: Square| {
        parts.get_or_init(|| roles.iter().fold(Bitboard::EMPTY, |parts, (_, squares)| parts | squares)).contains(square)
    };
    ply.later()
        .take_while(|at| at.index() < capture.index())
        .filter(|at| !at.is_solver() && at.mv().is_capture() && !plays_a_part(capture_square(at.mv())))
        .filter(|&at| takes_premise(at, setup_hits))
        .map(|at| captured_value(at.mv()))
        .sum()
}

/// What their late take-backs between the fire's move and its collecting
/// `capture` take of the men our captures on earlier fires' moves put
/// there, where such a fire (among `settled`, the fires before this one)
/// won material and so counts the take-back in its exchange already
/// (Lichess 0AfWu: ...gxf4 takes the rook, and exf4 after Qc3+ ...Kg8 is
/// that exchange's; the trap of ...Kg8 nets the knight ...Qxf8 takes, 3,
/// not 2).
pub(super) fn retaken_on_the_way(ply: Cursor, capture: Cursor, settled: &[Fire]) -> i32 {
    // Most fires collect on their own move: no capture of theirs between.
    if capture.index() <= ply.index() + 1 || settled.iter().all(|f| f.gain.is_none_or(|gain| gain <= 0)) {
        return 0;
    }
    ply.later()
        .take_while(|at| at.index() < capture.index())
        .filter(|&at| !at.is_solver() && at.mv().is_capture() && takes_back_late(at))
        .filter(|at| {
            let square = at.mv().to();
            std::iter::successors(at.previous(), |p| p.previous())
                .find(|p| p.mv().to() == square || p.mv().from() == Some(square))
                .is_some_and(|ours| {
                    ours.index() < ply.index()
                        && settled.iter().any(|f| {
                            usize::from(f.ply) == ours.index()
                                && f.collects.is_none()
                                && f.gain.is_some_and(|gain| gain > 0)
                                && wins_material(f)
                        })
                })
        })
        .map(|at| captured_value(at.mv()))
        .sum()
}

/// Where our capture at `ply` takes back, late, the man of theirs that
/// took one of ours on its square since the key move, moves elsewhere
/// between (an in-between move of ours and its answer), that capture of
/// theirs: the exchange on the square began there, and our take-back wins
/// only what it takes beyond what it answers (Lichess 02rFZ: Qa4 ...Nxc4
/// exd7 ...Qxd7 Qxc4 takes the knight back for the bishop: 0, not 3).
///
/// Only where their capture answered a quiet move of ours and took what
/// the line risked ([`took_what_the_line_risked`]), no fire before ours
/// names the square with a gain (a counter-threat's man left en prise,
/// 05KTd; a fork's target that took, 0BTeI: that fire's), and no fire of
/// ours between won as much as it took. One that answers a capture of
/// ours, or that a fire between pays back, is a trade on two squares,
/// counted there (02gWU: Rxd1 ...Bxf6 Rxf1+ ...Kxf1 gxf6, the queens
/// traded and the bishop won: 3; 0AOzw: Qh1+ ...Rxh1 Bxd5+ takes the queen
/// back, and Bxh1 the rook: 5).
pub(super) fn their_capture_taken_back_late<'a>(
    ply: Cursor<'a>,
    setup_hits: &SetupHits,
    sacrifices: u128,
    settled: &[Fire],
) -> Option<Cursor<'a>> {
    let square = ply.mv().to();
    let key = ply.line().key_ply;
    let theirs = std::iter::successors(ply.previous(), |at| at.previous())
        .take_while(|at| at.index() > key)
        .find(|at| at.mv().to() == square || at.mv().from() == Some(square))?;
    let m = theirs.mv();
    let lost = captured_value(m);
    let answered_quiet_move = theirs.index() + 1 < ply.index()
        && !theirs.is_solver()
        && m.is_capture()
        && m.to() == square
        && theirs.previous().is_some_and(|ours| !ours.mv().is_capture());
    (answered_quiet_move
        && !settled.iter().any(|f| {
            let at = usize::from(f.ply);
            let names_it = f.gain.is_some() && f.roles.iter().any(|(_, squares)| squares.contains(square));
            at < ply.index()
                && (names_it || (at > theirs.index() && f.gain.is_some_and(|gain| i32::from(gain) >= lost)))
        })
        && took_what_the_line_risked(theirs, setup_hits, sacrifices))
    .then_some(theirs)
}

/// Whether their capture at `theirs` took a man of ours that the line
/// risked, not one it gave or the puzzle's premise: the man stood on its
/// square since before the key move (no move of the line offered it), no
/// sacrifice of the line came before (the man is then the sacrifice's
/// loss), the capture is no late take-back of a capture of ours, and the
/// man did not hang before the key move.
fn took_what_the_line_risked(theirs: Cursor, setup_hits: &SetupHits, sacrifices: u128) -> bool {
    let key = theirs.line().key_ply;
    stood_since_key(theirs, theirs.mv().to())
        && !any_between(sacrifices, key, theirs.index())
        && !takes_back_late(theirs)
        && !takes_premise(theirs, setup_hits)
}

/// Where their capture just before our capture at `ply` took a man of ours
/// elsewhere, worth more than anything our move before it took, and the
/// run of captures our move starts takes their man back there: that
/// capture, which the run answers (Lichess 0BuQl: Nxf6 ...Qxf3 takes the
/// queen, and Nxe8+ ...Rxe8 gxf3 takes it back: 2, not 11). Not where it
/// takes back ours, where a fire before ours names that man as one to win
/// or as threatened, nor where it took what the line did not risk
/// ([`took_what_the_line_risked`]).
pub(super) fn their_capture_taken_back_in_the_run<'a>(
    ply: Cursor<'a>,
    setup_hits: &SetupHits,
    sacrifices: u128,
    settled: &[Fire],
) -> Option<Cursor<'a>> {
    let key = ply.line().key_ply;
    let theirs = ply
        .previous()
        .filter(|theirs| theirs.index() > key && theirs.mv().is_capture() && theirs.mv().to() != ply.mv().to())?;
    let (m, there) = (theirs.mv(), theirs.mv().to());
    let lost = captured_value(m);
    let taken_back = || {
        ply.later()
            .take_while(|at| at.mv().is_capture() && at.mv().from() != Some(there))
            .any(|at| at.is_solver() && at.mv().to() == there)
    };
    (theirs.previous().is_some_and(|ours| captured_value(ours.mv()) < lost)
        && theirs.run_before().next().is_none()
        && taken_back()
        && !settled.iter().any(|f| {
            usize::from(f.ply) < ply.index()
                && f.gain.is_some()
                && (men_to_win(&f.roles) | f.roles.get(RoleName::threatened)).contains(there)
        })
        && took_what_the_line_risked(theirs, setup_hits, sacrifices))
    .then_some(theirs)
}

/// Whether their capture at `at` takes a man of ours that is the puzzle's
/// premise: it stood hanging before the key move (attacked and
/// undefended) and on its square since, and the setup move did not put it
/// en prise ([`setup_hits`](super::premise::setup_hits)), which would make it the puzzle's business.
fn takes_premise(at: Cursor, setup_hits: &SetupHits) -> bool {
    let line = at.line();
    let square = capture_square(at.mv());
    stood_since_key(at, square)
        && hanging(line.key().before().board(), !line.solver(), Bitboard::from_square(square)).any()
        && !setup_hits.get().contains(square)
}

/// Whether the man that moved at `ply` makes `capture`, our next move,
/// the opponent's answer in between taking nothing.
pub(super) fn makes_the_capture(ply: Cursor, capture: Cursor) -> bool {
    ply.next_own().is_some_and(|next| next.index() == capture.index())
        && ply.reply().is_some_and(|reply| !reply.mv().is_capture())
        && capture.mv().from() == Some(ply.mv().to())
}

/// What the move at `ply` nets by its own capture, for a fire whose threat
/// came to nothing: all it won (Lichess 09YuP: Bxe4 takes the knight and
/// unmasks the f3 queen on the c3 queen, which steps away: 3), less what
/// the opponent's answer takes (0CVKY: ...exd3 takes the queen, and Rxe5
/// ours: 0). Nothing where it takes back what the opponent just took
/// (their exchange: 045rD ...fxe4 after Qxe4), or where the man that took
/// falls later (04qgk: Nxe6 takes the bishop, and the f7 pawn takes the
/// knight).
pub(super) fn took(ply: Cursor, balances: &[i32]) -> i32 {
    let m = ply.mv();
    let on_its_square = |at: Cursor| at.mv().is_capture() && at.mv().to() == m.to();
    if !m.is_capture() || ply.previous().is_some_and(on_its_square) {
        return 0;
    }
    // Their answer that takes a man of ours is charged, but not one we take
    // back at once: that exchange is the next fire's (Lichess 077Ya: dxe5,
    // then ...Rxg2+ Qxg2).
    let taken_back =
        |reply: Cursor| reply.reply().is_some_and(|ours| ours.mv().is_capture() && ours.mv().to() == reply.mv().to());
    match ply.reply() {
        Some(reply) if on_its_square(reply) || (reply.mv().is_capture() && !taken_back(reply)) => {
            balances[reply.index() + 1] - balances[ply.index()]
        }
        _ if keeps_its_capture(ply) => balances[ply.index() + 1] - balances[ply.index()],
        _ => 0,
    }
}

/// The quiet move of ours before `ply` whose threat `ply`'s capture carries
/// out, where no fire of that move wins or gives material and the
/// opponent answered with a grab elsewhere: the move attacked the man
/// `ply` takes (or lined up on it behind the man that grabbed), which stood
/// there unattacked before it, and the answer took a man of ours (not one
/// that had just taken). The capture counts
/// from before that move, the grab charged (Lichess 04e0U: e5 attacks the
/// queen, ...Rxc1 takes a rook, exf6: 4, not 9).
pub(super) fn unclaimed_threat<'a>(ply: Cursor<'a>, fires: &[Fire]) -> Option<Cursor<'a>> {
    let m = ply.mv();
    let theirs = ply.previous().filter(|theirs| m.is_capture() && theirs.mv().is_capture())?;
    let threat =
        theirs.previous().filter(|threat| threat.index() >= ply.line().key_ply && !threat.mv().is_capture())?;
    if exchange_start(ply).index() != ply.index() {
        return None;
    }
    let (man, solver) = (capture_square(m), ply.line().solver());
    let (before, after) = (threat.before().board(), threat.after().board());
    // A quiet threat, and a grab in answer that takes back nothing of ours:
    // no move of ours since the key move captured where it captures.
    let took_there = |at: Cursor| at.is_solver() && at.mv().is_capture() && at.mv().to() == theirs.mv().to();
    let made = !theirs.since_key().any(took_there)
        && before.by_color(!solver).contains(man)
        && !attacked_by(before, solver).contains(man)
        && (attacked_by(after, solver).contains(man) || {
            // Or through the man their grab moved off the line (Lichess
            // 082g9: Qc8 hits the d7 rook and the queen behind it, ...Rxc7).
            let grabbed = theirs.after().board();
            attackers(grabbed, man, solver, grabbed.occupied()).contains(threat.mv().to())
        })
        && theirs.mv().from() != Some(man);
    let claimed = fires.iter().any(|f| usize::from(f.ply) == threat.index() && moves_material(f));
    (made && !claimed).then_some(threat)
}
