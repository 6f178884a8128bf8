//! A tool's parameters: reading the seed's small DSL or a JSON Schema into one JSON Schema, and
//! checking a call's arguments against it before anything runs.
//!
//! The DSL lists properties without the JSON Schema wrapper, every one required unless it says
//! `optional: true`:
//!
//! ```
//! use easel_agent::script::params::{check_args, read_parameters};
//! use serde_json::json;
//!
//! let schema = read_parameters(&json!({
//!     "text": {"type": "string", "description": "The text"},
//!     "limit": {"type": "integer", "optional": true},
//! })).unwrap();
//! assert_eq!(schema["required"], json!(["text"]));
//! assert!(check_args(&schema, &json!({"text": "a b"})).is_ok());
//! assert!(check_args(&schema, &json!({"limit": 3})).unwrap_err().contains("'text'"));
//! ```
//!
//! The checker knows the keywords tools use (`type`, `properties`, `required`,
//! `additionalProperties`, `items`, `enum`, `const`, lengths and bounds); other keywords are
//! passed on to the model and not enforced.

use serde_json::{Map, Value};

const TYPES: [&str; 7] = [
    "string", "number", "integer", "boolean", "array", "object", "null",
];

/// How deep a schema or an argument may nest before the checker gives up: deeper input is
/// refused rather than allowed to exhaust the stack.
const MAX_DEPTH: usize = 64;

/// The JSON Schema of a tool from what its file declared: `None` (no parameters), a full JSON
/// Schema (an object whose `type` is `"object"`), or the DSL.
pub fn read_parameters(spec: &Value) -> Result<Value, String> {
    match spec {
        Value::Null => Ok(serde_json::json!({"type": "object", "properties": {}})),
        Value::Object(map) if map.get("type").and_then(Value::as_str) == Some("object") => {
            check_schema(spec, "parameters", 0)?;
            Ok(spec.clone())
        }
        Value::Object(map) => read_dsl(map),
        other => Err(format!(
            "parameters must be an object (the properties, or a JSON Schema with type 'object'), not {}",
            kind_of(other)
        )),
    }
}

fn read_dsl(map: &Map<String, Value>) -> Result<Value, String> {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for (name, prop) in map {
        let Value::Object(fields) = prop else {
            return Err(format!(
                "parameter '{name}' must be an object such as {{ type: 'string', description: '...' }}, not {}",
                kind_of(prop)
            ));
        };
        let mut fields = fields.clone();
        match fields.remove("optional") {
            None | Some(Value::Bool(false)) => required.push(Value::String(name.clone())),
            Some(Value::Bool(true)) => {}
            Some(other) => {
                return Err(format!(
                    "parameter '{name}': optional must be true or false, not {}",
                    kind_of(&other)
                ));
            }
        }
        let fields = Value::Object(fields);
        check_schema(&fields, &format!("parameter '{name}'"), 1)?;
        properties.insert(name.clone(), fields);
    }
    Ok(serde_json::json!({"type": "object", "properties": properties, "required": required}))
}

/// Refuses what the checker would misread: unknown type names and keywords of the wrong shape.
fn check_schema(schema: &Value, at: &str, depth: usize) -> Result<(), String> {
    if depth > MAX_DEPTH {
        return Err(format!(
            "{at}: the schema nests deeper than {MAX_DEPTH} levels"
        ));
    }
    let Value::Object(map) = schema else {
        return Err(format!(
            "{at} must be a schema object, not {}",
            kind_of(schema)
        ));
    };
    match map.get("type") {
        None => {}
        Some(Value::String(t)) => known_type(t, at)?,
        Some(Value::Array(ts)) => {
            for t in ts {
                match t {
                    Value::String(t) => known_type(t, at)?,
                    other => {
                        return Err(format!(
                            "{at}: a type must be a word, not {}",
                            kind_of(other)
                        ));
                    }
                }
            }
        }
        Some(other) => {
            return Err(format!(
                "{at}: type must be a word such as 'string', not {}",
                kind_of(other)
            ));
        }
    }
    if let Some(props) = map.get("properties") {
        let Value::Object(props) = props else {
            return Err(format!("{at}: properties must be an object"));
        };
        for (name, sub) in props {
            check_schema(sub, &format!("{at}.{name}"), depth + 1)?;
        }
    }
    if let Some(req) = map.get("required")
        && !req
            .as_array()
            .is_some_and(|names| names.iter().all(Value::is_string))
    {
        return Err(format!("{at}: required must be a list of names"));
    }
    if let Some(items) = map.get("items") {
        check_schema(items, &format!("{at}[]"), depth + 1)?;
    }
    if let Some(extra) = map.get("additionalProperties")
        && !extra.is_boolean()
    {
        check_schema(extra, &format!("{at}.*"), depth + 1)?;
    }
    if let Some(choices) = map.get("enum")
        && !choices.is_array()
    {
        return Err(format!("{at}: enum must be a list of values"));
    }
    Ok(())
}

