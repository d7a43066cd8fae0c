//! Python values as the judge sees them: decoded from the tagged-JSON
//! encoding that tests (expected values) and the sandbox (returned values)
//! share, so that comparison happens in Rust, outside the candidate's reach.
//!
//! Plain JSON maps to Python naturally (numbers of any size, strings, bools,
//! `null`, arrays → list, objects → dict with string keys). Other values are
//! single-key objects: `{"__tuple__": [...]}`, `{"__set__": [...]}`,
//! `{"__frozenset__": [...]}`, `{"__dict__": [[k, v], ...]}`,
//! `{"__float__": "nan"|"inf"|"-inf"}`, `{"__bytes__": "<base64>"}`.

use base64::Engine as _;
use serde_json::Value as Json;

/// A decoded Python value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    None,
    Bool(bool),
    /// An int of any size, kept exact (see [`Int`]).
    Int(Int),
    Float(f64),
    Str(String),
    Bytes(Vec<u8>),
    List(Vec<Value>),
    Tuple(Vec<Value>),
    Set(Vec<Value>),
    FrozenSet(Vec<Value>),
    /// Keys in encounter order (Python dicts are ordered; equality is not).
    Dict(Vec<(Value, Value)>),
}

/// An arbitrary-size integer as a normalized decimal (no leading zeros,
/// `-0` is `0`): exact equality is string equality, which is all the judge
/// needs, so no bignum dependency.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Int {
    pub negative: bool,
    pub digits: String,
}

impl Int {
    /// Parses `[-]digits`; `None` for anything else.
    pub fn parse(text: &str) -> Option<Int> {
        let (negative, rest) = match text.strip_prefix('-') {
            Some(r) => (true, r),
            None => (false, text.strip_prefix('+').unwrap_or(text)),
        };
        if rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let digits = rest.trim_start_matches('0');
        let digits = if digits.is_empty() { "0" } else { digits };
        Some(Int { negative: negative && digits != "0", digits: digits.to_string() })
    }

    /// Small ints (bools compare as 0/1).
    pub fn from_i64(v: i64) -> Int {
        Int::parse(&v.to_string()).unwrap_or(Int { negative: false, digits: "0".into() })
    }

    /// Nearest float (may be infinite for huge ints), as Python's `float(n)`.
    pub fn to_f64(&self) -> f64 {
        let v: f64 = self.digits.parse().unwrap_or(f64::INFINITY);
        if self.negative { -v } else { v }
    }

    /// Exact equality with a float, as Python's `int == float`: only an
    /// integral finite float can equal an int, and then digit for digit.
    pub fn equals_float_exactly(&self, f: f64) -> bool {
        if !f.is_finite() || f.fract() != 0.0 {
            return false;
        }
        // Rust prints the exact decimal expansion of an integral f64.
        Int::parse(&format!("{f:.0}")).is_some_and(|i| &i == self)
    }
}

impl std::fmt::Display for Int {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.negative {
            f.write_str("-")?;
        }
        f.write_str(&self.digits)
    }
}

/// Why a JSON value is not a valid encoded Python value.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct DecodeError(pub String);

const TAGS: [&str; 6] = ["__tuple__", "__set__", "__frozenset__", "__dict__", "__float__", "__bytes__"];

impl Value {
    /// Decodes the tagged-JSON encoding. An object is a tag only when it has
    /// exactly one key and that key is one of the six tags; any other object
    /// is a plain `dict` with string keys.
    pub fn decode(json: &Json) -> Result<Value, DecodeError> {
        Ok(match json {
            Json::Null => Value::None,
            Json::Bool(b) => Value::Bool(*b),
            Json::Number(n) => decode_number(n)?,
            Json::String(s) => Value::Str(s.clone()),
            Json::Array(items) => Value::List(decode_all(items)?),
            Json::Object(map) => {
                if map.len() == 1
                    && let Some((tag, inner)) = map.iter().next().filter(|(k, _)| TAGS.contains(&k.as_str()))
                {
                    return decode_tagged(tag, inner);
                }
                let mut pairs = Vec::with_capacity(map.len());
                for (k, v) in map {
                    pairs.push((Value::Str(k.clone()), Value::decode(v)?));
                }
                Value::Dict(pairs)
            }
        })
    }

