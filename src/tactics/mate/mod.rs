//! Mate, mate in N and the nineteen named mating patterns. Line labels: `mate` and
//! `mateInN` read the whole line; each pattern reads the final position of a line that ends in
//! our mate ([`crate::mate_scene::MateScene`]: the mated king, its flight squares, who guards and
//! who blocks them) and fires on the mating move.

pub mod anastasia_mate;
pub mod arabian_mate;
pub mod back_rank_mate;
pub mod balestra_mate;
pub mod blind_swine_mate;
pub mod boden_mate;
pub mod corner_mate;
pub mod dovetail_mate;
pub mod epaulette_mate;
pub mod hook_mate;
pub mod kill_box_mate;
pub mod mate_in_n;
pub mod morphys_mate;
pub mod opera_mate;
pub mod pillsburys_mate;
pub mod smothered_mate;
pub mod swallowstail_mate;
pub mod triangle_mate;
pub mod vukovic_mate;
