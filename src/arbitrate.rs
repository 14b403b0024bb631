//! Arbitration: which label gives way to which when both fire on one ply.
//! One table (spec §4), applied per ply after every detector ran, so a
//! follow-up fire can never remove a key-move fire.
//!
//! | loser | gives way to | when |
//! |---|---|---|
//! | pin | pinnedDefender | same pinned piece and pinner |
//! | capturingDefender | pinnedDefender | same victim or same defender |
//! | discoveredAttack | pinnedDefender | captured value ≥ value the discovery hits |
//! | pinnedDefender | discoveredAttack | the discovery hits more than we capture |
//! | trappedPiece | pin | same target |
//! | trappedPiece | pinnedDefender | its victim or pinned defender is the target |
//! | trappedPiece | fork, hangingPiece, insufficientlyDefended | always |
//! | trappedPiece (short-line fallback) | any other tactic but counterThreat | always |
//! | doubleAttack, insufficientlyDefended | discoveredCheck | always |
//! | deflection | hangingPiece | always |
//!
//! hangingPiece with fork or skewer: all are kept (no rule). discoveredCheck
//! always comes with discoveredAttack, and with doubleCheck when two pieces
//! give check: the detector emits them together.

use shakmaty::Position;

use crate::board::value_at;
use crate::facts::PlyFacts;
use crate::tactics::{Fire, Label};

/// A fire arbitration removed, the fire it gave way to, and the rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Removed {
    pub fire: Fire,
    pub by: Label,
    pub rule: &'static str,
}

type When = fn(&PlyFacts, &Fire, &Fire) -> bool;

struct Rule {
    loser: Label,
    winners: &'static [Label],
    when: When,
    why: &'static str,
}

/// The motifs: what "another tactic" means for the trappedPiece fallback.
const TACTICS_BUT_COUNTER_THREAT: &[Label] = &[
    Label::PinnedDefender,
    Label::HangingPiece,
    Label::DiscoveredCheck,
    Label::DiscoveredAttack,
    Label::DoubleCheck,
    Label::Pin,
    Label::Fork,
    Label::DoubleAttack,
    Label::Skewer,
    Label::CapturingDefender,
    Label::Deflection,
    Label::InsufficientlyDefended,
];

const RULES: &[Rule] = &[
    Rule {
        loser: Label::Pin,
        winners: &[Label::PinnedDefender],
        when: |_, pin, pd| pin.roles.target == pd.roles.defender && pin.roles.pinner == pd.roles.pinner,
        why: "pinnedDefender describes the same pin and what it wins",
    },
    Rule {
        loser: Label::CapturingDefender,
        winners: &[Label::PinnedDefender],
        when: |_, cd, pd| cd.roles.victim == pd.roles.victim || cd.roles.defender == pd.roles.defender,
        why: "pinnedDefender describes the same pieces more completely",
    },
    Rule {
        loser: Label::DiscoveredAttack,
        winners: &[Label::PinnedDefender],
        when: |facts, da, pd| pd_gain(pd) >= discovery_hits(facts, da),
        why: "the pinned-defender capture wins at least what the discovery hits",
    },
    Rule {
        loser: Label::PinnedDefender,
        winners: &[Label::DiscoveredAttack],
        when: |facts, pd, da| discovery_hits(facts, da) > pd_gain(pd),
        why: "the discovery hits more than the pinned-defender capture wins",
    },
    Rule {
        loser: Label::TrappedPiece,
        winners: &[Label::Pin],
        when: |_, tp, pin| tp.roles.target == pin.roles.target,
        why: "the target is reported as pinned: the pin tells the story",
    },
    Rule {
        loser: Label::TrappedPiece,
        winners: &[Label::PinnedDefender],
        when: |_, tp, pd| tp.roles.target == pd.roles.defender || tp.roles.target == pd.roles.victim,
        why: "pinnedDefender on the same target tells the story",
    },
    Rule {
        loser: Label::TrappedPiece,
        winners: &[Label::Fork, Label::HangingPiece, Label::InsufficientlyDefended],
        when: |_, _, _| true,
        why: "trappedPiece is a supporting label: a richer tactic explains the move",
    },
    Rule {
        loser: Label::TrappedPiece,
        winners: TACTICS_BUT_COUNTER_THREAT,
        when: |_, tp, _| tp.fallback,
        why: "the short-line fallback stays silent when another tactic was found",
    },
    Rule {
        loser: Label::DoubleAttack,
        winners: &[Label::DiscoveredCheck],
        when: |_, _, _| true,
        why: "the discovered check is the real point of the move",
    },
    Rule {
        loser: Label::InsufficientlyDefended,
        winners: &[Label::DiscoveredCheck],
        when: |_, _, _| true,
        why: "the discovered check is the real point of the move",
    },
    Rule {
        loser: Label::Deflection,
        winners: &[Label::HangingPiece],
        when: |_, _, _| true,
        why: "a hanging piece outranks a bare deflection",
    },
];

fn pd_gain(pd: &Fire) -> i32 {
    pd.gain.map_or(0, i32::from)
}

/// Value of what a discovered attack hits (a king outweighs everything).
fn discovery_hits(facts: &PlyFacts, da: &Fire) -> i32 {
    da.roles.target.map_or(0, |t| value_at(facts.after.board(), t))
}

