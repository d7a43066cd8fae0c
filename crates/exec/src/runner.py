# flowbench sandbox runner (trusted). Started by src/exec/worker.rs as
# `python -I -c <this file>`; it is the "zygote": it confines itself once
# (network and mount namespaces), imports the prelude once, then for every
# job forks a fresh child into a new PID namespace, confines the child
# (rlimits, uid, scratch dir, scrubbed env) and supervises it from outside
# (wall clock, output caps). The Rust side speaks to it over stdin/stdout
# with 4-byte big-endian length-prefixed JSON frames.
import ctypes
import gc
import json
import os
import resource
import select
import signal
import struct
import sys
import time

CTRL_IN = os.dup(0)
CTRL_OUT = os.dup(1)
_devnull = os.open("/dev/null", os.O_RDWR)
os.dup2(_devnull, 0)
os.dup2(_devnull, 1)
os.dup2(_devnull, 2)
os.close(_devnull)

LIBC = ctypes.CDLL(None, use_errno=True)
CLONE_NEWNS = 0x00020000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 32, 4096, 16384, 1 << 18
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_SET_CHILD_SUBREAPER, PR_SET_NO_NEW_PRIVS = 1, 4, 36, 38
MAX_RECORD = 64 << 20


def read_exact(fd, n):
    buf = b""
    while len(buf) < n:
        chunk = os.read(fd, n - len(buf))
        if not chunk:
            raise EOFError
        buf += chunk
    return buf


def recv_frame():
    (n,) = struct.unpack(">I", read_exact(CTRL_IN, 4))
    return json.loads(read_exact(CTRL_IN, n))


def send_frame(obj):
    data = json.dumps(obj, ensure_ascii=True).encode()
    data = struct.pack(">I", len(data)) + data
    while data:
        data = data[os.write(CTRL_OUT, data):]


def libc_call(name, *args):
    if getattr(LIBC, name)(*args) != 0:
        err = ctypes.get_errno()
        raise OSError(err, "%s: %s" % (name, os.strerror(err)))


def forced(cfg, step):
    """Test hook: fail `step` on purpose (FLOWBENCH_TEST_FAIL_STEP, see docs/guide/judging.md)."""
    if cfg.get("fail_step") == step:
        raise OSError(1, "forced failure of step %s (FLOWBENCH_TEST_FAIL_STEP)" % step)


def mount(src, target, fstype, flags, data):
    enc = lambda s: None if s is None else s.encode()
    libc_call("mount", enc(src), enc(target), enc(fstype), ctypes.c_ulong(flags), enc(data))


# ---------------------------------------------------------------- zygote setup

def needed_paths():
    """Paths the interpreter must keep seeing under hidden directories."""
    paths = {sys.prefix, sys.base_prefix, os.path.dirname(os.path.realpath(sys.executable))}
    for p in sys.path:
        if p and os.path.exists(p):
            paths.add(p)
    out = set()
    for p in paths:
        out.add(os.path.realpath(p))
        out.add(os.path.abspath(p))
    return sorted(out)


def cover(directory, keep, options="size=1m,mode=0755"):
    """Mount an empty tmpfs over `directory`, re-exposing the `keep` paths
    (the interpreter and its packages, wherever they live) by bind mount;
    returns the top-level names re-exposed, which job cleanup must spare."""
    inner = [k for k in keep if k.startswith(directory.rstrip("/") + "/")]
    tops = [k for k in inner if not any(k != o and k.startswith(o + "/") for o in inner)]
    fds = [(k, os.open(k, os.O_PATH)) for k in tops]
    mount("tmpfs", directory, "tmpfs", MS_NOSUID | MS_NODEV, options)
    for k, fd in fds:
        if os.path.isdir("/proc/self/fd/%d" % fd):
            os.makedirs(k, mode=0o755, exist_ok=True)
        else:
            os.makedirs(os.path.dirname(k), mode=0o755, exist_ok=True)
            open(k, "w").close()
        mount("/proc/self/fd/%d" % fd, k, None, MS_BIND | MS_REC, None)
        os.close(fd)
    return {k[len(directory.rstrip("/")) + 1:].split("/")[0] for k in tops}


