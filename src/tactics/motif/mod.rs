//! Koga's tactical motifs, guided by Lichess's themes: pins, forks, skewers, deflections,
//! sacrifices and the rest. Move labels, each read from one judged ply's facts
//! ([`crate::facts::PlyFacts`]) on every solver move; the material ones name what they win
//! (`victim`) and what they net (`gain`, [`crate::net`]).

pub mod advanced_pawn;
pub mod attacking_f2f7;
pub mod attraction;
pub mod capturing_defender;
pub mod clearance;
pub mod counter_threat;
pub mod defensive_move;
pub mod deflection;
pub mod double_attack;
pub mod exposed_king;
pub mod fork;
pub mod insufficiently_defended;
pub mod interference;
pub mod intermezzo;
pub mod overloading;
pub mod pin;
pub mod quiet_move;
pub mod sacrifice;
pub mod skewer;
pub mod x_ray_attack;
