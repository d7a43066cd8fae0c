# flowbench sandbox runner (trusted). Started by src/exec/worker.rs as
# `python -I -c <this file>`; it is the "zygote": it confines itself once
# (network and mount namespaces), imports the prelude once, then for every
# job forks a fresh child into a new PID namespace, confines the child
# (rlimits, uid, scratch dir, scrubbed env) and supervises it from outside
# (wall clock, output caps). The Rust side speaks to it over stdin/stdout
# with 4-byte big-endian length-prefixed JSON frames.
import ctypes
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
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_SET_NO_NEW_PRIVS = 1, 4, 38
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


def cover(directory, keep):
    """Hide `directory` under an empty tmpfs, re-exposing the `keep` paths."""
    inner = [k for k in keep if k.startswith(directory.rstrip("/") + "/")]
    tops = [k for k in inner if not any(k != o and k.startswith(o + "/") for o in inner)]
    fds = [(k, os.open(k, os.O_PATH)) for k in tops]
    mount("tmpfs", directory, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=0755")
    for k, fd in fds:
        if os.path.isdir("/proc/self/fd/%d" % fd):
            os.makedirs(k, mode=0o755, exist_ok=True)
        else:
            os.makedirs(os.path.dirname(k), mode=0o755, exist_ok=True)
            open(k, "w").close()
        mount("/proc/self/fd/%d" % fd, k, None, MS_BIND | MS_REC, None)
        os.close(fd)


def confine_zygote(cfg):
    """Network + mount namespace for the zygote and all its children."""
    report = {}
    try:
        libc_call("unshare", CLONE_NEWNET)
        report["network"] = "ok: new network namespace (loopback down)"
    except OSError as e:
        report["network"] = "refused: %s" % e
    try:
        libc_call("unshare", CLONE_NEWNS)
        mount(None, "/", None, MS_REC | MS_PRIVATE, None)
        keep = needed_paths()
        hidden = []
        for d in cfg["hide"]:
            if d != "/" and os.path.isdir(d) and not any(k == d for k in keep):
                cover(d, keep)
                hidden.append(d)
        scratch = "size=%d,mode=1777" % cfg["scratch_bytes"]
        for d in ("/tmp", "/var/tmp", "/dev/shm"):
            if os.path.isdir(d):
                mount("tmpfs", d, "tmpfs", MS_NOSUID | MS_NODEV, scratch)
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
        report["filesystem"] = "ok: read-only view, private tmpfs /tmp, hidden: %s" % (
            ", ".join(hidden) or "nothing")
    except OSError as e:
        report["filesystem"] = "refused: %s" % e
    return report


def probe_pidns():
    try:
        libc_call("unshare", CLONE_NEWPID)
    except OSError as e:
        return None, "refused: %s (falling back to uid sweep)" % e
    fd = os.open("/proc/self/ns/pid", os.O_RDONLY)
    libc_call("setns", fd, CLONE_NEWPID)
    return fd, "ok: one PID namespace per job"


# ---------------------------------------------------------------- child side

def child_main(cfg, job, jobdir, out_w, err_w, res_w, uid):
    """PID 1 of the job's namespace: a trusted init that forks the candidate
    process, reaps every orphan, and exits with the candidate's status. The
    candidate is not init, so signals (SIGXFSZ, SIGXCPU, kill(getpid())) act
    on it normally; when init exits the kernel kills whatever is left."""
    try:
        os.setsid()
    except OSError:
        pass
    LIBC.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    try:
        # A /proc of this PID namespace only: the judge and other jobs vanish.
        libc_call("unshare", CLONE_NEWNS)
        mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, None)
    except OSError:
        pass
    pid = os.fork()
    if pid == 0:
        try:
            candidate_main(cfg, job, jobdir, out_w, err_w, res_w, uid)
        finally:
            os._exit(70)
    os.closerange(0, 65536)
    while True:
        try:
            got, status = os.waitpid(-1, 0)
        except ChildProcessError:
            os._exit(71)
        except InterruptedError:
            continue
        if got == pid:
            if os.WIFSIGNALED(status):
                os._exit(128 + os.WTERMSIG(status))
            os._exit(os.WEXITSTATUS(status) & 0x7F)