STEP = ""

# Names directly under /tmp, /var/tmp, /dev/shm that re-expose the
# interpreter (a venv under /tmp): job cleanup leaves them alone.
KEPT_IN_SCRATCH = {}


def confine_zygote(cfg):
    """Network + mount namespace for the zygote and all its children. Every
    step either works or is reported `refused: …` (the judge then refuses)."""
    report = {}
    try:
        forced(cfg, "network")
        libc_call("unshare", CLONE_NEWNET)
        report["network"] = "ok: new network namespace (loopback down)"
    except OSError as e:
        report["network"] = "refused: %s" % e
    try:
        forced(cfg, "mounts")
        libc_call("unshare", CLONE_NEWNS)
        mount(None, "/", None, MS_REC | MS_PRIVATE, None)
        keep = needed_paths()
        hidden, failed = [], []
        for d in cfg["hide"]:
            if d != "/" and os.path.isdir(d) and not any(k == d for k in keep):
                try:
                    forced(cfg, "hide")
                    cover(d, keep)
                    hidden.append(d)
                except OSError as e:
                    failed.append("%s (%s)" % (d, e.strerror))
        scratch = "size=%d,mode=1777" % cfg["scratch_bytes"]
        for d in ("/tmp", "/var/tmp", "/dev/shm"):
            if os.path.isdir(d):
                KEPT_IN_SCRATCH[d] = cover(d, keep, scratch)
        readonly = []
        with open("/proc/self/mountinfo") as f:
            points = [line.split()[4] for line in f]
        for p in points:
            if p in ("/tmp", "/var/tmp", "/dev/shm") or p.startswith(("/proc", "/sys", "/dev")):
                continue
            try:
                st = os.statvfs(p)
                flags = MS_REMOUNT | MS_BIND | MS_RDONLY
                flags |= st.f_flag & (MS_NOSUID | MS_NODEV | MS_NOEXEC)
                mount(None, p, None, flags, None)
                readonly.append(p)
            except OSError:
                pass
        report["filesystem"] = "ok: read-only view, private tmpfs /tmp, hidden: %s" % (", ".join(hidden) or "nothing")
        if failed:
            report["hidden directories"] = "refused: could not hide " + ", ".join(failed)
    except OSError as e:
        report["filesystem"] = "refused: %s" % e
    return report


def become_init(cfg, private_mounts):
    """Fork the real zygote as PID 1 of a new PID namespace; this process
    (what the judge started) only waits for it. Returns whether it worked.
    Without a private mount namespace it must not mount its own /proc (that
    would cover the host's), so it does not try."""
    try:
        forced(cfg, "processes")
        if not private_mounts:
            raise OSError(1, "no private mount namespace to mount its own /proc in")
        libc_call("unshare", CLONE_NEWPID)
    except OSError as e:
        LIBC.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
        return False, "refused: %s; falling back to a uid sweep and child subreaper" % e
    zygote = os.fork()
    if zygote:
        os.close(CTRL_IN)
        os.close(CTRL_OUT)
        while True:
            try:
                os.waitpid(zygote, 0)
                os._exit(0)
            except InterruptedError:
                continue
    # Dies with its parent, i.e. when the judge kills the worker.
    LIBC.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, None)
    return True, "ok: worker is init of its own PID namespace (own /proc); every job process is killed and reaped after the verdict"


# ---------------------------------------------------------------- child side

def confine_child(cfg, uid, cpu_seconds):
    """Limits, then the drop to the candidate's uid: what every candidate
    process (and the start-up probe) goes through. Raises on any failure;
    STEP names the step under way for the probe's report."""
    global STEP
    STEP = "rlimits"
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
    resource.setrlimit(resource.RLIMIT_AS, (cfg["memory_bytes"], cfg["memory_bytes"]))
    resource.setrlimit(resource.RLIMIT_FSIZE, (cfg["file_size_cap"], cfg["file_size_cap"]))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))
    if uid is not None:
        nproc = cfg["max_processes"] if cfg["allow_subprocess"] else 1
        resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))
        forced(cfg, "rlimits")
        STEP = "user"
        os.setgroups([])
        os.setgid(cfg["gid"])
        os.setuid(uid)
        forced(cfg, "user")
    # After setuid: changing credentials clears the parent-death signal.
    LIBC.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    LIBC.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    LIBC.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)


