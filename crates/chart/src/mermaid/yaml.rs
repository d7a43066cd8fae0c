//! YAML (as js-yaml's JSON schema reads it) to JSON, for frontmatter and
//! `@{ … }` metadata. Duplicate keys are errors, as in js-yaml.

use saphyr::{LoadableYamlNode, Scalar, ScanError, Yaml};
use serde_json::{Map, Number, Value};

/// YAML that does not load, in js-yaml's words where it has them.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum YamlError {
    /// Not YAML (the scanner's message carries its line and column).
    #[error("{0}")]
    Scan(ScanError),
    #[error("expected a single document in the stream")]
    SeveralDocuments,
    #[error("unidentified alias")]
    UnidentifiedAlias,
    #[error("bad value")]
    BadValue,
}

/// Parse one YAML document; `Ok(None)` for an empty document.
pub fn load_json(src: &str) -> Result<Option<Value>, YamlError> {
    let docs = Yaml::load_from_str(src).map_err(YamlError::Scan)?;
    match docs.len() {
        0 => Ok(None),
        1 => to_json(&docs[0]).map(Some),
        _ => Err(YamlError::SeveralDocuments),
    }
}

fn to_json(y: &Yaml) -> Result<Value, YamlError> {
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
        Yaml::Alias(_) => return Err(YamlError::UnidentifiedAlias),
        Yaml::BadValue => return Err(YamlError::BadValue),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_say_what_js_yaml_says() {
        assert_eq!(load_json("a: 1\n---\nb: 2\n"), Err(YamlError::SeveralDocuments));
        // An alias of no anchor is the scanner's error, located.
        let Err(YamlError::Scan(e)) = load_json("a: *x\n") else { panic!("an unknown anchor scans") };
        assert!(e.to_string().contains("unknown anchor") && e.to_string().contains("line 1"), "{e}");
        let Err(YamlError::Scan(e)) = load_json("a: [1\n") else { panic!("an unclosed sequence scans") };
        assert_eq!(YamlError::Scan(e.clone()).to_string(), e.to_string());
        assert_eq!(load_json(""), Ok(None));
    }
}
