//! JSON arguments into typed inputs, forgiving what small models get wrong and explaining what
//! cannot be forgiven.
//!
//! Small models send `"10"` for a number, `12` for an id, `"true"` for a flag, and nested objects
//! as JSON text. Each argument is coerced towards the type its schema property declares before
//! the input is deserialised, so every operation forgives the same things without a line of
//! its own.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value as Json};

use crate::error::OpError;
use crate::op::OpInfo;

/// Check, coerce and deserialise `args` into the input of the operation `info` describes.
pub(crate) fn deserialize<T: DeserializeOwned>(info: &OpInfo, args: Json) -> Result<T, OpError> {
    let mut map = match args {
        Json::Null => Map::new(),
        Json::Object(map) => map,
        // A whole argument object sent as text.
        Json::String(text) => match serde_json::from_str::<Json>(&text) {
            Ok(Json::Object(map)) => map,
            _ => return Err(not_an_object(info, "a string")),
        },
        other => return Err(not_an_object(info, json_type(&other))),
    };
    let properties = info
        .input_schema
        .get("properties")
        .and_then(Json::as_object);
    let closed = info.input_schema.get("additionalProperties") == Some(&Json::Bool(false));
    if let Some(props) = properties {
        if closed && let Some(extra) = map.keys().find(|k| !props.contains_key(*k)) {
            return Err(OpError::invalid(
                format!("{}: unknown argument '{extra}'", info.name),
                takes(info),
            ));
        }
        for (key, value) in map.iter_mut() {
            if let Some(schema) = props.get(key) {
                coerce(value, schema);
            }
        }
    }
    // Absent and null mean the same for optional arguments; drop nulls so that a required
    // argument sent as null is reported as missing rather than as the wrong type.
    map.retain(|_, v| !v.is_null());
    serde_json::from_value(Json::Object(map)).map_err(|e| {
        OpError::invalid(
            format!("{}: {}", info.name, reword(&e.to_string())),
            takes(info),
        )
    })
}

fn not_an_object(info: &OpInfo, got: &str) -> OpError {
    OpError::invalid(
        format!(
            "{}: the arguments must be a JSON object, got {got}",
            info.name
        ),
        takes(info),
    )
}

/// serde's wording, in the words the rest of Easel uses: "the argument 'path' is missing".
fn reword(message: &str) -> String {
    if let Some(rest) = message.strip_prefix("missing field `")
        && let Some((name, _)) = rest.split_once('`')
    {
        return format!("the argument '{name}' is missing");
    }
    message
        .replace("unknown field", "unknown argument")
        .replace('`', "'")
}

/// The hint listing what an operation takes: `canvas_read takes: path (string, required)`.
pub(crate) fn takes(info: &OpInfo) -> String {
    let required: Vec<&str> = info
        .input_schema
        .get("required")
        .and_then(Json::as_array)
        .map(|r| r.iter().filter_map(Json::as_str).collect())
        .unwrap_or_default();
    let props = info
        .input_schema
        .get("properties")
        .and_then(Json::as_object);
    let Some(props) = props.filter(|p| !p.is_empty()) else {
        return format!("`{}` takes no arguments: pass {{}}", info.name);
    };
    let list: Vec<String> = props
        .iter()
        .map(|(name, schema)| {
            let mut s = format!("{name} ({}", describe_type(schema));
            if required.contains(&name.as_str()) {
                s.push_str(", required");
            }
            s.push(')');
            s
        })
        .collect();
    format!("`{}` takes: {}", info.name, list.join(", "))
}

/// The values of an enumeration schema: `enum`, or `oneOf`/`anyOf` of `const` (how schemars
/// writes an enum whose variants are documented).
fn choices(schema: &Json) -> Option<Vec<Json>> {
    if let Some(values) = schema.get("enum").and_then(Json::as_array) {
        return Some(values.clone());
    }
    let alternatives = ["oneOf", "anyOf"]
        .iter()
        .find_map(|k| schema.get(*k).and_then(Json::as_array))?;
    let mut out = Vec::new();
    for a in alternatives {
        if a.get("type") == Some(&Json::from("null")) {
            continue;
        }
        match a.get("const") {
            Some(c) => out.push(c.clone()),
            None => out.extend(choices(a)?),
        }
    }
    Some(out)
}