/// Applies the table to one ply's fires. Every rule is judged against the
/// fires as the detectors left them, so the order of rules and fires does
/// not matter.
pub fn arbitrate(facts: &PlyFacts, fires: &mut Vec<Fire>, removed: &mut Vec<Removed>) {
    // Decide every loser first (a bit per fire, no copy of the fires), then
    // drop them all at once.
    let mut losers = 0u64;
    for (i, fire) in fires.iter().enumerate().take(64) {
        for rule in RULES.iter().filter(|r| r.loser == fire.label) {
            let winner = fires.iter().find(|w| {
                w.label != fire.label && rule.winners.contains(&w.label) && (rule.when)(facts, fire, w)
            });
            if let Some(winner) = winner {
                removed.push(Removed { fire: *fire, by: winner.label, rule: rule.why });
                losers |= 1 << i;
                break;
            }
        }
    }
    let mut i = 0;
    fires.retain(|_| {
        let keep = losers & (1 << i.min(63)) == 0 || i >= 64;
        i += 1;
        keep
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::{balances, PlyFacts};
    use crate::line::{Line, LineForm};
    use crate::tactics::Roles;
    use shakmaty::Square;

    fn facts_for(line: &Line) -> (Vec<i32>, usize) {
        (balances(line), 1)
    }

    fn fire(label: Label, roles: Roles, gain: Option<i16>) -> Fire {
        Fire { ply: 1, label, follow_up: false, gain, roles, fallback: false }
    }

    #[test]
    fn table_rules() {
        let line = Line::parse("6k1/p2r1ppp/2Nq4/3P4/3Q4/8/PP3PPP/6K1 w - - 0 30", "h2h3 d6c6", LineForm::Puzzle).unwrap();
        let (bal, ply) = facts_for(&line);
        let facts = PlyFacts::new(&line, ply, &bal);
        let pd_roles = Roles {
            victim: Some(Square::C6),
            defender: Some(Square::D5),
            pinner: Some(Square::D7),
            behind: Some(Square::D4),
            ..Roles::default()
        };
        let pin_roles = Roles { target: Some(Square::D5), pinner: Some(Square::D7), ..Roles::default() };
        let other_pin = Roles { target: Some(Square::A2), pinner: Some(Square::D7), ..Roles::default() };
        let mut fires = vec![
            fire(Label::PinnedDefender, pd_roles, Some(3)),
            fire(Label::Pin, pin_roles, None),
            fire(Label::Pin, other_pin, None),
            fire(Label::Deflection, Roles::default(), None),
            fire(Label::HangingPiece, Roles::default(), Some(3)),
            fire(Label::TrappedPiece, Roles { target: Some(Square::H8), ..Roles::default() }, Some(5)),
            fire(Label::Skewer, Roles::default(), Some(1)),
        ];
        let mut removed = Vec::new();
        arbitrate(&facts, &mut fires, &mut removed);
        let kept: Vec<Label> = fires.iter().map(|f| f.label).collect();
        assert_eq!(kept, vec![Label::PinnedDefender, Label::Pin, Label::HangingPiece, Label::Skewer]);
        assert_eq!(fires[1].roles.target, Some(Square::A2), "a different pin stays");
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
    fn pinned_defender_against_discovered_attack_by_value() {
        let line = Line::parse("6k1/p2r1ppp/2Nq4/3P4/3Q4/8/PP3PPP/6K1 w - - 0 30", "h2h3 d6c6", LineForm::Puzzle).unwrap();
        let (bal, ply) = facts_for(&line);
        let facts = PlyFacts::new(&line, ply, &bal);
        // The discovery hits the d4 queen (9): more than the knight (3).
        let da = fire(Label::DiscoveredAttack, Roles { target: Some(Square::D4), ..Roles::default() }, Some(9));
        let mut fires = vec![fire(Label::PinnedDefender, Roles::default(), Some(3)), da];
        let mut removed = Vec::new();
        arbitrate(&facts, &mut fires, &mut removed);
        assert_eq!(fires.iter().map(|f| f.label).collect::<Vec<_>>(), vec![Label::DiscoveredAttack]);
        // It hits the d5 pawn (1): the pinned-defender capture stays.
        let da = fire(Label::DiscoveredAttack, Roles { target: Some(Square::D5), ..Roles::default() }, Some(1));
        let mut fires = vec![fire(Label::PinnedDefender, Roles::default(), Some(3)), da];
        arbitrate(&facts, &mut fires, &mut removed);
        assert_eq!(fires.iter().map(|f| f.label).collect::<Vec<_>>(), vec![Label::PinnedDefender]);
    }

    #[test]
    fn fallback_trap_gives_way_except_to_counter_threat() {
        let line = Line::parse("6k1/p2r1ppp/2Nq4/3P4/3Q4/8/PP3PPP/6K1 w - - 0 30", "h2h3 d6c6", LineForm::Puzzle).unwrap();
        let (bal, ply) = facts_for(&line);
        let facts = PlyFacts::new(&line, ply, &bal);
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
        let mut fires = vec![fire(Label::TrappedPiece, Roles::default(), Some(3)), fire(Label::Skewer, Roles::default(), None)];
        arbitrate(&facts, &mut fires, &mut removed);
        assert_eq!(fires.len(), 2);
    }
}