def candidate_main(cfg, job, jobdir, out_w, err_w, res_w, uid, stdin_fd=None):
    """The candidate's process: confine, then hand over to the job code."""
    os.setsid()
    nul = os.open("/dev/null", os.O_RDONLY) if stdin_fd is None else stdin_fd
    os.dup2(nul, 0)
    os.dup2(out_w, 1)
    os.dup2(err_w, 2)
    os.dup2(res_w, 3)
    exe_fd = job.get("exe_fd")
    if exe_fd is not None:
        # fd 4: the compiled program, executed below (after confinement).
        os.dup2(exe_fd, 4)
        os.closerange(5, 65536)
    else:
        os.closerange(4, 65536)
    for sig in (signal.SIGXFSZ, signal.SIGXCPU, signal.SIGTERM, signal.SIGALRM, signal.SIGPROF):
        signal.signal(sig, signal.SIG_DFL)
    os.chdir(jobdir)
    confine_child(cfg, uid, job["cpu_total"])
    os.environ.clear()
    os.environ.update({"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": jobdir,
                       "TMPDIR": jobdir, "LANG": "C.UTF-8", "PYTHONHASHSEED": "0"})
    if exe_fd is not None:
        exec_binary()
    sys.stdin = open(0, "r", closefd=False)
    sys.stdout = open(1, "w", encoding="utf-8", errors="backslashreplace", closefd=False)
    sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False)
    import fbjob  # noqa: the job runner module registered in main()
    fbjob.run(cfg, job, PRELUDE_GLOBALS, COMPAT_GLOBALS)


def exec_binary():
    """Replace this confined process with the compiled program (fd 4). The
    result channel (fd 3) and the program's own fd close on exec, so it
    reports only through its exit status; a failed exec is reported on fd
    3 as the sandbox's failure, not the candidate's."""
    os.set_inheritable(3, False)
    os.set_inheritable(4, False)
    try:
        os.execve(4, ["./program"], dict(os.environ))
    except OSError as e:
        msg = json.dumps({"k": "exec_failed", "msg": str(e)}).encode()
        os.write(3, struct.pack(">I", len(msg)) + msg)
        os._exit(0)


def probe_candidate(cfg, uid):
    """Fork a process confined exactly as a candidate and check from inside
    that confinement took: not root, no capabilities, no new processes, and
    the interpreter and every package directory readable. Returns a report
    {step: "ok: …" | "refused: …"}."""
    readable = [sys.executable] + sorted({p for p in sys.path if p and os.path.isdir(p)})
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        found = {}
        try:
            confine_child(cfg, uid, 5)
            if os.getuid() == 0 or os.geteuid() == 0:
                found["user"] = "refused: candidates would run as root"
            with open("/proc/self/status") as f:
                cap = [l.split()[1] for l in f if l.startswith("CapEff:")]
            if cfg.get("fail_step") == "capabilities":
                found["capabilities"] = "refused: forced failure of step capabilities (FLOWBENCH_TEST_FAIL_STEP)"
            elif not cap or int(cap[0], 16) != 0:
                found["capabilities"] = "refused: effective capabilities %s" % (cap or "unknown")
            for p in readable:
                try:
                    if os.path.isdir(p):
                        os.listdir(p)
                    else:
                        open(p, "rb").close()
                except OSError as e:
                    found["environment"] = "refused: the sandbox user cannot read %s (%s); make the environment world-readable or move it" % (p, e.strerror)
                    break
            if not cfg["allow_subprocess"] and uid is not None:
                try:
                    c = os.fork()
                    if c == 0:
                        os._exit(0)
                    found["rlimits"] = "refused: a candidate could fork despite RLIMIT_NPROC"
                except OSError:
                    pass
        except (OSError, ValueError) as e:
            found[STEP] = "refused: %s" % e
        os.write(w, json.dumps(found).encode())
        os._exit(0)
    os.close(w)
    data = b""
    while True:
        chunk = os.read(r, 65536)
        if not chunk:
            break
        data += chunk
    os.close(r)
    os.waitpid(pid, 0)
    try:
        found = json.loads(data)
    except ValueError:
        found = {"user": "refused: the start-up probe died (%d bytes)" % len(data)}
    report = {"rlimits": "ok: cpu, memory, file size, files, processes", "capabilities": "ok: none"}
    report.update(found)
    return report


