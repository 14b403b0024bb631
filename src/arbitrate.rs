//! Arbitration: which label gives way to which when both fire on one ply.
//! [`RULES`] is the one statement of the rules (spec §4, and the rules Koga
//! adds for the labels the seeds leave open); `docs/arbitration.md` is
//! generated from it ([`markdown`]) and checked by the tests. The table is
//! applied per ply after every detector ran, so a follow-up fire can never
//! remove a key-move fire.
//!
//! What the table keeps together needs no rule: hangingPiece with fork or
//! skewer stay side by side, and discoveredCheck always comes with
//! discoveredAttack (and with doubleCheck when two pieces give check), which
//! its detector emits together.

use std::fmt::Write;

use shakmaty::{Bitboard, Position, Role};

use crate::board::value_at;
use crate::facts::PlyFacts;
use crate::fire::Fire;
use crate::label::Label;
use crate::label::{Family, LabelSet, LABELS};
use crate::line::Line;
use crate::role::RoleName;

/// A fire arbitration removed, the fire it gave way to, and the rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Removed {
    pub fire: Fire,
    pub by: Label,
    pub rule: &'static str,
}

/// The labels on one side of a rule.
#[derive(Debug, Clone, Copy)]
pub enum Labels {
    One(Label),
    AnyOf(&'static [Label]),
    /// Every material motif (declared `material` in the vocabulary) but these.
    MaterialMotifsBut(&'static [Label]),
    /// Every seed tactic and motif except these.
    TacticsBut(&'static [Label]),
}

impl Labels {
    pub const fn contains(self, label: Label) -> bool {
        // `const`: the tables read off [`RULES`] are built at compile time.
        const fn among(labels: &[Label], label: Label) -> bool {
            let mut i = 0;
            while i < labels.len() {
                if labels[i] as usize == label as usize {
                    return true;
                }
                i += 1;
            }
            false
        }
        match self {
            Labels::One(one) => one as usize == label as usize,
            Labels::AnyOf(labels) => among(labels, label),
            Labels::MaterialMotifsBut(except) => label.is_material_motif() && !among(except, label),
            Labels::TacticsBut(except) => {
                matches!(label.family(), Family::Seed | Family::Motif) && !among(except, label)
            }
        }
    }

    fn describe(self) -> String {
        let names = |labels: &[Label]| labels.iter().map(|l| format!("`{l}`")).collect::<Vec<_>>().join(", ");
        match self {
            Labels::One(label) => format!("`{label}`"),
            Labels::AnyOf(labels) => names(labels),
            Labels::MaterialMotifsBut(except) => {
                let motifs: Vec<Label> =
                    LABELS.iter().filter(|i| i.material && !except.contains(&i.label)).map(|i| i.label).collect();
                format!("any material motif but {} ({})", names(except), names(&motifs))
            }
            Labels::TacticsBut(except) => format!("any other seed tactic or motif but {}", names(except)),
        }
    }
}

/// When a rule applies, given the ply's facts, the losing fire and a
/// candidate winner.
#[derive(Debug, Clone, Copy)]
pub enum When {
    Always,
    If(fn(&PlyFacts, &Fire, &Fire) -> bool),
}

/// One row of the table.
#[derive(Debug, Clone, Copy)]
pub struct Rule {
    pub loser: Labels,
    pub winners: Labels,
    pub when: When,
    /// The condition in words (`always` for [`When::Always`]).
    pub condition: &'static str,
    /// Why the loser gives way; `koga explain` prints it.
    pub why: &'static str,
}

/// The table.
pub const RULES: &[Rule] = &[
    Rule {
        // A pin on a checking move fires only where the pinned piece could
        // otherwise take the checker or block the check (pin.rs): on a
        // mating move that pin is part of the mate (spec §2), so it stays.
        loser: Labels::MaterialMotifsBut(&[Label::Pin]),
        winners: Labels::One(Label::Mate),
        when: When::Always,
        condition: "always (the move mates)",
        why: "on a mating move the mate is the whole story",
    },
    Rule {
        loser: Labels::One(Label::Pin),
        winners: Labels::One(Label::PinnedDefender),
        when: When::If(|_, pin, pd| pin.roles.pinned == pd.roles.pinned && pin.roles.pinner == pd.roles.pinner),
        condition: "same pinned piece and pinner",
        why: "pinnedDefender describes the same pin and what it wins",
    },
    Rule {
        // Issue 34: an in-between move that takes the guard of the square we
        // take back on is capturing the defender; the delay is its side effect.
        loser: Labels::One(Label::Intermezzo),
        winners: Labels::One(Label::CapturingDefender),
        when: When::If(|_, im, cd| im.roles.victim.is_some() && im.roles.victim == cd.roles.victim),
        condition: "the in-between move takes the guard of the recapture square",
        why: "capturingDefender tells why the recapture waited: the in-between move took its square's guard",
    },
    Rule {
        loser: Labels::One(Label::CapturingDefender),
        winners: Labels::One(Label::PinnedDefender),
        when: When::If(|_, cd, pd| cd.roles.victim == pd.roles.victim || cd.roles.defender == pd.roles.defender),
        condition: "same victim or same defender",
        why: "pinnedDefender describes the same pieces more completely",
    },
    Rule {
        loser: Labels::One(Label::InsufficientlyDefended),
        winners: Labels::One(Label::PinnedDefender),
        when: When::If(|_, id, pd| id.roles.victim == pd.roles.victim),
        condition: "same victim",
        why: "pinnedDefender says why the guards cannot take back",
    },
    Rule {
        loser: Labels::One(Label::DiscoveredAttack),
        winners: Labels::One(Label::PinnedDefender),
        when: When::If(|facts, da, pd| pd_stake(pd) >= discovery_hits(facts, da)),
        condition: "captured value ≥ value the discovery hits",
        why: "the pinned-defender capture wins at least what the discovery hits",
    },
    Rule {
        loser: Labels::One(Label::PinnedDefender),
        winners: Labels::One(Label::DiscoveredAttack),
        when: When::If(|facts, pd, da| discovery_hits(facts, da) > pd_stake(pd)),
        condition: "the discovery hits more than we capture",
        why: "the discovery hits more than the pinned-defender capture wins",
    },
    Rule {
        loser: Labels::One(Label::TrappedPiece),
        winners: Labels::One(Label::Pin),
        when: When::If(|_, tp, pin| pin.roles.pinned.is_some_and(|p| tp.roles.targets.contains(p))),
        condition: "the trapped piece is the pinned piece",
        why: "the target is reported as pinned: the pin tells the story",
    },
    Rule {
        loser: Labels::One(Label::TrappedPiece),
        winners: Labels::One(Label::PinnedDefender),
        when: When::If(|_, tp, pd| {
            (tp.roles.targets & (pd.roles.get(RoleName::pinned) | pd.roles.get(RoleName::victim))).any()
        }),
        condition: "the trapped piece is the pinned defender or the victim",
        why: "pinnedDefender on the same target tells the story",
    },
    Rule {
        loser: Labels::One(Label::TrappedPiece),
        winners: Labels::AnyOf(&[Label::Fork, Label::HangingPiece, Label::InsufficientlyDefended]),
        when: When::If(|_, tp, richer| explains_the_trap(tp, richer)),
        condition: "it names the trapped piece, or wins more",
        why: "trappedPiece is a supporting label: a richer tactic explains the move",
    },
    Rule {
        loser: Labels::One(Label::TrappedPiece),
        winners: Labels::TacticsBut(&[Label::CounterThreat]),
        when: When::If(|_, tp, _| tp.fallback),
        condition: "the trap was found by the short-line fallback",
        why: "the short-line fallback stays silent when another tactic was found",
    },
    Rule {
        loser: Labels::AnyOf(&[Label::DoubleAttack, Label::InsufficientlyDefended]),
        winners: Labels::One(Label::DiscoveredCheck),
        when: When::Always,
        condition: "always",
        why: "the discovered check is the real point of the move",
    },
    Rule {
        loser: Labels::One(Label::Deflection),
        winners: Labels::One(Label::HangingPiece),
        when: When::If(is_bare),
        condition: "the deflection is bare: it wins the hanging piece itself, or no more than it",
        why: "a hanging piece outranks a bare deflection",
    },
    Rule {
        // Our capture taken back by a guard that also held what we take
        // next: overloading and deflection name the same two pieces. The
        // deflection, Lichess's word for it, tells the story once.
        loser: Labels::One(Label::Overloading),
        winners: Labels::One(Label::Deflection),
        when: When::If(|_, o, d| o.roles.defender == d.roles.defender && o.roles.victim == d.roles.victim),
        condition: "same defender and victim",
        why: "the deflection of the same defender from the same piece tells the story",
    },
    Rule {
        // Issue 34: Nf7+ Ke8 Nxh8 on an open king is a fork; the shelter the
        // king lacks would not have stopped the knight (Lichess 08XLs).
        loser: Labels::One(Label::ExposedKing),
        winners: Labels::One(Label::Fork),
        when: When::If(fork_cashed_by_a_leaper),
        condition: "the same check by a knight or pawn forks the king, and our next move takes a forked piece \
                    without check",
        why: "the fork is the point: a pawn shelter stops no knight's or pawn's check, so the open king is not \
              what it exploits",
    },
    Rule {
        // Bd7+ Kxd7 c8=Q# (Lichess 04rt9), Rh8+ Kxh8 Qh7# (01s0p): the check
        // gives a piece to draw the king in; the hunt's later checks stay.
        loser: Labels::One(Label::ExposedKing),
        winners: Labels::One(Label::Attraction),
        when: When::Always,
        condition: "always (the same check)",
        why: "a check that gives up its piece to lure the king, queen or rook onto its square: the attraction \
              is the point",
    },
    Rule {
        // Rf1+ on the f7 king with the f8 rook behind it (Lichess 08pe5): the
        // check is there to win what stands behind the king.
        loser: Labels::One(Label::ExposedKing),
        winners: Labels::One(Label::Skewer),
        when: When::If(|facts, _, _| !facts.line.last().mates()),
        condition: "the line does not end in mate",
        why: "a check that skewers is there for the piece behind the king; only a hunt to mate keeps the open king",
    },
    Rule {
        loser: Labels::AnyOf(TAGGED_MATES),
        winners: Labels::AnyOf(TAGGED_MATES),
        when: When::If(|_, loser, winner| tagged_mate_rank(winner) < tagged_mate_rank(loser)),
        condition: "the same mate, the winner first in Lichess's order",
        why: "Lichess names one of the patterns its tagger detects per mate, in this order: smothered, back \
             rank, Anastasia, hook, Arabian, Boden or double bishop (one rule, never both), dovetail",
    },
];

/// The mate patterns Lichess's tagger detects, in its order of precedence.
const TAGGED_MATES: &[Label] = &[
    Label::SmotheredMate,
    Label::BackRankMate,
    Label::AnastasiaMate,
    Label::HookMate,
    Label::ArabianMate,
    Label::BodenMate,
    Label::DoubleBishopMate,
    Label::DovetailMate,
];

fn tagged_mate_rank(fire: &Fire) -> usize {
    TAGGED_MATES.iter().position(|&l| l == fire.label).unwrap_or(usize::MAX)
}

/// A richer tactic explains a trap when it is about the same piece, or wins
/// more than the trap wins: a pawn picked up elsewhere does not explain the
/// trap of a rook, nor the capture of a knight the trap of another (seed
/// 001: "when a richer tactic already explains the move"; Lichess 0AxI1).
fn explains_the_trap(trap: &Fire, richer: &Fire) -> bool {
    let trapped = trap.roles.targets;
    let same_piece = (richer.roles.get(RoleName::victim) | richer.roles.targets).intersects(trapped);
    same_piece || richer.stake.unwrap_or(0) > trap.stake.unwrap_or(0)
}

/// A bare deflection (seed 002, spec §4): it goes on to take the very piece
/// the hanging capture takes, or one worth no more. One that goes on to win
/// a bigger piece (or to promote on an empty square) stays beside it.
fn is_bare(facts: &PlyFacts, deflection: &Fire, hanging: &Fire) -> bool {
    let Some(victim) = deflection.roles.victim else { return false };
    let taken = hanging.roles.victim.map_or(0, |sq| value_at(facts.before.board(), sq));
    hanging.roles.victim == Some(victim) || value_at(facts.after.board(), victim) <= taken
}

/// An exposedKing check that is a knight's or pawn's fork of the king,
/// cashed in at once: our next move takes a forked piece (the very one) and
/// gives no check, so the attack on the king ends with the win.
fn fork_cashed_by_a_leaper(facts: &PlyFacts, king: &Fire, fork: &Fire) -> bool {
    let Some(checker) = king.roles.moved else { return false };
    let leaper = matches!(facts.after.board().role_at(checker), Some(Role::Knight | Role::Pawn));
    let forked = fork.roles.targets | fork.roles.get(RoleName::victim);
    let cashed = facts.at.next_own().is_some_and(|next| {
        !next.gives_check() && forked.into_iter().any(|sq| !king.roles.targets.contains(sq) && facts.next_collects(sq))
    });
    leaper && fork.roles.attacker == Some(checker) && fork.roles.targets.intersects(king.roles.targets) && cashed
}

fn pd_stake(pd: &Fire) -> i32 {
    pd.stake.map_or(0, i32::from)
}

/// Value of what a discovered attack hits (a king outweighs everything).
fn discovery_hits(facts: &PlyFacts, da: &Fire) -> i32 {
    da.roles.targets.into_iter().map(|t| value_at(facts.after.board(), t)).max().unwrap_or(0)
}

impl Rule {
    fn removes(&self, facts: &PlyFacts, loser: &Fire, winner: &Fire) -> bool {
        winner.label != loser.label
            && self.loser.contains(loser.label)
            && self.winners.contains(winner.label)
            && match self.when {
                When::Always => true,
                When::If(holds) => holds(facts, loser, winner),
            }
    }
}

/// Whether a fire of `label` would give way, whatever its roles, to a fire
/// of one of the `present` labels: the classifier then need not look for it.
pub fn always_gives_way(label: Label, present: &LabelSet) -> bool {
    SILENCERS[label as usize].intersects(present)
}

/// The labels a fire of `winner` removes whatever their roles:
/// [`always_gives_way`] the other way round, so that the classifier keeps
/// the labels silenced on a ply as a set, grown as labels are found.
pub fn always_removed_by(winner: Label) -> LabelSet {
    REMOVED[winner as usize]
}

/// The rule and label that remove a fire of `label` whatever its roles,
/// given the `present` labels: what `koga explain` says of a fire the
/// classifier does not look for.
pub fn silenced_by(label: Label, present: &LabelSet) -> Option<(Label, &'static str)> {
    RULES.iter().filter(|r| matches!(r.when, When::Always) && r.loser.contains(label)).find_map(|rule| {
        present.iter().find(|&w| w != label && rule.winners.contains(w)).map(|winner| (winner, rule.why))
    })
}

/// Whether a rule that always applies has `winner` remove `loser`.
const fn always_removes(winner: Label, loser: Label) -> bool {
    if winner as usize == loser as usize {
        return false;
    }
    let mut i = 0;
    while i < RULES.len() {
        let rule = &RULES[i];
        if matches!(rule.when, When::Always) && rule.loser.contains(loser) && rule.winners.contains(winner) {
            return true;
        }
        i += 1;
    }
    false
}

/// For each label, the labels that remove it whatever the roles (the rules
/// that always apply), read off [`RULES`] at compile time.
const SILENCERS: [LabelSet; Label::ALL.len()] = removals(false);

/// For each label, the labels it removes whatever their roles.
const REMOVED: [LabelSet; Label::ALL.len()] = removals(true);

/// [`SILENCERS`], or with `by_winner` [`REMOVED`].
const fn removals(by_winner: bool) -> [LabelSet; Label::ALL.len()] {
    let mut table = [LabelSet::new(); Label::ALL.len()];
    let mut i = 0;
    while i < Label::ALL.len() {
        let mut j = 0;
        while j < Label::ALL.len() {
            let (row, other) = (Label::ALL[i], Label::ALL[j]);
            let (winner, loser) = if by_winner { (row, other) } else { (other, row) };
            if always_removes(winner, loser) {
                table[i].insert(other);
            }
            j += 1;
        }
        i += 1;
    }
    table
}

/// The rules (bits by their place in [`RULES`]) in which a label loses, and
/// those in which it wins.
#[derive(Clone, Copy)]
struct RuleSides {
    loses: u64,
    wins: u64,
}

/// Each label's [`RuleSides`], read off [`RULES`] at compile time.
const RULE_SIDES: [RuleSides; Label::ALL.len()] = {
    assert!(RULES.len() <= 64, "rule masks hold 64 rules");
    let mut sides = [RuleSides { loses: 0, wins: 0 }; Label::ALL.len()];
    let mut i = 0;
    while i < RULES.len() {
        let mut j = 0;
        while j < Label::ALL.len() {
            if RULES[i].loser.contains(Label::ALL[j]) {
                sides[j].loses |= 1 << i;
            }
            if RULES[i].winners.contains(Label::ALL[j]) {
                sides[j].wins |= 1 << i;
            }
            j += 1;
        }
        i += 1;
    }
    sides
};

/// Applies the table to one ply's fires. A fire gives way only to a fire
/// that stays: where pin gives way to pinnedDefender and pinnedDefender to
/// discoveredAttack, the pin is kept, since nothing else tells its story.
/// Fires are settled in rounds: a fire some settled survivor removes goes,
/// a fire no unsettled or surviving fire can remove stays. The order of
/// rules and fires does not matter; were the rules ever to remove each
/// other in a circle, what is left unsettled is judged against every fire.
pub fn arbitrate(facts: &PlyFacts, fires: &mut Vec<Fire>, removed: &mut Vec<Removed>) {
    let n = fires.len();
    if n < 2 {
        return;
    }
    // Fires as bits of a mask (a ply holds far fewer than 64).
    let all: u64 = if n >= 64 { u64::MAX } else { (1 << n) - 1 };
    let bits = |mask: u64| (0..n.min(64)).filter(move |&j| mask & (1 << j) != 0);
    // Why fire `i` gives way to one of the fires in `winners`, if it does:
    // the first rule in the table's order, then the first winner. Only the
    // rules that name both labels are asked.
    let sides = &RULE_SIDES;
    let verdict = |i: usize, winners: u64| -> Option<Removed> {
        let fire = &fires[i];
        let losing = sides[fire.label as usize].loses;
        let winning = bits(winners & !(1 << i)).fold(0, |rules, j| rules | sides[fires[j].label as usize].wins);
        let mut candidates = losing & winning;
        while candidates != 0 {
            let rule = &RULES[candidates.trailing_zeros() as usize];
            candidates &= candidates - 1;
            let winner = bits(winners & !(1 << i)).map(|j| &fires[j]).find(|w| rule.removes(facts, fire, w));
            if let Some(winner) = winner {
                return Some(Removed { fire: *fire, by: winner.label, rule: rule.why });
            }
        }
        None
    };
    // Most plies remove nothing: settle them at once.
    let mut open: u64 = bits(all).filter(|&i| verdict(i, all).is_some()).fold(0, |m, i| m | 1 << i);
    let mut stays = all & !open;
    let mut gone: Vec<Removed> = Vec::new();
    while open != 0 {
        let before = open;
        for i in bits(open) {
            if let Some(removal) = verdict(i, stays) {
                gone.push(removal);
                open &= !(1 << i);
            } else if verdict(i, open).is_none() {
                stays |= 1 << i;
                open &= !(1 << i);
            }
        }
        if open == before {
            // Rules that remove each other in a circle: judged against all.
            gone.extend(bits(open).filter_map(|i| verdict(i, all)));
            break;
        }
    }
    if gone.is_empty() {
        return;
    }
    // The removed in the fires' order.
    gone.sort_by_key(|r| fires.iter().position(|f| *f == r.fire));
    fires.retain(|f| !gone.iter().any(|r| r.fire == *f));
    removed.extend(gone);
}

/// A rule across two of our moves: a fire gives way to a fire on our next
/// move (two plies on), once every ply is arbitrated. Its losers never fire
/// on the key move, so a follow-up fire still never removes a key-move fire.
#[derive(Debug, Clone, Copy)]
pub struct NextMoveRule {
    pub loser: Label,
    pub winners: &'static [Label],
    /// Whether the rule applies, given the line and the losing fire.
    pub when: fn(&Line, &Fire) -> bool,
    pub condition: &'static str,
    pub why: &'static str,
}

/// The rules across moves.
pub const NEXT_MOVE_RULES: &[NextMoveRule] = &[NextMoveRule {
    // Issue 34: ...Qxd3+ Qc2 ...Qxf3 (Lichess 04JuW) forks with check and
    // cashes the fork next; Qxf1+ Kxh2 Qxf3 (06kQ1) checks to take next.
    loser: Label::ExposedKing,
    winners: &[
        Label::Fork,
        Label::Skewer,
        Label::Pin,
        Label::PinnedDefender,
        Label::DiscoveredAttack,
        Label::HangingPiece,
        Label::InsufficientlyDefended,
        Label::CapturingDefender,
        Label::Promotion,
    ],
    when: |line, loser| !line.last().mates() && !takes_a_pawn_on_the_hunt(line, loser.ply),
    condition: "on our next move, and the line does not end in mate, unless that move takes a pawn with \
                check and our move after it checks again",
    why: "the check is there for what our next move wins; only a king hunted to mate keeps it, or one \
          still hunted after a pawn picked up on the way",
}];

/// Our move two plies after `ply` takes a pawn with check, and our move
/// after that checks again: the hunt goes on, the pawn is picked up on the
/// way (Lichess 07V4V ...Qe2+ Kf4 ...Qxf2+ Kg4 ...Bf5+). At the line's end
/// the pawn is the point; where the checks stop, the attack did (06UgW
/// Bc4+ Nxc4 Qxc7+ Kg8 Naxc4 gave a bishop to pull a knight off).
fn takes_a_pawn_on_the_hunt(line: &Line, ply: u16) -> bool {
    let next = usize::from(ply) + 2;
    next + 2 < line.plies() && {
        let (next, after) = (line.at(next), line.at(next + 2));
        next.mv().capture() == Some(Role::Pawn) && next.gives_check() && after.gives_check()
    }
}

/// Labels whose fire on our next move, naming the same pieces in the same
/// roles with none of them moved, repeats the fire before it and gives way
/// to it (Lichess 054QS: ...Rf1+ and ...Rxf1+ both use the d3 bishop pinned
/// to the d2 queen; trappedPiece finds its own repeats).
pub const REPEATS: &[Label] = &[Label::Pin];

/// Why a repeat gives way, in `koga explain` and `docs/arbitration.md`.
const REPEAT_WHY: &str = "the same pin, its pieces where they stood: one tactic, told once, on the move that \
                          first used it";

/// Whether `later` repeats `earlier` (two plies before it): the same label,
/// the same squares in the roles that name pieces, and the same men on
/// them after both moves.
fn repeats(line: &Line, earlier: &Fire, later: &Fire) -> bool {
    use RoleName::{behind, pinned, pinner};
    let same_roles = [pinner, pinned, behind].into_iter().all(|role| earlier.roles.get(role) == later.roles.get(role));
    let (before, after) =
        (line.at(usize::from(earlier.ply)).after().board(), line.at(usize::from(later.ply)).after().board());
    let men = [pinner, pinned, behind].into_iter().fold(Bitboard::EMPTY, |men, role| men | later.roles.get(role));
    earlier.label == later.label
        && later.ply == earlier.ply + 2
        && same_roles
        && men.any()
        && men.into_iter().all(|sq| before.piece_at(sq) == after.piece_at(sq))
}

/// Applies [`NEXT_MOVE_RULES`] and [`REPEATS`] to a line's arbitrated fires.
pub fn arbitrate_next_moves(line: &Line, fires: &mut Vec<Fire>, removed: &mut Vec<Removed>) {
    let found = removed.len();
    for later in fires.iter().filter(|f| REPEATS.contains(&f.label)) {
        if fires.iter().any(|earlier| repeats(line, earlier, later)) {
            removed.push(Removed { fire: *later, by: later.label, rule: REPEAT_WHY });
        }
    }
    for rule in NEXT_MOVE_RULES {
        for loser in fires.iter().filter(|f| f.label == rule.loser) {
            let next = |w: &&Fire| w.ply == loser.ply + 2 && rule.winners.contains(&w.label);
            if let Some(winner) = fires.iter().find(next).filter(|_| (rule.when)(line, loser)) {
                removed.push(Removed { fire: *loser, by: winner.label, rule: rule.why });
            }
        }
    }
    if removed.len() > found {
        let gone = &removed[found..];
        fires.retain(|f| !gone.iter().any(|r| r.fire == *f));
    }
}

/// The table in words: `docs/arbitration.md`.
pub fn markdown() -> String {
    let mut out = String::from(
        "# Arbitration\n\n\
         When two labels fire on the same judged move, this table decides which gives way. It is \
         generated from `RULES` in `src/arbitrate.rs`, the only statement of these rules; \
         `koga explain` names the rule that removed a fire. Rules apply per ply: a follow-up fire \
         never removes a key-move fire. Labels no rule names are all kept (hangingPiece with fork \
         or skewer, for example). A fire gives way only to a fire that stays: a pin that gives way to \
         pinnedDefender is kept where pinnedDefender itself gives way to discoveredAttack. The mate patterns Lichess tags only from players' votes \
         (killBoxMate to swallowstailMate) each name one aspect of a mate, so they stand beside any \
         other pattern; the eight its tagger detects keep its order, below.\n\n\
         | loser | gives way to | when | why |\n|---|---|---|---|\n",
    );
    for rule in RULES {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} |",
            rule.loser.describe(),
            rule.winners.describe(),
            rule.condition,
            rule.why
        );
    }
    out.push_str(
        "\nAcross moves: a fire on one of our moves gives way to a fire on our next move (two plies on), \
         after each ply is arbitrated.\n\n| loser | gives way to | when | why |\n|---|---|---|---|\n",
    );
    for rule in NEXT_MOVE_RULES {
        let winners = Labels::AnyOf(rule.winners).describe();
        let _ = writeln!(out, "| `{}` | {} | {} | {} |", rule.loser, winners, rule.condition, rule.why);
    }
    out.push_str("\nRepeats: a fire on our next move that names the same pieces in the same roles, none of them moved, gives way to the fire before it.\n\n| label | why |\n|---|---|\n");
    for label in REPEATS {
        let _ = writeln!(out, "| `{label}` | {REPEAT_WHY} |");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::{balances, PlyFacts};

    /// A fire gives way only to a fire that stays (Lichess 02qOC): Bxf6 takes
    /// the knight the pinned g7 pawn guards while Rd3 hits Rd8; the
    /// discovery wins more, so pinnedDefender gives way to it, and the pin
    /// it had stood for is kept, with the capture of the pinned-guarded
    /// knight.
    #[test]
    fn a_fire_gives_way_only_to_a_fire_that_stays() {
        let fen = "3r1rk1/4bpp1/p3pn1p/8/1p1B1N2/3R2Q1/PPq2PPP/R5K1 b - - 1 20";
        let line = Line::parse(fen, "e7c5 d4f6 c5f2 g3f2 c2f2", LineForm::Puzzle).unwrap();
        let classified = crate::tactics::classify_explained(&line);
        let on_key: Vec<Label> = classified.fires.iter().filter(|f| f.ply == 1).map(|f| f.label).collect();
        assert!(on_key.contains(&Label::DiscoveredAttack) && on_key.contains(&Label::Pin), "{on_key:?}");
        assert!(on_key.contains(&Label::InsufficientlyDefended), "{on_key:?}");
        let gave_way: Vec<(Label, Label)> = classified.removed.iter().map(|r| (r.fire.label, r.by)).collect();
        assert_eq!(gave_way, [(Label::PinnedDefender, Label::DiscoveredAttack)]);
    }
    /// A check whose point is what our next move wins gives way to it, and
    /// `koga explain` says so (Lichess 06kQ1: ...Qxf1+ Kxh2 ...Qxf3, and
    /// ...Qh5+ Kg2 ...Bh4, the pin that wins the g3 bishop); a
    /// hunt that ends in mate keeps its checks (0ARwj: ...Rh1+ Rh2 ...Rxh2+
    /// Bh3 ...Rxh3#).
    #[test]
    fn a_check_gives_way_to_what_our_next_move_wins() {
        let fen = "6rk/6b1/2QR4/2pPp1q1/2P1P3/P4p2/5BPp/5B1K w - - 0 39";
        let moves = "g2f3 g7f6 c6c5 g5c1 f2g3 c1f1 h1h2 f1f3 c5f2 f3h5 h2g2 f6h4 c4c5 g8g3";
        let classified = crate::tactics::classify_explained(&Line::parse(fen, moves, LineForm::Puzzle).unwrap());
        let gave_way: Vec<(u16, Label)> = classified
            .removed
            .iter()
            .filter(|r| r.fire.label == Label::ExposedKing)
            .map(|r| (r.fire.ply, r.by))
            .collect();
        assert_eq!(gave_way, [(5, Label::HangingPiece), (9, Label::Pin)]);
        assert!(!classified.fires.iter().any(|f| f.ply == 5 && f.label == Label::ExposedKing));
        let fen = "r7/p3pp1N/1pn3k1/2p2b1R/4r3/1P3KP1/P1P1B3/R7 b - - 6 24";
        let line = Line::parse(fen, "e4e2 h5g5 g6h7 a1h1 e2h2 h1h2 f5h3 h2h3", LineForm::Puzzle).unwrap();
        let fires = crate::tactics::classify(&line);
        assert!(fires.iter().any(|f| f.ply == 3 && f.label == Label::ExposedKing), "{fires:?}");
        assert!(fires.iter().any(|f| f.ply == 5 && f.label == Label::HangingPiece), "{fires:?}");
        // A pawn picked up with check on the way keeps the hunt's check
        // (Lichess 07V4V ...Qe2+ Kf4 ...Qxf2+ Kg4 ...Bf5+); at the line's
        // end the pawn would be the point.
        let fen = "3B1rk1/5p1p/p4QpP/1pp5/2q5/3b4/PP3PP1/2KR3R w - - 2 26";
        assert!(plies_of(fen, "c1d2 c4c2 d2e3 c2e2 e3f4 e2f2 f4g4 d3f5", Label::ExposedKing).contains(&3));
        assert!(!plies_of(fen, "c1d2 c4c2 d2e3 c2e2 e3f4 e2f2", Label::ExposedKing).contains(&3));
        // Where the checks stop after the pawn, the attack did (06UgW Bc4+
        // Nxc4 Qxc7+ Kg8 Naxc4: a bishop given to pull the e3 knight off).
        let fen = "r1b1k2r/ppp3pp/2n5/1B5Q/3Ppp2/N1P1n1q1/PP1N2P1/R5KR b kq - 1 16";
        assert!(!plies_of(fen, "g7g6 h5e5 e8f7 b5c4 e3c4 e5c7 f7g8 a3c4", Label::ExposedKing).contains(&3));
    }

    /// A check that lures a piece onto its square is the attraction
    /// (Lichess 04rt9: Bd7+ Kxd7 c8=Q#); the hunt's later checks stay
    /// (0A05m: ...Bc2+ Kxc2 ...Rxc4+ Kb1 ...Qd3+ Ka2 ...Rxa4#).
    #[test]
    fn a_check_that_lures_the_king_is_the_attraction() {
        let fen = "3k3r/pp4p1/2P5/1B1bp3/6P1/BPR2P2/P5K1/3r4 b - - 0 28";
        let gave_way = gave_way(fen, "h8h1 c6c7 d8c8 b5d7 c8d7 c7c8q");
        assert!(gave_way.contains(&(3, Label::ExposedKing, Label::Attraction)), "{gave_way:?}");
        let fen = "5rk1/pp4p1/7p/3pp2Q/P2n4/2Pbq2N/1P1N1bPP/R1BK3R w - - 1 21";
        let moves = "c3d4 f8c8 d2c4 d3c2 d1c2 c8c4 c2b1 e3d3 b1a2 c4a4";
        assert_eq!(plies_of(fen, moves, Label::ExposedKing), [5, 7]);
    }

    /// A check that skewers the open king to the piece behind is the
    /// skewer's (Lichess 08pe5: Rf1+ Ke8 Rxf8+ for the f8 rook).
    #[test]
    fn a_check_that_skewers_is_the_skewer() {
        let fen = "5rk1/1b2b3/p2q2NQ/1p4P1/3P4/8/PP5P/3R2K1 b - - 0 30";
        let moves = "d6e6 h6h8 g8f7 d1f1 f7e8 f1f8 e7f8 h8f8";
        let gave_way = gave_way(fen, moves);
        assert!(gave_way.contains(&(3, Label::ExposedKing, Label::Skewer)), "{gave_way:?}");
        assert!(plies_of(fen, moves, Label::Skewer).contains(&3));
    }

    /// The plies of a puzzle line on which `label` fires, after arbitration.
    fn plies_of(fen: &str, moves: &str, label: Label) -> Vec<u16> {
        let line = Line::parse(fen, moves, LineForm::Puzzle).unwrap();
        crate::tactics::classify(&line).iter().filter(|f| f.label == label).map(|f| f.ply).collect()
    }

    /// The fires of a puzzle line that gave way: ply, label, and the label
    /// they gave way to.
    fn gave_way(fen: &str, moves: &str) -> Vec<(u16, Label, Label)> {
        let line = Line::parse(fen, moves, LineForm::Puzzle).unwrap();
        crate::tactics::classify_explained(&line).removed.iter().map(|r| (r.fire.ply, r.fire.label, r.by)).collect()
    }

    use crate::line::{Line, LineForm};
    use crate::role::Roles;
    use shakmaty::{Bitboard, Square};

    /// A real line whose key move the rules are judged on (they read only
    /// the values of pieces from its facts).
    struct Fixture {
        line: Line,
        balances: Vec<i32>,
    }

    impl Fixture {
        fn new() -> Fixture {
            let fen = "6k1/p2r1ppp/2Nq4/3P4/3Q4/8/PP3PPP/6K1 w - - 0 30";
            let line = Line::parse(fen, "h2h3 d6c6", LineForm::Puzzle).unwrap();
            Fixture { balances: balances(&line), line }
        }

        fn facts(&self) -> PlyFacts<'_> {
            PlyFacts::new(self.line.at(1), &self.balances)
        }
    }

    fn fire(label: Label, roles: Roles, stake: Option<i16>) -> Fire {
        Fire {
            ply: 1,
            label,
            follow_up: false,
            gain: None,
            span: None,
            stake,
            collects: None,
            roles,
            solver: shakmaty::Color::White,
            fallback: false,
        }
    }

    #[test]
    fn table_rules() {
        let fixture = Fixture::new();
        let facts = fixture.facts();
        let pd_roles = Roles {
            victim: Some(Square::C6),
            defender: Some(Square::D5),
            pinned: Some(Square::D5),
            pinner: Some(Square::D7),
            behind: Some(Square::D4),
            ..Roles::default()
        };
        let pin_roles = Roles { pinned: Some(Square::D5), pinner: Some(Square::D7), ..Roles::default() };
        let other_pin = Roles { pinned: Some(Square::A2), pinner: Some(Square::D7), ..Roles::default() };
        let mut fires = vec![
            fire(Label::PinnedDefender, pd_roles, Some(3)),
            fire(Label::Pin, pin_roles, None),
            fire(Label::Pin, other_pin, None),
            // A bare deflection: it goes on to take the piece the hanging
            // capture takes.
            fire(Label::Deflection, Roles { victim: Some(Square::C6), ..Roles::default() }, None),
            fire(Label::HangingPiece, Roles { victim: Some(Square::C6), ..Roles::default() }, Some(5)),
            // A trap of a piece worth less than the hanging capture wins.
            fire(
                Label::TrappedPiece,
                Roles { targets: Bitboard::from_square(Square::H8), ..Roles::default() },
                Some(3),
            ),
            fire(Label::Skewer, Roles::default(), Some(1)),
        ];
        let mut removed = Vec::new();
        arbitrate(&facts, &mut fires, &mut removed);
        let kept: Vec<Label> = fires.iter().map(|f| f.label).collect();
        assert_eq!(kept, vec![Label::PinnedDefender, Label::Pin, Label::HangingPiece, Label::Skewer]);
        assert_eq!(fires[1].roles.pinned, Some(Square::A2), "a different pin stays");
        let gone: Vec<(Label, Label)> = removed.iter().map(|r| (r.fire.label, r.by)).collect();
        assert_eq!(
            gone,
            vec![
                (Label::Pin, Label::PinnedDefender),
                (Label::Deflection, Label::HangingPiece),
                (Label::TrappedPiece, Label::HangingPiece)
            ]
        );
    }

    #[test]
    fn a_trap_gives_way_only_to_what_explains_it() {
        let fixture = Fixture::new();
        let facts = fixture.facts();
        let trap = fire(
            Label::TrappedPiece,
            Roles { targets: Bitboard::from_square(Square::A1), ..Roles::default() },
            Some(5),
        );
        let pawn_elsewhere = fire(Label::HangingPiece, Roles { victim: Some(Square::B2), ..Roles::default() }, Some(1));
        let mut fires = vec![trap, pawn_elsewhere];
        arbitrate(&facts, &mut fires, &mut Vec::new());
        assert_eq!(fires.len(), 2, "a pawn elsewhere does not explain the trap of a rook");
        let same_piece =
            fire(Label::Fork, Roles { targets: Bitboard::from_square(Square::A1), ..Roles::default() }, None);
        let mut fires = vec![trap, same_piece];
        arbitrate(&facts, &mut fires, &mut Vec::new());
        assert_eq!(fires.iter().map(|f| f.label).collect::<Vec<_>>(), vec![Label::Fork], "a fork of the trapped piece");
    }

    #[test]
    fn pinned_defender_against_discovered_attack_by_value() {
        let fixture = Fixture::new();
        let facts = fixture.facts();
        // The discovery hits the d4 queen (9): more than the knight (3).
        let da = fire(
            Label::DiscoveredAttack,
            Roles { targets: Bitboard::from_square(Square::D4), ..Roles::default() },
            Some(9),
        );
        let mut fires = vec![fire(Label::PinnedDefender, Roles::default(), Some(3)), da];
        let mut removed = Vec::new();
        arbitrate(&facts, &mut fires, &mut removed);
        assert_eq!(fires.iter().map(|f| f.label).collect::<Vec<_>>(), vec![Label::DiscoveredAttack]);
        // It hits the d5 pawn (1): the pinned-defender capture stays.
        let da = fire(
            Label::DiscoveredAttack,
            Roles { targets: Bitboard::from_square(Square::D5), ..Roles::default() },
            Some(1),
        );
        let mut fires = vec![fire(Label::PinnedDefender, Roles::default(), Some(3)), da];
        arbitrate(&facts, &mut fires, &mut removed);
        assert_eq!(fires.iter().map(|f| f.label).collect::<Vec<_>>(), vec![Label::PinnedDefender]);
    }

    #[test]
    fn fallback_trap_gives_way_except_to_counter_threat() {
        let fixture = Fixture::new();
        let facts = fixture.facts();
        let mut trap = fire(Label::TrappedPiece, Roles::default(), Some(3));
        trap.fallback = true;
        let mut fires = vec![trap, fire(Label::CounterThreat, Roles::default(), None)];
        let mut removed = Vec::new();
        arbitrate(&facts, &mut fires, &mut removed);
        assert_eq!(fires.len(), 2);
        let mut fires = vec![trap, fire(Label::Skewer, Roles::default(), None)];
        arbitrate(&facts, &mut fires, &mut removed);
        assert_eq!(fires.iter().map(|f| f.label).collect::<Vec<_>>(), vec![Label::Skewer]);
        // Not a fallback: a skewer does not silence it.
        let mut fires =
            vec![fire(Label::TrappedPiece, Roles::default(), Some(3)), fire(Label::Skewer, Roles::default(), None)];
        arbitrate(&facts, &mut fires, &mut removed);
        assert_eq!(fires.len(), 2);
    }

    #[test]
    fn material_motifs_give_way_to_mate() {
        let fixture = Fixture::new();
        let facts = fixture.facts();
        let mut fires = vec![
            fire(Label::Fork, Roles::default(), Some(3)),
            fire(Label::Mate, Roles::default(), None),
            fire(Label::Promotion, Roles::default(), None),
        ];
        let mut removed = Vec::new();
        arbitrate(&facts, &mut fires, &mut removed);
        assert_eq!(fires.iter().map(|f| f.label).collect::<Vec<_>>(), vec![Label::Mate, Label::Promotion]);
        assert_eq!(removed[0].rule, "on a mating move the mate is the whole story");
        let mate: LabelSet = [Label::Mate].into_iter().collect();
        assert!(always_gives_way(Label::Fork, &mate) && always_gives_way(Label::CounterThreat, &mate));
        assert!(!always_gives_way(Label::Promotion, &mate) && !always_gives_way(Label::DiscoveredCheck, &mate));
        assert!(!always_gives_way(Label::Fork, &LabelSet::new()));
        let hanging: LabelSet = [Label::HangingPiece].into_iter().collect();
        assert!(!always_gives_way(Label::Deflection, &hanging) && !always_gives_way(Label::TrappedPiece, &hanging));
        // Conditional rules never silence in advance.
        let pinned_defender: LabelSet = [Label::PinnedDefender].into_iter().collect();
        assert!(!always_gives_way(Label::Pin, &pinned_defender));
    }

    /// What a label always removes is what always gives way to it.
    #[test]
    fn always_removed_by_is_always_gives_way_turned_round() {
        for &winner in Label::ALL {
            let present = LabelSet::of(&[winner]);
            for &loser in Label::ALL {
                assert_eq!(
                    always_removed_by(winner).contains(loser),
                    always_gives_way(loser, &present),
                    "{loser:?} {winner:?}"
                );
            }
        }
    }

    /// A pin used again on our next move, its pieces unmoved, is the same
    /// tactic (Lichess 054QS: ...Rf1+ Rxf1 ...Rxf1+, the d3 bishop pinned
    /// to the d2 queen both times); a new pin on the next move stays (009FS:
    /// the e6 knight pinned to the e1 rook, then ...Rxe1 pins the c1 bishop).
    #[test]
    fn a_pin_used_again_on_the_next_move_is_a_repeat() {
        let pins = |fen: &str, moves: &str| {
            let classified = crate::tactics::classify_explained(&Line::parse(fen, moves, LineForm::Puzzle).unwrap());
            let kept: Vec<u16> = classified.fires.iter().filter(|f| f.label == Label::Pin).map(|f| f.ply).collect();
            let repeats: Vec<u16> =
                classified.removed.iter().filter(|r| r.rule == REPEAT_WHY).map(|r| r.fire.ply).collect();
            (kept, repeats)
        };
        let fen = "5r2/5r2/p6k/1pNp2pp/1P1q4/P2B4/3Q2PP/2R4K w - - 2 38";
        assert_eq!(pins(fen, "h2h3 f7f1 c1f1 f8f1 d3f1 d4d2"), (vec![1], vec![3]));
        let fen = "r2qr1k1/p5bp/1pp1b1p1/8/2QN1p2/2P1n2P/PP3PP1/R1B1RNK1 w - - 1 18";
        assert_eq!(pins(fen, "d4e6 e3c4 e6d8 e8e1"), (vec![1, 3], vec![]));
    }

    #[test]
    fn the_generated_table_names_every_rule() {
        let text = markdown();
        assert_eq!(
            text.lines()
                .filter(|l| l.starts_with("| ") && !l.starts_with("| loser") && !l.starts_with("| label"))
                .count(),
            RULES.len() + NEXT_MOVE_RULES.len() + REPEATS.len()
        );
        assert!(text.contains("| `pin` | the same pin, its pieces where they stood"));
        assert!(text.contains("| `trappedPiece` | any other seed tactic or motif but `counterThreat` |"));
        assert!(text.contains("| `exposedKing` | `fork`, `skewer`, `pin`,"));
    }
}
