//! The seed tactics: the four seed documents' rules, word for word (pinnedDefender,
//! trappedPiece, hangingPiece, and discoveredCheck with discoveredAttack and doubleCheck).
//! Move labels: each detector reads one judged ply's facts ([`crate::facts::PlyFacts`]) and
//! runs on every solver move.

pub mod discovered_check;
pub mod hanging_piece;
pub mod pinned_defender;
pub mod trapped_piece;
