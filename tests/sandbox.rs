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
    executor().run(&Job::Calls {
        source: source.into(),
        entry_point: entry.into(),
        call_style: CallStyle::Function,
        calls: args.into_iter().map(|a| CallArgs { args: a, kwargs: Default::default() }).collect(),
        limits: limits(2000),
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
        json!(1), json!(-5), json!("s"), json!(null), json!(true), json!(1.5), json!([1, [2]]),
        json!({"a": 1}), json!({"__tuple__": [1, 2]}), json!({"__set__": [3, 1, 2]}),
        json!({"__dict__": [[1, "x"]]}), json!({"__float__": "nan"}), json!({"__bytes__": "aGk="}),
        json!({"__frozenset__": []}),
    ];
    let o = calls(src, "f", inputs.iter().map(|v| vec![v.clone()]).collect());
    assert_eq!(o.status, Status::Completed);
    let got: Vec<Value> = o.calls.iter().map(|c| c.value.clone().unwrap_or(Value::Null)).collect();
    let mut want = inputs.clone();
    want[10] = json!({"__set__": [1, 2, 3]});
    want[9] = json!({"__set__": [1, 2, 3]});
    want[10] = json!({"__dict__": [[1, "x"]]});
    assert_eq!(got, want);
}

#[test]
fn confinement_report() {
    let e = executor();
    eprintln!("python {} {:?}", e.python_version(), e.confinement());
    assert!(e.python_version().starts_with('3'));
    let o = script("import os\nprint(os.getuid(), os.getpid(), sorted(os.environ))\nprint(open('/proc/self/status').read())\n");
    eprintln!("{o:?}");
}
