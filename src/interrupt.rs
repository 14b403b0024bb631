//! Stopping a run cleanly on SIGINT (Ctrl-C) or SIGTERM.
//!
//! [`watch`] installs the handlers (the CLI does, for `annotate` and `run`).
//! The first signal only sets a flag: the pipeline sees it between batches,
//! stops reading, and removes its temporary files before the process exits
//! with 128 + the signal's number. A second signal (an impatient Ctrl-C, or
//! `timeout -s INT`, which can deliver two) stops at once: a watcher thread
//! removes the temporary files made with [`create_temporary`], says so in
//! one line and exits with the same status.

use std::fs::File;
use std::io::{Read, Write};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Mutex;

use signal_hook::consts::{SIGINT, SIGTERM};

/// The first signal received, 0 while none.
static RECEIVED: AtomicI32 = AtomicI32::new(0);

/// Who ends the process: 0 while running, [`FINISHING`] once the run's own
/// path has its last word to say, [`STOPPING`] once a second signal has.
static ENDING: AtomicI32 = AtomicI32::new(0);
const FINISHING: i32 = 1;
const STOPPING: i32 = 2;

/// Files being written under temporary names: what a second signal removes.
static TEMPORARY: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Creates a file under a temporary name, to be removed should a second
/// signal stop the process (a path renamed or removed since is passed
/// over). Made and registered under the lock that the removal holds until
/// the process exits: a file is either removed or never made, even where
/// the signal comes while a writer opens it.
pub fn create_temporary(path: &Path) -> std::io::Result<File> {
    let mut temporary = TEMPORARY.lock().unwrap_or_else(|e| e.into_inner());
    let file = File::create(path)?;
    temporary.push(path.to_owned());
    Ok(file)
}

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
    // The handler may only do async-signal-safe work: on a second signal it
    // writes the signal's number down a socket, and the watcher thread does
    // the rest.
    let (wake, mut woken) = UnixStream::pair()?;
    for number in [SIGINT, SIGTERM] {
        let wake = wake.try_clone()?;
        // SAFETY: the handler only touches an atomic and writes to a socket
        // (`write(2)`), both async-signal-safe.
        unsafe {
            signal_hook::low_level::register(number, move || {
                if RECEIVED.swap(number, Ordering::SeqCst) != 0 {
                    let _ = (&wake).write(&[number as u8]);
                }
            })?;
        }
    }
    std::thread::Builder::new().name("koga-signals".into()).spawn(move || {
        let mut number = [0u8];
        if woken.read_exact(&mut number).is_ok() {
            stop_now(i32::from(number[0]));
        }
    })?;
    Ok(())
}

/// Called by the run's own path before its last line (the summary, an
/// error, "interrupted by …"): from then on a second signal changes nothing,
/// so the process says one thing. Where a second signal came first, this
/// waits for its watcher to end the process.
pub fn finishing() {
    if ENDING.compare_exchange(0, FINISHING, Ordering::SeqCst, Ordering::SeqCst) == Err(STOPPING) {
        loop {
            std::thread::park();
        }
    }
}

/// A second signal: removes the temporary files, says so, and exits.
fn stop_now(number: i32) {
    if ENDING.compare_exchange(0, STOPPING, Ordering::SeqCst, Ordering::SeqCst).is_err() {
        // The run is already saying its last line.
        return;
    }
    // Held to the exit: no temporary file is made after the removal.
    let paths = TEMPORARY.lock().unwrap_or_else(|e| e.into_inner());
    let removed = paths.iter().filter(|path| std::fs::remove_file(path).is_ok()).count();
    let name = Signal::from_number(number).map_or("signal", Signal::name);
    eprintln!("koga: stopped at once by a second {name}: removed {removed} temporary files");
    signal_hook::low_level::exit(128 + number);
}

/// The signal that asked the run to stop, if one did.
pub fn received() -> Option<Signal> {
    Signal::from_number(RECEIVED.load(Ordering::SeqCst))
}
