//! One pre-warmed worker: a Python "zygote" process running `runner.py`,
//! which imported the prelude once and forks a confined child per job. This
//! file only moves frames over the zygote's stdin/stdout, with deadlines so
//! that a wedged worker is killed instead of hanging the judge.

use std::io::{Read, Write};
use std::os::fd::AsFd;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use nix::poll::{PollFd, PollFlags, PollTimeout, poll};

use super::ExecConfig;
use super::protocol::{self, Ready};

const RUNNER: &str = include_str!("runner.py");
const FBJOB: &str = include_str!("fbjob.py");

/// Largest frame a worker may send (replies carry capped output and values).
const MAX_FRAME: usize = 256 << 20;

/// A running zygote.
pub(crate) struct Worker {
    child: Child,
    /// `None` once closed (shutting down).
    stdin: Option<ChildStdin>,
    stdout: ChildStdout,
    pub ready: Ready,
}

/// Why talking to a worker failed; the worker is then discarded.
#[derive(Debug)]
pub(crate) struct WorkerError(pub String);

impl Worker {
    /// Start a zygote and wait until it reports ready (prelude imported).
    pub fn spawn(cfg: &ExecConfig, uid: u32) -> Result<Worker, WorkerError> {
        let fbjob = serde_json::to_string(FBJOB).map_err(|e| WorkerError(e.to_string()))?;
        let source = format!("FBJOB_SOURCE = {fbjob}\n{RUNNER}");
        let mut child = Command::new(&cfg.python)
            .arg("-I")
            .arg("-c")
            .arg(source)
            .env_clear()
            .env("PATH", "/usr/local/bin:/usr/bin:/bin")
            .env("LANG", "C.UTF-8")
            .env("PYTHONHASHSEED", "0")
            .current_dir("/")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| WorkerError(format!("cannot start {}: {e}", cfg.python.display())))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err(WorkerError("worker pipes missing".into()));
        };
        let mut worker = Worker { child, stdin: Some(stdin), stdout, ready: Ready::default() };
        let started = (|| {
            worker.send(&protocol::config_frame(cfg, uid))?;
            let frame = worker.recv(Instant::now() + Duration::from_secs(120))?;
            serde_json::from_slice::<Ready>(&frame).map_err(|e| WorkerError(format!("bad ready frame: {e}")))
        })();
        match started {
            Ok(ready) if ready.ready => {
                worker.ready = ready;
                Ok(worker)
            }
            Ok(ready) => {
                worker.kill();
                Err(WorkerError(ready.error.unwrap_or_else(|| "worker not ready".into())))
            }
            Err(WorkerError(e)) => {
                let mut err = String::new();
                worker.kill();
                if let Some(mut s) = worker.child.stderr.take() {
                    let _ = s.by_ref().take(64 << 10).read_to_string(&mut err);
                }
                Err(WorkerError(format!("{e}; python said: {}", err.trim())))
            }
        }
    }

    /// Send one frame.
    pub fn send(&mut self, value: &serde_json::Value) -> Result<(), WorkerError> {
        let data = serde_json::to_vec(value).map_err(|e| WorkerError(e.to_string()))?;
        let len = u32::try_from(data.len()).map_err(|_| WorkerError("job too large".into()))?;
        let stdin = self.stdin.as_mut().ok_or_else(|| WorkerError("worker closed".into()))?;
        stdin
            .write_all(&len.to_be_bytes())
            .and_then(|()| stdin.write_all(&data))
            .and_then(|()| stdin.flush())
            .map_err(|e| WorkerError(format!("worker gone: {e}")))
    }

    /// Receive one frame, giving up at `deadline`.
    pub fn recv(&mut self, deadline: Instant) -> Result<Vec<u8>, WorkerError> {
        let mut len = [0u8; 4];
        self.read_exact_by(&mut len, deadline)?;
        let len = u32::from_be_bytes(len) as usize;
        if len > MAX_FRAME {
            return Err(WorkerError(format!("worker frame of {len} bytes")));
        }
        let mut buf = vec![0u8; len];
        self.read_exact_by(&mut buf, deadline)?;
        Ok(buf)
    }

    fn read_exact_by(&mut self, buf: &mut [u8], deadline: Instant) -> Result<(), WorkerError> {
        let mut filled = 0;
        while filled < buf.len() {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(WorkerError("worker did not answer in time".into()));
            }
            let ms = u16::try_from(left.as_millis().min(60_000)).unwrap_or(60_000);
            let mut fds = [PollFd::new(self.stdout.as_fd(), PollFlags::POLLIN)];
            match poll(&mut fds, PollTimeout::from(ms)) {
                Ok(0) | Err(nix::errno::Errno::EINTR) => continue,
                Ok(_) => {}
                Err(e) => return Err(WorkerError(format!("poll: {e}"))),
            }
            match self.stdout.read(&mut buf[filled..]) {
                Ok(0) => return Err(WorkerError("worker exited".into())),
                Ok(n) => filled += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(WorkerError(format!("worker read: {e}"))),
            }
        }
        Ok(())
    }

    /// Kill the zygote. Its job child, if any, dies with it: the child has a
    /// parent-death SIGKILL and is init of its PID namespace.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Worker {
    /// Closing the zygote's stdin makes it exit after killing its job (so
    /// its CPU time is accounted to the judge); kill it if it lingers.
    fn drop(&mut self) {
        drop(self.stdin.take());
        let until = Instant::now() + Duration::from_secs(1);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }
}
