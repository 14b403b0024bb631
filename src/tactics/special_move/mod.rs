//! The special moves: promotion and underpromotion, castling, en passant. Move labels that
//! read the move itself.

pub mod castling;
pub mod en_passant;
pub mod promotion;