# ---------------------------------------------------------------- supervision

def read_records(buf, out):
    """Move complete length-prefixed records from `buf` to `out`."""
    while len(buf) >= 4:
        (n,) = struct.unpack(">I", bytes(buf[:4]))
        if n > MAX_RECORD:
            raise ValueError("record of %d bytes" % n)
        if len(buf) < 4 + n:
            break
        rec = json.loads(bytes(buf[4:4 + n]))
        if type(rec) is not dict:
            raise ValueError("record is not an object")
        out.append(rec)
        del buf[:4 + n]


def kill_all(uid, pid_init):
    """Kill every process of the job and reap it; return {pid: status}.

    As init of the worker's PID namespace the zygote sees every job process
    (orphans, setsid'd and double-forked ones are re-parented to it), so
    kill(-1) reaches them all; without a PID namespace it sweeps the job's
    uid and reaps as a child subreaper."""
    reaped = {}
    for _ in range(1000):
        if pid_init:
            try:
                os.kill(-1, signal.SIGKILL)
            except ProcessLookupError:
                pass
        elif uid is not None:
            sweep_uid(uid)
        while True:
            try:
                got, status, ru = os.wait4(-1, os.WNOHANG)
            except ChildProcessError:
                return reaped
            if got == 0:
                break
            reaped[got] = (status, ru)
        time.sleep(0.0005)
    return reaped


def sweep_uid(uid):
    """Without PID namespaces: kill every process of the job's uid."""
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                if os.stat("/proc/" + name).st_uid == uid:
                    os.kill(int(name), signal.SIGKILL)
            except OSError:
                pass


def run_child(cfg, job, state, uid, pid_init):
    """Fork one candidate process for `job`, supervise it from outside, then
    kill everything it left; returns (how, status, rusage, records, wall)."""
    jobdir = "/tmp/fbjob-%d" % state["seq"]
    state["seq"] += 1
    os.mkdir(jobdir, 0o700)
    if uid is not None:
        os.chown(jobdir, uid, cfg["gid"])
    pipes = [os.pipe() for _ in range(3)]
    stdin_fd = stdin_file(job["stdin"]) if "stdin" in job else None
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:
        try:
            candidate_main(cfg, job, jobdir, pipes[0][1], pipes[1][1], pipes[2][1], uid, stdin_fd)
        finally:
            os._exit(70)
    for r, w in pipes:
        os.close(w)
    if stdin_fd is not None:
        os.close(stdin_fd)
    pidfd = os.pidfd_open(pid)
    fds = {pipes[0][0]: "stdout", pipes[1][0]: "stderr", pipes[2][0]: "res"}
    sup = {"how": None, "resbuf": bytearray(), "records": [], "started": started,
           "deadline": started + job["wall_first"]}
    hard_end = started + job["wall_total"]
    poller = select.poll()
    for fd in list(fds) + [pidfd, CTRL_IN]:
        poller.register(fd, select.POLLIN)
    exited = False
    while not exited and not sup["how"]:
        left = min(sup["deadline"], hard_end) - time.monotonic()
        if left <= 0:
            sup["how"] = "timeout"
            break
        for fd, ev in poller.poll(max(1, int(left * 1000) + 1)):
            if fd == CTRL_IN:
                kill_all(uid, pid_init)
                os._exit(0)
            if fd == pidfd:
                exited = True
            elif not take(fd, fds, poller, sup, state, job):
                continue
    reaped = kill_all(uid, pid_init)
    os.close(pidfd)
    # Every writer is dead now: drain what is left in the pipes.
    for fd in fds:
        os.set_blocking(fd, False)
    live = set(fds)
    while live and not sup["how"]:
        for fd in list(live):
            try:
                if not take(fd, fds, poller, sup, state, job):
                    live.discard(fd)
            except BlockingIOError:
                live.discard(fd)
    for fd in fds:
        os.close(fd)
    status, ru = reaped.get(pid, (0, None))
    if sup["resbuf"] and sup["how"] is None:
        sup["how"] = "garbled"
    clear_dir(jobdir)
    return sup["how"], status, ru, sup["records"], time.monotonic() - started


