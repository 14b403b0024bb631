//! A UCI engine process: start it, speak the part of the protocol the
//! engine stage needs, and give up on it after a deadline.
//!
//! Koga's own module rather than a crate. The crates that speak UCI (`uci`
//! 0.2, `uciengine` 0.1, `ruci` 2) were read on crates.io: `uci` blocks
//! forever on an engine that stops answering and has no MultiPV parsing,
//! `uciengine` needs a tokio runtime and does not support analysis, and
//! `ruci` is a protocol parser and connection without deadlines. The stage
//! needs exactly three things none of them gives together: a deadline on
//! every answer (a hung engine is killed, not waited for), MultiPV `info`
//! lines read into scores, and no async runtime beside rayon. That is a
//! line reader thread, a channel and about two hundred lines.
//!
//! The engine's output is read on its own thread into a channel, so every
//! wait is a `recv_timeout`: an engine that stops answering costs at most
//! the deadline, then it is killed (`Drop`).

use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use super::Score;

/// Why an engine could not answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UciError {
    /// The program could not be started.
    Spawn(String),
    /// The engine did not answer within the deadline.
    Timeout { waiting_for: &'static str, after: Duration },
    /// The engine exited (or closed its output).
    Exited { waiting_for: &'static str },
    /// Writing to the engine failed (it has gone).
    Write(String),
    /// The engine said something Koga cannot use.
    Protocol(String),
}

impl fmt::Display for UciError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciError::Spawn(e) => write!(f, "cannot start: {e}"),
            UciError::Timeout { waiting_for, after } => {
                write!(f, "no {waiting_for} within {:.1} s", after.as_secs_f64())
            }
            UciError::Exited { waiting_for } => write!(f, "exited while Koga waited for {waiting_for}"),
            UciError::Write(e) => write!(f, "cannot write to the engine: {e}"),
            UciError::Protocol(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for UciError {}

/// One principal variation of a search's last report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pv {
    /// Its first move, in UCI.
    pub mv: String,
    /// Its score, from the side to move.
    pub score: Score,
}

/// A running engine.
pub struct Uci {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The engine's `id name`.
    pub name: String,
    timeout: Duration,
    multipv: usize,
}

impl Uci {
    /// Starts the engine at `path`, completes the `uci` handshake and sets
    /// one search thread and `hash_mb` of hash. `timeout` bounds every wait.
    pub fn start(path: &Path, hash_mb: u32, timeout: Duration) -> Result<Uci, UciError> {
        let mut command = Command::new(path);
        command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
        // Its own process group: Ctrl-C at a terminal signals Koga, which
        // stops the run, and not the engines under it (an engine that lost
        // Koga reads the end of its input and exits).
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command.spawn().map_err(|e| UciError::Spawn(e.to_string()))?;
        let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
            (Some(i), Some(o)) => (i, o),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(UciError::Spawn("no pipes to the process".into()));
            }
        };
        let (tx, lines) = channel();
        thread::Builder::new()
            .name("koga-uci-reader".into())
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut line = Vec::new();
                loop {
                    line.clear();
                    match reader.read_until(b'\n', &mut line) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let text = String::from_utf8_lossy(&line).trim_end().to_owned();
                            if tx.send(text).is_err() {
                                break;
                            }
                        }
                    }
                }
            })
            .map_err(|e| UciError::Spawn(e.to_string()))?;
        let mut engine = Uci { child, stdin, lines, name: String::new(), timeout, multipv: 1 };
        engine.send("uci")?;
        let deadline = Instant::now() + timeout;
        loop {
            let line = engine.next_line("uciok", deadline)?;
            if let Some(name) = line.strip_prefix("id name ") {
                engine.name = name.trim().to_owned();
            } else if line.trim() == "uciok" {
                break;
            }
        }
        if engine.name.is_empty() {
            engine.name = "unnamed UCI engine".to_owned();
        }
        engine.send("setoption name Threads value 1")?;
        engine.send(&format!("setoption name Hash value {hash_mb}"))?;
        engine.send("setoption name MultiPV value 1")?;
        engine.ready()?;
        Ok(engine)
    }

    fn send(&mut self, command: &str) -> Result<(), UciError> {
        writeln!(self.stdin, "{command}").and_then(|()| self.stdin.flush()).map_err(|e| UciError::Write(e.to_string()))
    }

    fn next_line(&mut self, waiting_for: &'static str, deadline: Instant) -> Result<String, UciError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(UciError::Timeout { waiting_for, after: self.timeout }),
            Err(RecvTimeoutError::Disconnected) => Err(UciError::Exited { waiting_for }),
        }
    }

    /// `isready`, then waits for `readyok`.
    fn ready(&mut self) -> Result<(), UciError> {
        self.send("isready")?;
        let deadline = Instant::now() + self.timeout;
        while self.next_line("readyok", deadline)?.trim() != "readyok" {}
        Ok(())
    }

    /// `ucinewgame`: the engine forgets its hash and history, so what it
    /// searches next depends on nothing searched before.
    pub fn new_game(&mut self) -> Result<(), UciError> {
        self.send("ucinewgame")?;
        self.ready()
    }

    /// Searches `fen` after `moves` (UCI) for `nodes` nodes and returns the
    /// last report of each of the `multipv` best lines, best first (fewer
    /// where the position has fewer legal moves).
    pub fn search(&mut self, fen: &str, moves: &[String], nodes: u64, multipv: usize) -> Result<Vec<Pv>, UciError> {
        if multipv != self.multipv {
            self.send(&format!("setoption name MultiPV value {multipv}"))?;
            self.multipv = multipv;
        }
        let mut position = format!("position fen {fen}");
        if !moves.is_empty() {
            position.push_str(" moves");
            for mv in moves {
                position.push(' ');
                position.push_str(mv);
            }
        }
        self.send(&position)?;
        self.send(&format!("go nodes {nodes}"))?;
        let deadline = Instant::now() + self.timeout;
        let mut lines: Vec<Option<Pv>> = vec![None; multipv];
        loop {
            let line = self.next_line("bestmove", deadline)?;
            if line.starts_with("bestmove") {
                break;
            }
            if let Some((index, pv)) = parse_info(&line)? {
                if let Some(slot) = lines.get_mut(index) {
                    *slot = Some(pv);
                }
            }
        }
        let pvs: Vec<Pv> = lines.into_iter().map_while(|pv| pv).collect();
        if pvs.is_empty() {
            return Err(UciError::Protocol("engine reported no scored line before bestmove".into()));
        }
        Ok(pvs)
    }
}

