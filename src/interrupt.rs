//! Stopping a run cleanly on SIGINT (Ctrl-C) or SIGTERM.
//!
//! [`watch`] installs the handlers (the CLI does, for `annotate` and `run`).
//! The first signal only sets a flag: the pipeline sees it between batches,
//! stops reading, and removes its temporary files before the process exits
//! with 128 + the signal's number. A second signal exits at once.

use std::sync::atomic::{AtomicI32, Ordering};

use signal_hook::consts::{SIGINT, SIGTERM};

/// The first signal received, 0 while none.
static RECEIVED: AtomicI32 = AtomicI32::new(0);

/// A signal that asks a run to stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signal {
    Interrupt,
    Terminate,
}

impl Signal {
    fn from_number(number: i32) -> Option<Signal> {
        match number {
            SIGINT => Some(Signal::Interrupt),
            SIGTERM => Some(Signal::Terminate),
            _ => None,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Signal::Interrupt => "SIGINT",
            Signal::Terminate => "SIGTERM",
        }
    }

    /// The shell's exit status for a process stopped by this signal.
    pub const fn exit_code(self) -> i32 {
        128 + match self {
            Signal::Interrupt => SIGINT,
            Signal::Terminate => SIGTERM,
        }
    }
}

/// Installs the handlers for SIGINT and SIGTERM.
pub fn watch() -> std::io::Result<()> {
    for number in [SIGINT, SIGTERM] {
        // SAFETY: the handler only touches an atomic and calls `_exit`,
        // both async-signal-safe.
        unsafe {
            signal_hook::low_level::register(number, move || {
                if RECEIVED.swap(number, Ordering::SeqCst) != 0 {
                    signal_hook::low_level::exit(128 + number);
                }
            })?;
        }
    }
    Ok(())
}

/// The signal that asked the run to stop, if one did.
pub fn received() -> Option<Signal> {
    Signal::from_number(RECEIVED.load(Ordering::SeqCst))
}