fn describe_type(schema: &Json) -> String {
    if let Some(values) = choices(schema).as_ref() {
        let names: Vec<String> = values
            .iter()
            .filter(|v| !v.is_null())
            .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
            .collect();
        return format!("one of {}", names.join("|"));
    }
    let types = types(schema);
    let named: Vec<&str> = types.iter().copied().filter(|t| *t != "null").collect();
    if named.is_empty() {
        "any".into()
    } else {
        named.join(" or ")
    }
}

/// The JSON types a property schema allows (`type` as a string or a list; `anyOf`/`oneOf` of
/// typed schemas).
fn types(schema: &Json) -> Vec<&str> {
    match schema.get("type") {
        Some(Json::String(t)) => vec![t.as_str()],
        Some(Json::Array(ts)) => ts.iter().filter_map(Json::as_str).collect(),
        _ => ["anyOf", "oneOf"]
            .iter()
            .filter_map(|k| schema.get(*k).and_then(Json::as_array))
            .flatten()
            .flat_map(types)
            .collect(),
    }
}

/// Move `value` towards one of the types `schema` allows, when it clearly means that.
fn coerce(value: &mut Json, schema: &Json) {
    let allowed = types(schema);
    if allowed.is_empty() {
        return;
    }
    let allows = |t: &str| allowed.contains(&t);
    let replacement = match &*value {
        Json::String(s) if !allows("string") => {
            let t = s.trim();
            if (allows("number") || allows("integer"))
                && let Ok(n) = t.parse::<serde_json::Number>()
            {
                Some(Json::Number(n))
            } else if allows("boolean") && (t == "true" || t == "false") {
                Some(Json::Bool(t == "true"))
            } else if allows("object") || allows("array") {
                serde_json::from_str::<Json>(t).ok().filter(|v| {
                    (v.is_object() && allows("object")) || (v.is_array() && allows("array"))
                })
            } else {
                None
            }
        }
        Json::Number(n) if allows("string") && !allows("number") && !allows("integer") => {
            Some(Json::String(n.to_string()))
        }
        Json::Number(n) if allows("integer") && !allows("number") => n
            .as_f64()
            .filter(|f| f.fract() == 0.0 && f.abs() < 9.0e15)
            .map(|f| Json::from(f as i64)),
        _ => None,
    };
    if let Some(v) = replacement {
        *value = v;
    }
    // Objects whose properties are described are coerced member by member.
    if let (Json::Object(members), Some(props)) = (
        &mut *value,
        schema.get("properties").and_then(Json::as_object),
    ) {
        for (key, member) in members.iter_mut() {
            if let Some(s) = props.get(key) {
                coerce(member, s);
            }
        }
    }
    if let (Json::Array(items), Some(item_schema)) = (&mut *value, schema.get("items")) {
        for item in items {
            coerce(item, item_schema);
        }
    }
}

fn json_type(v: &Json) -> &'static str {
    match v {
        Json::Null => "null",
        Json::Bool(_) => "a boolean",
        Json::Number(_) => "a number",
        Json::String(_) => "a string",
        Json::Array(_) => "an array",
        Json::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_flags_and_objects_sent_as_text_are_coerced() {
        let schema = json!({"properties": {
            "x": {"type": ["number", "null"]},
            "n": {"type": "integer"},
            "flag": {"type": "boolean"},
            "data": {"type": "object"},
            "id": {"type": "string"}
        }});
        let mut v = json!({"x": " 10 ", "n": 3.0, "flag": "true", "data": "{\"a\":1}", "id": 12});
        for (k, val) in v.as_object_mut().unwrap().iter_mut() {
            coerce(val, &schema["properties"][k]);
        }
        assert_eq!(
            v,
            json!({"x": 10, "n": 3, "flag": true, "data": {"a": 1}, "id": "12"})
        );
    }

    #[test]
    fn optional_enumerations_list_every_value() {
        let schema = json!({"anyOf": [
            {"oneOf": [{"type": "string", "const": "top"}, {"type": "string", "const": "left"}]},
            {"type": "null"}
        ]});
        assert_eq!(describe_type(&schema), "one of top|left");
    }

    #[test]
    fn text_that_means_nothing_else_stays_text() {
        let mut v = json!("ten");
        coerce(&mut v, &json!({"type": "number"}));
        assert_eq!(v, json!("ten"));
        let mut s = json!("10");
        coerce(&mut s, &json!({"type": ["string", "number"]}));
        assert_eq!(s, json!("10"));
    }
}