def stdin_file(text):
    """A run's standard input as an anonymous memory file at offset 0: the
    child reads it as fd 0 at its own pace (a pipe would need feeding while
    supervising), and it vanishes with the last descriptor."""
    fd = os.memfd_create("stdin", os.MFD_CLOEXEC)
    data = text.encode("utf-8")
    while data:
        data = data[os.write(fd, data):]
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


def take(fd, fds, poller, sup, state, job):
    """Read one chunk from a candidate pipe; False at EOF."""
    data = os.read(fd, 1 << 16)
    if not data:
        try:
            poller.unregister(fd)
        except KeyError:
            pass
        return False
    kind = fds[fd]
    if kind == "res":
        sup["resbuf"] += data
        new = []
        try:
            read_records(sup["resbuf"], new)
        except (ValueError, UnicodeDecodeError):
            sup["how"] = "garbled"
        for rec in new:
            rec["t"] = time.monotonic() - sup["started"]
            sup["records"].append(rec)
            if rec.get("k") in ("call", "defined"):
                sup["deadline"] = time.monotonic() + job["wall_each"]
    else:
        cap = state["cap_left"][kind]
        state["out"][kind] += data[:cap]
        state["cap_left"][kind] = max(0, cap - len(data))
        if len(data) > cap:
            sup["how"] = "output"
    return True


def clear_dir(path):
    import shutil
    shutil.rmtree(path, ignore_errors=True)
    for d in ("/tmp", "/var/tmp", "/dev/shm"):
        try:
            for name in os.listdir(d):
                if name in KEPT_IN_SCRATCH.get(d, ()):
                    continue
                p = os.path.join(d, name)
                if os.path.isdir(p) and not os.path.islink(p):
                    shutil.rmtree(p, ignore_errors=True)
                else:
                    os.unlink(p)
        except OSError:
            pass


def death_status(how, status, ru, cfg):
    """Status of a child that ended without a normal final record."""
    if how == "timeout":
        return {"k": "timeout"}
    if how == "output":
        return {"k": "output"}
    if how == "garbled":
        return {"k": "crashed", "detail": "garbled result channel"}
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        cpu = ru.ru_utime + ru.ru_stime if ru else 0.0
        if sig in (signal.SIGXCPU, signal.SIGPROF) or (sig == signal.SIGKILL and cpu >= cfg["cpu_hint"]):
            return {"k": "timeout"}
        if sig == signal.SIGXFSZ:
            return {"k": "output"}
        if ru and ru.ru_maxrss * 1024 >= 0.9 * cfg["memory_bytes"]:
            return {"k": "memory"}
        try:
            name = signal.Signals(sig).name
        except ValueError:
            name = "signal %d" % sig
        return {"k": "crashed", "detail": "killed by %s" % name}
    return {"k": "crashed", "detail": "exited with code %d without reporting" % os.WEXITSTATUS(status)}


def status_of(rec):
    if rec.get("st") == "ok":
        return {"k": "completed"}
    if rec.get("st") == "raised":
        cls = str(rec.get("cls", "?"))
        if cls == "MemoryError":
            return {"k": "memory"}
        return {"k": "raised", "class": cls, "message": str(rec.get("msg", ""))}
    return {"k": "crashed", "detail": "garbled result record"}