    /// A Python-`repr`-like rendering for reports, cut to about `max` chars
    /// (expected values can be 100,000-element lists).
    pub fn repr_truncated(&self, max: usize) -> String {
        let mut out = String::new();
        self.write_repr(&mut out, max);
        if out.len() > max {
            let mut cut = max;
            while !out.is_char_boundary(cut) {
                cut -= 1;
            }
            out.truncate(cut);
            out.push('…');
        }
        out
    }

    fn write_repr(&self, out: &mut String, max: usize) {
        if out.len() > max {
            return;
        }
        match self {
            Value::None => out.push_str("None"),
            Value::Bool(true) => out.push_str("True"),
            Value::Bool(false) => out.push_str("False"),
            Value::Int(i) => out.push_str(&i.to_string()),
            Value::Float(f) => out.push_str(&float_repr(*f)),
            Value::Str(s) => out.push_str(&str_repr(s)),
            Value::Bytes(b) => {
                out.push_str("b'");
                for &c in b {
                    match c {
                        b'\\' => out.push_str("\\\\"),
                        b'\'' => out.push_str("\\'"),
                        0x20..=0x7e => out.push(c as char),
                        _ => out.push_str(&format!("\\x{c:02x}")),
                    }
                }
                out.push('\'');
            }
            Value::List(items) => write_seq(out, "[", "]", items, max),
            Value::Tuple(items) if items.len() == 1 => write_seq(out, "(", ",)", items, max),
            Value::Tuple(items) => write_seq(out, "(", ")", items, max),
            Value::Set(items) if items.is_empty() => out.push_str("set()"),
            Value::Set(items) => write_seq(out, "{", "}", items, max),
            Value::FrozenSet(items) => {
                out.push_str("frozenset(");
                if !items.is_empty() {
                    write_seq(out, "{", "}", items, max);
                }
                out.push(')');
            }
            Value::Dict(pairs) => {
                out.push('{');
                for (i, (k, v)) in pairs.iter().enumerate() {
                    if out.len() > max {
                        break;
                    }
                    if i > 0 {
                        out.push_str(", ");
                    }
                    k.write_repr(out, max);
                    out.push_str(": ");
                    v.write_repr(out, max);
                }
                out.push('}');
            }
        }
    }
}

fn write_seq(out: &mut String, open: &str, close: &str, items: &[Value], max: usize) {
    out.push_str(open);
    for (i, item) in items.iter().enumerate() {
        if out.len() > max {
            break;
        }
        if i > 0 {
            out.push_str(", ");
        }
        item.write_repr(out, max);
    }
    out.push_str(close);
}

/// Python's float repr: shortest round-trip digits, `1.0` not `1`, `inf`/`nan`.
pub fn float_repr(f: f64) -> String {
    if f.is_nan() {
        return "nan".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "inf".into() } else { "-inf".into() };
    }
    let abs = f.abs();
    if abs != 0.0 && !(1e-4..1e16).contains(&abs) {
        // Rust's `{:e}` is shortest round-trip too; Python pads the exponent.
        let s = format!("{f:e}");
        let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
        let (sign, digits) = exp.strip_prefix('-').map(|d| ('-', d)).unwrap_or(('+', exp));
        return format!("{mantissa}e{sign}{digits:0>2}");
    }
    format!("{f:?}")
}