impl Drop for Uci {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        // A well-behaved engine exits on `quit`; one that does not is killed.
        let deadline = Instant::now() + Duration::from_millis(200);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An `info` line with a score and a principal variation: its MultiPV
/// index (0-based) and the line. Bound scores (`lowerbound`,
/// `upperbound`) and lines without a `pv` are skipped.
fn parse_info(line: &str) -> Result<Option<(usize, Pv)>, UciError> {
    let mut words = line.split_ascii_whitespace();
    if words.next() != Some("info") {
        return Ok(None);
    }
    let (mut index, mut score, mut mv, mut bound) = (1usize, None, None, false);
    let bad = || UciError::Protocol(format!("unreadable info line: {:.80}", line));
    while let Some(word) = words.next() {
        match word {
            "multipv" => index = words.next().and_then(|w| w.parse().ok()).ok_or_else(bad)?,
            "score" => {
                let kind = words.next().ok_or_else(bad)?;
                let value: i32 = words.next().and_then(|w| w.parse().ok()).ok_or_else(bad)?;
                score = Some(match kind {
                    "cp" => Score::Cp(value),
                    "mate" => Score::Mate(value),
                    _ => return Err(bad()),
                });
            }
            "lowerbound" | "upperbound" => bound = true,
            "pv" => {
                let first = words.next().ok_or_else(bad)?;
                if !is_uci_move(first) {
                    return Err(UciError::Protocol(format!("not a UCI move in a pv: {:.20}", first)));
                }
                mv = Some(first.to_owned());
                break; // the rest of the line is the variation
            }
            // `string` runs to the end of the line
            "string" => return Ok(None),
            _ => {}
        }
    }
    match (score, mv) {
        (Some(score), Some(mv)) if !bound && index >= 1 => Ok(Some((index - 1, Pv { mv, score }))),
        _ => Ok(None),
    }
}

/// `e2e4`, `e7e8q`: a UCI move's shape (legality is checked on the board).
fn is_uci_move(word: &str) -> bool {
    let b = word.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    match b.len() {
        4 => square(b[0], b[1]) && square(b[2], b[3]),
        5 => square(b[0], b[1]) && square(b[2], b[3]) && b"qrbn".contains(&b[4]),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines() {
        let pv = |mv: &str, score| Pv { mv: mv.to_owned(), score };
        assert_eq!(
            parse_info("info depth 12 seldepth 15 multipv 2 score cp -35 nodes 100 nps 1 pv e2e4 e7e5").unwrap(),
            Some((1, pv("e2e4", Score::Cp(-35))))
        );
        assert_eq!(parse_info("info depth 3 score mate -2 pv h7h8q").unwrap(), Some((0, pv("h7h8q", Score::Mate(-2)))));
        assert_eq!(parse_info("info depth 12 score cp 20 lowerbound pv e2e4").unwrap(), None);
        assert_eq!(parse_info("info string NNUE evaluation using nn.nnue").unwrap(), None);
        assert_eq!(parse_info("info depth 1 currmove e2e4 currmovenumber 1").unwrap(), None);
        assert_eq!(parse_info("readyok").unwrap(), None);
        assert!(parse_info("info score cp x pv e2e4").is_err());
        assert!(parse_info("info score cp 1 pv hello").is_err());
        assert!(parse_info("info multipv").is_err());
    }

    #[test]
    fn uci_move_shapes() {
        assert!(is_uci_move("e2e4") && is_uci_move("a7a8n"));
        assert!(!is_uci_move("e2e9") && !is_uci_move("0000") && !is_uci_move("e7e8k") && !is_uci_move("é2e4"));
    }
}