def candidate_main(cfg, job, jobdir, out_w, err_w, res_w, uid):
    """The candidate's process: confine, then hand over to the job code."""
    nul = os.open("/dev/null", os.O_RDONLY)
    os.dup2(nul, 0)
    os.dup2(out_w, 1)
    os.dup2(err_w, 2)
    os.dup2(res_w, 3)
    os.closerange(4, 65536)
    for sig in (signal.SIGXFSZ, signal.SIGXCPU, signal.SIGTERM, signal.SIGALRM):
        signal.signal(sig, signal.SIG_DFL)
    lim = job["cpu_total"]
    resource.setrlimit(resource.RLIMIT_CPU, (lim, lim + 1))
    resource.setrlimit(resource.RLIMIT_AS, (cfg["memory_bytes"], cfg["memory_bytes"]))
    resource.setrlimit(resource.RLIMIT_FSIZE, (cfg["file_size_cap"], cfg["file_size_cap"]))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))
    os.chdir(jobdir)
    if uid is not None:
        nproc = cfg["max_processes"] if cfg["allow_subprocess"] else 1
        resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))
        os.setgroups([])
        os.setgid(cfg["gid"])
        os.setuid(uid)
    # After setuid: changing credentials clears the parent-death signal.
    LIBC.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    LIBC.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    LIBC.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    os.environ.clear()
    os.environ.update({"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": jobdir,
                       "TMPDIR": jobdir, "LANG": "C.UTF-8", "PYTHONHASHSEED": "0"})
    sys.stdin = open(0, "r", closefd=False)
    sys.stdout = open(1, "w", encoding="utf-8", errors="backslashreplace", closefd=False)
    sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False)
    import fbjob  # noqa: the job runner module registered in main()
    fbjob.run(cfg, job, PRELUDE_GLOBALS)


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


def kill_tree(pid, uid, pidns):
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    if pidns is None and uid is not None:
        sweep_uid(uid)


def sweep_uid(uid):
    """Without PID namespaces: kill every process of the job's uid."""
    for _ in range(50):
        alive = False
        for name in os.listdir("/proc"):
            if name.isdigit():
                try:
                    if os.stat("/proc/" + name).st_uid == uid:
                        alive = True
                        os.kill(int(name), signal.SIGKILL)
                except OSError:
                    pass
        if not alive:
            return
        time.sleep(0.001)


def run_child(cfg, job, state, uid, pidns):
    """Fork one child for `job` and supervise it; returns (how, records, rusage)."""
    jobdir = "/tmp/fbjob-%d-%d" % (os.getpid(), state["seq"])
    state["seq"] += 1
    os.mkdir(jobdir, 0o700)
    if uid is not None:
        os.chown(jobdir, uid, cfg["gid"])
    pipes = [os.pipe() for _ in range(3)]
    if pidns is not None:
        libc_call("unshare", CLONE_NEWPID)
    pid = os.fork()
    if pid == 0:
        try:
            child_main(cfg, job, jobdir, pipes[0][1], pipes[1][1], pipes[2][1], uid)
        finally:
            os._exit(70)
    if pidns is not None:
        libc_call("setns", pidns, CLONE_NEWPID)
    for r, w in pipes:
        os.close(w)
    fds = {pipes[0][0]: "stdout", pipes[1][0]: "stderr", pipes[2][0]: "res"}
    resbuf = bytearray()
    records = []
    how = None
    started = time.monotonic()
    deadline = started + job["wall_first"]
    hard_end = started + job["wall_total"]
    open_fds = set(fds)
    poller = select.poll()
    for fd in fds:
        poller.register(fd, select.POLLIN)
    poller.register(CTRL_IN, select.POLLIN)
    while open_fds:
        now = time.monotonic()
        left = min(deadline, hard_end) - now
        if left <= 0:
            how = "timeout"
            break
        events = poller.poll(max(1, int(left * 1000)))
        for fd, ev in events:
            if fd == CTRL_IN:
                kill_tree(pid, uid, pidns)
                os._exit(0)
            data = os.read(fd, 1 << 16)
            if not data:
                poller.unregister(fd)
                open_fds.discard(fd)
                continue
            kind = fds[fd]
            if kind == "res":
                resbuf += data
                new = []
                try:
                    read_records(resbuf, new)
                except (ValueError, UnicodeDecodeError):
                    how = "garbled"
                for rec in new:
                    rec["t"] = time.monotonic() - started
                    records.append(rec)
                    if rec.get("k") in ("call", "defined"):
                        deadline = time.monotonic() + job["wall_each"]
                if how:
                    break
            else:
                cap = state["cap_left"][kind]
                state["out"][kind] += data[:cap]
                state["cap_left"][kind] = max(0, cap - len(data))
                if len(data) > cap:
                    how = "output"
                    break
        if how:
            break
    if how:
        kill_tree(pid, uid, pidns)
    for fd in fds:
        os.close(fd)
    _, status, ru = os.wait4(pid, 0)
    if pidns is None and uid is not None:
        sweep_uid(uid)
    if resbuf and how is None:
        how = "garbled"
    clear_dir(jobdir)
    return how, status, ru, records, time.monotonic() - started