fn known_type(t: &str, at: &str) -> Result<(), String> {
    if TYPES.contains(&t) {
        Ok(())
    } else {
        Err(format!(
            "{at}: unknown type '{t}' (use one of {})",
            TYPES.join(", ")
        ))
    }
}

/// Checks a call's arguments against the tool's schema; the error says which argument is wrong
/// and how, in words a model can act on.
pub fn check_args(schema: &Value, args: &Value) -> Result<(), String> {
    if !args.is_object() {
        return Err(format!(
            "the arguments must be an object, not {}",
            kind_of(args)
        ));
    }
    check(schema, args, "", 0)
}

fn check(schema: &Value, value: &Value, at: &str, depth: usize) -> Result<(), String> {
    if depth > MAX_DEPTH {
        return Err(format!("the arguments nest deeper than {MAX_DEPTH} levels"));
    }
    let Value::Object(s) = schema else {
        return Ok(());
    };
    let name = if at.is_empty() {
        "the arguments".to_string()
    } else {
        format!("argument '{at}'")
    };
    if let Some(t) = s.get("type") {
        let allowed: Vec<&str> = match t {
            Value::String(t) => vec![t.as_str()],
            Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        if !allowed.is_empty() && !allowed.iter().any(|t| has_type(value, t)) {
            return Err(format!(
                "{name} must be {}, not {}",
                allowed
                    .iter()
                    .map(|t| article(t))
                    .collect::<Vec<_>>()
                    .join(" or "),
                kind_of(value)
            ));
        }
    }
    if let Some(Value::Array(choices)) = s.get("enum")
        && !choices.contains(value)
    {
        return Err(format!(
            "{name} must be one of {}, not {value}",
            choices
                .iter()
                .map(Value::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if let Some(c) = s.get("const")
        && c != value
    {
        return Err(format!("{name} must be {c}, not {value}"));
    }
    match value {
        Value::String(text) => {
            let chars = text.chars().count() as u64;
            if let Some(min) = s.get("minLength").and_then(Value::as_u64)
                && chars < min
            {
                return Err(format!("{name} must be at least {min} characters long"));
            }
            if let Some(max) = s.get("maxLength").and_then(Value::as_u64)
                && chars > max
            {
                return Err(format!("{name} must be at most {max} characters long"));
            }
        }
        Value::Number(n) => {
            let n = n.as_f64().unwrap_or(f64::NAN);
            if let Some(min) = s.get("minimum").and_then(Value::as_f64)
                && n < min
            {
                return Err(format!("{name} must be at least {min}"));
            }
            if let Some(max) = s.get("maximum").and_then(Value::as_f64)
                && n > max
            {
                return Err(format!("{name} must be at most {max}"));
            }
        }
        Value::Array(items) => {
            if let Some(min) = s.get("minItems").and_then(Value::as_u64)
                && (items.len() as u64) < min
            {
                return Err(format!("{name} must hold at least {min} items"));
            }
            if let Some(max) = s.get("maxItems").and_then(Value::as_u64)
                && items.len() as u64 > max
            {
                return Err(format!("{name} must hold at most {max} items"));
            }
            if let Some(item_schema) = s.get("items") {
                for (i, item) in items.iter().enumerate() {
                    check(item_schema, item, &format!("{at}[{i}]"), depth + 1)?;
                }
            }
        }
        Value::Object(fields) => check_object(s, fields, at, &name, depth)?,
        Value::Bool(_) | Value::Null => {}
    }
    Ok(())
}

fn check_object(
    s: &Map<String, Value>,
    fields: &Map<String, Value>,
    at: &str,
    name: &str,
    depth: usize,
) -> Result<(), String> {
    let child = |key: &str| {
        if at.is_empty() {
            key.to_string()
        } else {
            format!("{at}.{key}")
        }
    };
    let props = s.get("properties").and_then(Value::as_object);
    if let Some(Value::Array(required)) = s.get("required") {
        for key in required.iter().filter_map(Value::as_str) {
            if !fields.contains_key(key) {
                return Err(format!("missing required argument '{}'", child(key)));
            }
        }
    }
    for (key, value) in fields {
        match props.and_then(|p| p.get(key)) {
            Some(sub) => check(sub, value, &child(key), depth + 1)?,
            None => match s.get("additionalProperties") {
                Some(Value::Bool(false)) => {
                    let known: Vec<&str> = props
                        .map(|p| p.keys().map(String::as_str).collect())
                        .unwrap_or_default();
                    return Err(format!(
                        "unknown argument '{}' in {name} (known: {})",
                        child(key),
                        if known.is_empty() {
                            "none".to_string()
                        } else {
                            known.join(", ")
                        }
                    ));
                }
                Some(extra @ Value::Object(_)) => check(extra, value, &child(key), depth + 1)?,
                _ => {}
            },
        }
    }
    Ok(())
}

fn has_type(value: &Value, t: &str) -> bool {
    match t {
        "string" => value.is_string(),
        "number" => value.is_number(),
        "integer" => value.as_f64().is_some_and(|n| n.fract() == 0.0),
        "boolean" => value.is_boolean(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        "null" => value.is_null(),
        _ => true,
    }
}

fn article(t: &str) -> String {
    match t {
        "integer" | "array" | "object" => format!("an {t}"),
        "null" => "null".into(),
        _ => format!("a {t}"),
    }
}

/// A value's JSON type in words, for messages.
pub(crate) fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    #[test]
    fn dsl_makes_every_property_required_unless_optional() {
        let schema = read_parameters(&json!({
            "text": {"type": "string", "description": "The text"},
            "n": {"type": "integer", "optional": true},
        }))
        .unwrap();
        assert_eq!(schema["type"], "object");
        assert_eq!(schema["required"], json!(["text"]));
        assert!(schema["properties"]["n"].get("optional").is_none());
    }

    #[test]
    fn a_parameter_named_type_is_still_the_dsl() {
        let schema = read_parameters(&json!({"type": {"type": "string"}})).unwrap();
        assert_eq!(schema["required"], json!(["type"]));
        assert!(check_args(&schema, &json!({"type": "x"})).is_ok());
    }

    #[test]
    fn full_schema_is_kept() {
        let spec = json!({"type": "object", "properties": {"q": {"type": "string"}}, "additionalProperties": false});
        assert_eq!(read_parameters(&spec).unwrap(), spec);
        let err = check_args(&spec, &json!({"x": 1})).unwrap_err();
        assert!(
            err.contains("unknown argument 'x'") && err.contains("known: q"),
            "{err}"
        );
    }

    #[test]
    fn bad_declarations_are_refused() {
        assert!(
            read_parameters(&json!("text"))
                .unwrap_err()
                .contains("must be an object")
        );
        assert!(
            read_parameters(&json!({"a": "string"}))
                .unwrap_err()
                .contains("parameter 'a'")
        );
        assert!(
            read_parameters(&json!({"a": {"type": "str"}}))
                .unwrap_err()
                .contains("unknown type 'str'")
        );
        assert!(read_parameters(&json!({"a": {"type": "string", "optional": "yes"}})).is_err());
    }

    #[test]
    fn wrong_arguments_are_named() {
        let schema = read_parameters(&json!({
            "text": {"type": "string"},
            "tags": {"type": "array", "items": {"type": "string"}, "optional": true},
            "mode": {"enum": ["a", "b"], "optional": true},
        }))
        .unwrap();
        assert_eq!(
            check_args(&schema, &json!({"text": 3})).unwrap_err(),
            "argument 'text' must be a string, not a number"
        );
        assert_eq!(
            check_args(&schema, &json!({"text": "x", "tags": ["a", 1]})).unwrap_err(),
            "argument 'tags[1]' must be a string, not a number"
        );
        assert!(
            check_args(&schema, &json!({"text": "x", "mode": "c"}))
                .unwrap_err()
                .contains("one of")
        );
        assert!(
            check_args(&schema, &json!([]))
                .unwrap_err()
                .contains("must be an object")
        );
    }

    #[test]
    fn deep_nesting_is_refused_not_overflowed() {
        let mut spec = json!({"type": "string"});
        for _ in 0..200 {
            spec = json!({"type": "object", "properties": {"a": spec}});
        }
        assert!(read_parameters(&spec).unwrap_err().contains("deeper"));
    }

    fn arb_json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i32>().prop_map(|n| json!(n)),
            prop_oneof![
                Just("type"),
                Just("object"),
                Just("string"),
                Just("properties"),
                Just("required"),
                Just("items"),
                Just("optional"),
                Just("enum"),
                Just("x")
            ]
            .prop_map(|s| Value::String(s.into())),
        ];
        leaf.prop_recursive(5, 64, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::btree_map(
                    prop_oneof![
                        Just("type"),
                        Just("properties"),
                        Just("required"),
                        Just("items"),
                        Just("optional"),
                        Just("enum"),
                        Just("additionalProperties"),
                        Just("a")
                    ]
                    .prop_map(String::from),
                    inner,
                    0..5
                )
                .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        // Whatever a tool file declares and whatever a model sends, reading and checking answer
        // with a result, never a panic.
        #[test]
        fn any_declaration_and_arguments_are_answered(spec in arb_json(), args in arb_json()) {
            if let Ok(schema) = read_parameters(&spec) {
                let _ = check_args(&schema, &args);
            }
        }
    }
}