def run_job(cfg, job, uid, pid_init):
    state = {"seq": job["seq"], "out": {"stdout": bytearray(), "stderr": bytearray()},
             "cap_left": {"stdout": cfg["output_cap"], "stderr": cfg["output_cap"]}}
    wall, cpu = job["wall"], job["cpu"]
    cfg = dict(cfg, cpu_hint=cpu)
    t0 = time.monotonic()
    reply = {"status": {"k": "completed"}, "calls": []}
    if job["kind"] == "script":
        j = dict(job, cpu_total=max(1, int(cpu + 0.999)), wall_first=wall, wall_total=wall)
        how, status, ru, records, _ = run_child(cfg, j, state, uid, pid_init)
        final = [r for r in records if r.get("k") == "script"]
        if how is None and final and os.WIFEXITED(status):
            reply["status"] = status_of(final[0])
        else:
            reply["status"] = death_status(how, status, ru, cfg)
    elif job["kind"] in ("program", "binary"):
        reply["runs"] = run_program(cfg, job, state, uid, pid_init)
    else:
        calls = job["calls"]
        start = 0
        while start < len(calls) or (start == 0 and not calls):
            rest = calls[start:]
            n = len(rest)
            j = dict(job, calls=rest, cpu_total=max(1, int(cpu * (n + 1) + 0.999)),
                     wall_first=2 * wall, wall_each=wall, wall_total=wall * (n + 2))
            how, status, ru, records, took = run_child(cfg, j, state, uid, pid_init)
            defined = [r for r in records if r.get("k") == "defined"]
            done = [r for r in records if r.get("k") == "call"]
            if not defined:
                if how is None and os.WIFEXITED(status) and any(r.get("k") == "define_failed" for r in records):
                    rec = [r for r in records if r.get("k") == "define_failed"][0]
                    reply["status"] = status_of(rec)
                else:
                    reply["status"] = death_status(how, status, ru, cfg)
                break
            prev_t = defined[0]["t"]
            for r in done[:n]:
                st = status_of(r)
                call = {"status": st, "unencodable": r.get("bad"), "wall": max(0.0, r["t"] - prev_t)}
                if st["k"] == "completed" and "v" in r and r.get("bad") is None:
                    call["value"] = r["v"]
                reply["calls"].append(call)
                prev_t = r["t"]
            start += min(len(done), n)
            ended = any(r.get("k") == "end" for r in records)
            if start >= len(calls) and ended and how is None:
                break
            if start >= len(calls):
                break
            # The child died during call `start`: record it and go on with a fresh child.
            elapsed = max(0.0, took - prev_t)
            died = death_status(how, status, ru, cfg)
            reply["calls"].append({"status": died, "unencodable": None, "wall": elapsed})
            start += 1
            if how == "output" or (died["k"] == "timeout" and cfg["stop_after_timeout"]):
                break
    for kind in ("stdout", "stderr"):
        reply[kind] = bytes(state["out"][kind]).decode("utf-8", "replace")
    reply["wall"] = time.monotonic() - t0
    return reply


def run_program(cfg, job, state, uid, pid_init):
    """A whole program (Python source, or a compiled executable) once per
    standard input, each run a fresh child with its own output caps; a list
    of {status, stdout, stderr, wall}."""
    exe_fd = executable_file(job["executable"]) if job["kind"] == "binary" else None
    runs = []
    try:
        for stdin in job["stdins"]:
            run = run_once(cfg, job, state, uid, pid_init, exe_fd, stdin)
            runs.append(run)
            if run["status"]["k"] == "timeout" and cfg["stop_after_timeout"]:
                break
    finally:
        if exe_fd is not None:
            os.close(exe_fd)
    return runs