fn str_repr(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') { '"' } else { '\'' };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

fn decode_all(items: &[Json]) -> Result<Vec<Value>, DecodeError> {
    items.iter().map(Value::decode).collect()
}

fn decode_number(n: &serde_json::Number) -> Result<Value, DecodeError> {
    let text = n.to_string();
    if let Some(i) = Int::parse(&text) {
        return Ok(Value::Int(i));
    }
    text.parse::<f64>().map(Value::Float).map_err(|_| DecodeError(format!("unreadable number {text}")))
}

fn decode_tagged(tag: &str, inner: &Json) -> Result<Value, DecodeError> {
    let items = || match inner {
        Json::Array(items) => decode_all(items),
        _ => Err(DecodeError(format!("{tag} needs an array"))),
    };
    match tag {
        "__tuple__" => Ok(Value::Tuple(items()?)),
        "__set__" => Ok(Value::Set(items()?)),
        "__frozenset__" => Ok(Value::FrozenSet(items()?)),
        "__dict__" => {
            let Json::Array(pairs) = inner else {
                return Err(DecodeError("__dict__ needs an array of [key, value] pairs".into()));
            };
            let mut out = Vec::with_capacity(pairs.len());
            for pair in pairs {
                match pair {
                    Json::Array(kv) if kv.len() == 2 => out.push((Value::decode(&kv[0])?, Value::decode(&kv[1])?)),
                    _ => return Err(DecodeError("__dict__ entries must be [key, value]".into())),
                }
            }
            Ok(Value::Dict(out))
        }
        "__float__" => match inner.as_str() {
            Some("nan") => Ok(Value::Float(f64::NAN)),
            Some("inf") => Ok(Value::Float(f64::INFINITY)),
            Some("-inf") => Ok(Value::Float(f64::NEG_INFINITY)),
            // A finite float may also be spelled out (exact digits).
            Some(s) => s.parse::<f64>().map(Value::Float).map_err(|_| DecodeError(format!("bad __float__ {s:?}"))),
            None => Err(DecodeError("__float__ needs a string".into())),
        },
        "__bytes__" => match inner.as_str() {
            Some(s) => base64::engine::general_purpose::STANDARD
                .decode(s)
                .map(Value::Bytes)
                .map_err(|e| DecodeError(format!("bad __bytes__ base64: {e}"))),
            None => Err(DecodeError("__bytes__ needs a base64 string".into())),
        },
        _ => Err(DecodeError(format!("unknown tag {tag}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn d(j: Json) -> Value {
        Value::decode(&j).expect("decodes")
    }

    #[test]
    fn decodes_plain_and_tagged() {
        assert_eq!(d(json!(null)), Value::None);
        assert_eq!(d(json!([1, "a"])), Value::List(vec![Value::Int(Int::from_i64(1)), Value::Str("a".into())]));
        assert_eq!(d(json!({"__tuple__": [true]})), Value::Tuple(vec![Value::Bool(true)]));
        assert!(matches!(d(json!({"__float__": "nan"})), Value::Float(f) if f.is_nan()));
        assert_eq!(d(json!({"__bytes__": "AAE="})), Value::Bytes(vec![0, 1]));
        assert_eq!(
            d(json!({"__dict__": [[5, "x"]]})),
            Value::Dict(vec![(Value::Int(Int::from_i64(5)), Value::Str("x".into()))])
        );
        // Two keys: a plain dict even though one key looks like a tag.
        assert!(matches!(d(json!({"__set__": [], "b": 1})), Value::Dict(p) if p.len() == 2));
        assert!(Value::decode(&json!({"__float__": 3})).is_err());
        assert!(Value::decode(&json!({"__dict__": [[1]]})).is_err());
    }

    #[test]
    fn big_ints_stay_exact() {
        let v: Json = serde_json::from_str("23951146041928082866135587776380551750").expect("json");
        assert_eq!(d(v).repr_truncated(100), "23951146041928082866135587776380551750");
        let f: Json = serde_json::from_str("1.0").expect("json");
        assert_eq!(d(f), Value::Float(1.0));
    }

    #[test]
    fn int_float_exactness() {
        let big = Int::parse("100000000000000000000").expect("int");
        assert!(big.equals_float_exactly(1e20));
        assert!(!Int::parse("9007199254740993").expect("int").equals_float_exactly(9007199254740992.0));
        assert_eq!(Int::parse("-000"), Int::parse("0"));
    }

    #[test]
    fn python_like_repr() {
        let v = d(json!([1.0, 1e20, 1e-7, "it's", {"__tuple__": [1]}, {"__set__": []}, null]));
        assert_eq!(v.repr_truncated(200), "[1.0, 1e+20, 1e-07, \"it's\", (1,), set(), None]");
        assert!(d(json!(vec![7; 1000])).repr_truncated(20).ends_with('…'));
    }
}
