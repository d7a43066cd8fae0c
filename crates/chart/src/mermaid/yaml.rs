//! YAML (as js-yaml's JSON schema reads it) to JSON, for frontmatter and
//! `@{ … }` metadata. Duplicate keys are errors, as in js-yaml.

use saphyr::{LoadableYamlNode, Scalar, Yaml};
use serde_json::{Map, Number, Value};

/// Parse one YAML document; `Ok(None)` for an empty document.
pub fn load_json(src: &str) -> Result<Option<Value>, String> {
    let docs = Yaml::load_from_str(src).map_err(|e| e.to_string())?;
    match docs.len() {
        0 => Ok(None),
        1 => to_json(&docs[0]).map(Some),
        _ => Err("expected a single document in the stream".to_string()),
    }
}

fn to_json(y: &Yaml) -> Result<Value, String> {
    Ok(match y {
        Yaml::Value(s) => scalar(s),
        Yaml::Representation(s, _, _) => Value::String(s.to_string()),
        Yaml::Sequence(v) => Value::Array(v.iter().map(to_json).collect::<Result<_, _>>()?),
        Yaml::Mapping(m) => {
            let mut out = Map::new();
            for (k, v) in m {
                let key = match to_json(k)? {
                    Value::String(s) => s,
                    Value::Null => "null".to_string(),
                    other => other.to_string(),
                };
                out.insert(key, to_json(v)?);
            }
            Value::Object(out)
        }
        Yaml::Tagged(_, inner) => to_json(inner)?,
        Yaml::Alias(_) => return Err("unidentified alias".to_string()),
        Yaml::BadValue => return Err("bad value".to_string()),
    })
}

fn scalar(s: &Scalar) -> Value {
    match s {
        Scalar::Null => Value::Null,
        Scalar::Boolean(b) => Value::Bool(*b),
        Scalar::Integer(i) => Value::Number((*i).into()),
        Scalar::FloatingPoint(f) => Number::from_f64(f.into_inner()).map_or(Value::Null, Value::Number),
        Scalar::String(s) => Value::String(s.to_string()),
    }
}
