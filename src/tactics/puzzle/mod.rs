//! Labels of the whole puzzle (`puzzle_labels`): its length, its phase, the material of an
//! endgame, and the side of the board an attack is on. Each reads the start position and the
//! line once per puzzle.

pub mod endgame;
pub mod length;
pub mod phase;
pub mod side_attack;