def clear_dir(path):
    import shutil
    shutil.rmtree(path, ignore_errors=True)
    for d in ("/tmp", "/var/tmp", "/dev/shm"):
        try:
            for name in os.listdir(d):
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
    sig = None
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
    elif os.WIFEXITED(status) and os.WEXITSTATUS(status) > 128:
        sig = os.WEXITSTATUS(status) - 128
    if sig is not None:
        if sig == signal.SIGXCPU or (sig == signal.SIGKILL and ru.ru_utime + ru.ru_stime >= cfg["cpu_hint"]):
            return {"k": "timeout"}
        if sig == signal.SIGXFSZ:
            return {"k": "output"}
        if ru.ru_maxrss * 1024 >= 0.9 * cfg["memory_bytes"]:
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


def run_job(cfg, job, uid, pidns):
    state = {"seq": job["seq"] * 1000, "out": {"stdout": bytearray(), "stderr": bytearray()},
             "cap_left": {"stdout": cfg["output_cap"], "stderr": cfg["output_cap"]}}
    wall, cpu = job["wall"], job["cpu"]
    cfg = dict(cfg, cpu_hint=cpu)
    t0 = time.monotonic()
    reply = {"status": {"k": "completed"}, "calls": []}
    if job["kind"] == "script":
        j = dict(job, cpu_total=max(1, int(cpu + 0.999)), wall_first=wall, wall_total=wall)
        how, status, ru, records, _ = run_child(cfg, j, state, uid, pidns)
        final = [r for r in records if r.get("k") == "script"]
        if how is None and final and os.WIFEXITED(status):
            reply["status"] = status_of(final[0])
        else:
            reply["status"] = death_status(how, status, ru, cfg)
    else:
        calls = job["calls"]
        start = 0
        while start < len(calls) or (start == 0 and not calls):
            rest = calls[start:]
            n = len(rest)
            j = dict(job, calls=rest, cpu_total=max(1, int(cpu * (n + 1) + 0.999)),
                     wall_first=2 * wall, wall_each=wall, wall_total=wall * (n + 2))
            how, status, ru, records, took = run_child(cfg, j, state, uid, pidns)
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
            reply["calls"].append({"status": death_status(how, status, ru, cfg),
                                   "unencodable": None, "wall": elapsed})
            start += 1
            if how == "output":
                break
    for kind in ("stdout", "stderr"):
        reply[kind] = bytes(state["out"][kind]).decode("utf-8", "replace")
    reply["wall"] = time.monotonic() - t0
    return reply


def main():
    global PRELUDE_GLOBALS
    cfg = recv_frame()
    try:
        sys.set_int_max_str_digits(0)
    except AttributeError:
        pass
    report = confine_zygote(cfg)
    pidns, report["processes"] = probe_pidns()
    uid = None
    try:
        os.stat(sys.executable)
        uid = cfg["uid"]
        report["user"] = "ok: runs as uid %d, no capabilities" % uid
    except OSError as e:
        report["user"] = "refused: %s" % e
    if os.geteuid() != 0:
        uid = None
        report["user"] = "refused: judge is not root, candidates keep its uid"
    sys.modules["fbjob"] = FBJOB
    PRELUDE_GLOBALS = {"__name__": "__main__", "__builtins__": __builtins__}
    try:
        exec(cfg["prelude"], PRELUDE_GLOBALS)
        for name in cfg.get("preload", []):
            try:
                __import__(name)
            except Exception:
                pass
    except BaseException as e:
        send_frame({"ready": False, "error": "prelude failed: %s: %s" % (type(e).__name__, e)})
        return
    send_frame({"ready": True, "python": sys.version.split()[0], "executable": sys.executable,
                "confinement": report})
    while True:
        try:
            job = recv_frame()
        except EOFError:
            return
        try:
            reply = run_job(cfg, job, uid, pidns)
        except Exception as e:
            reply = {"status": {"k": "sandbox", "detail": "%s: %s" % (type(e).__name__, e)},
                     "calls": [], "stdout": "", "stderr": "", "wall": 0.0}
        send_frame(reply)


FBJOB = type(sys)("fbjob")
exec(compile(FBJOB_SOURCE, "<fbjob>", "exec"), FBJOB.__dict__)  # noqa: F821 (prepended by worker.rs)
main()