def run_once(cfg, job, state, uid, pid_init, exe_fd, stdin):
    wall, cpu = job["wall"], job["cpu"]
    run_state = {"seq": state["seq"], "out": {"stdout": bytearray(), "stderr": bytearray()},
                 "cap_left": {"stdout": cfg["output_cap"], "stderr": cfg["output_cap"]}}
    j = {"kind": job["kind"], "source": job.get("source", ""), "stdin": stdin, "cpu": cpu, "exe_fd": exe_fd,
         "cpu_total": max(1, int(cpu + 0.999)), "wall_first": wall, "wall_total": wall}
    how, status, ru, records, took = run_child(cfg, j, run_state, uid, pid_init)
    state["seq"] = run_state["seq"]
    final = [r for r in records if r.get("k") == "script"]
    if any(r.get("k") == "exec_failed" for r in records):
        st = {"k": "sandbox", "detail": "cannot execute the program: %s" % records[-1].get("msg", "?")}
    elif how is None and final and os.WIFEXITED(status):
        st = status_of(final[0])
    elif exe_fd is not None and how is None and os.WIFEXITED(status):
        # A compiled program reports through its exit code alone.
        code = os.WEXITSTATUS(status)
        st = {"k": "completed"} if code == 0 else {"k": "raised", "class": "SystemExit", "message": str(code)}
    else:
        st = death_status(how, status, ru, cfg)
    return {"status": st, "wall": took,
            "stdout": bytes(run_state["out"]["stdout"]).decode("utf-8", "replace"),
            "stderr": bytes(run_state["out"]["stderr"]).decode("utf-8", "replace")}


def executable_file(b64):
    """A compiled program as a sealed memory file: executable by the
    candidate's uid, and no run can change it for the next."""
    import base64
    import fcntl
    fd = os.memfd_create("program", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
    data = base64.b64decode(b64)
    while data:
        data = data[os.write(fd, data):]
    fcntl.fcntl(fd, fcntl.F_ADD_SEALS,
                fcntl.F_SEAL_WRITE | fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_SEAL)
    os.fchmod(fd, 0o555)
    return fd


def main():
    global PRELUDE_GLOBALS, COMPAT_GLOBALS
    cfg = recv_frame()
    try:
        sys.set_int_max_str_digits(0)
    except AttributeError:
        pass
    report = confine_zygote(cfg)
    pid_init, report["processes"] = become_init(cfg, report["filesystem"].startswith("ok"))
    LIBC.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    uid = cfg["uid"]
    report["user"] = "ok: runs as uid %d, no capabilities" % uid
    if os.geteuid() != 0:
        uid = None
        report["user"] = "refused: the judge is not root, so candidates would keep its uid"
    sys.modules["fbjob"] = FBJOB
    PRELUDE_GLOBALS = {"__name__": "__main__", "__builtins__": __builtins__}
    try:
        exec(cfg["prelude"], PRELUDE_GLOBALS)
        COMPAT_GLOBALS = {}
        exec(cfg["prelude"], COMPAT_GLOBALS)
        for name in cfg.get("preload", []):
            try:
                __import__(name)
            except Exception:
                pass
    except BaseException as e:
        send_frame({"ready": False, "error": "prelude failed: %s: %s" % (type(e).__name__, e)})
        return
    # Keep the prelude's objects out of the collector's reach so a child's
    # garbage collections do not touch (and copy) the zygote's pages.
    report.update(probe_candidate(cfg, uid))
    packages = {}
    try:
        import importlib.metadata as metadata
        for name in cfg.get("packages", []):
            try:
                packages[name] = metadata.version(name)
            except Exception:
                packages[name] = "missing"
    except ImportError:
        pass
    gc.collect()
    gc.freeze()
    send_frame({"ready": True, "python": sys.version.split()[0], "executable": sys.executable,
                "confinement": report, "packages": packages})
    while True:
        try:
            job = recv_frame()
        except EOFError:
            return
        try:
            reply = run_job(cfg, job, uid, pid_init)
        except Exception as e:
            reply = {"status": {"k": "sandbox", "detail": "%s: %s" % (type(e).__name__, e)},
                     "calls": [], "stdout": "", "stderr": "", "wall": 0.0}
        send_frame(reply)


FBJOB = type(sys)("fbjob")
exec(compile(FBJOB_SOURCE, "<fbjob>", "exec"), FBJOB.__dict__)  # noqa: F821 (prepended by worker.rs)
main()
