//! Bridges to serde, so canvas values can travel through `serde_json` (MCP arguments,
//! `--json` output) without losing how numbers were written.

use super::{Map, Number, Str, Value};
use serde::de::{self, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

impl Serialize for Number {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // RawValue writes the text verbatim with serde_json; the text is valid JSON by
        // construction, so this cannot fail in practice.
        match serde_json::value::RawValue::from_string(self.0.to_string()) {
            Ok(raw) => raw.serialize(serializer),
            Err(_) => serializer.serialize_f64(self.as_f64()),
        }
    }
}

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Null => serializer.serialize_unit(),
            Value::Bool(b) => serializer.serialize_bool(*b),
            Value::Number(n) => n.serialize(serializer),
            Value::String(s) => serializer.serialize_str(s),
            Value::Utf16(s) => serializer.serialize_str(s.text()),
            Value::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Value::Object(map) => map.serialize(serializer),
        }
    }
}

impl Serialize for Map {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut m = serializer.serialize_map(Some(self.len()))?;
        for (k, v) in self.iter() {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(Number::from_i64(v)))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(Number(
            compact_str::ToCompactString::to_compact_string(&v),
        )))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        Number::from_f64(v)
            .map(Value::Number)
            .ok_or_else(|| E::custom("JSON cannot hold NaN or infinity"))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.into()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v.into()))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Deserialize::deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut map = Map::new();
        while let Some((k, v)) = access.next_entry::<Str, Value>()? {
            map.push(k, v);
        }
        Ok(Value::Object(map))
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        d.deserialize_any(ValueVisitor)
    }
}

impl From<&serde_json::Value> for Value {
    fn from(v: &serde_json::Value) -> Value {
        match v {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(b) => Value::Bool(*b),
            serde_json::Value::Number(n) => {
                Number::from_text(&n.to_string()).map_or(Value::Null, Value::Number)
            }
            serde_json::Value::String(s) => Value::String(s.as_str().into()),
            serde_json::Value::Array(a) => Value::Array(a.iter().map(Value::from).collect()),
            serde_json::Value::Object(o) => Value::Object(
                o.iter()
                    .map(|(k, v)| (k.as_str(), Value::from(v)))
                    .collect(),
            ),
        }
    }
}

impl From<&Value> for serde_json::Value {
    fn from(v: &Value) -> serde_json::Value {
        match v {
            Value::Null => serde_json::Value::Null,
            Value::Bool(b) => serde_json::Value::Bool(*b),
            Value::Number(n) => {
                // Integers stay integers; everything else goes through f64.
                let text = n.as_text();
                if let Ok(i) = text.parse::<i64>() {
                    i.into()
                } else if let Ok(u) = text.parse::<u64>() {
                    u.into()
                } else {
                    serde_json::Number::from_f64(n.as_f64())
                        .map_or(serde_json::Value::Null, serde_json::Value::Number)
                }
            }
            Value::String(s) => serde_json::Value::String(s.to_string()),
            Value::Utf16(s) => serde_json::Value::String(s.text().to_string()),
            Value::Array(a) => serde_json::Value::Array(a.iter().map(Into::into).collect()),
            Value::Object(m) => {
                serde_json::Value::Object(m.iter().map(|(k, v)| (k.to_owned(), v.into())).collect())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse;

    #[test]
    fn serde_json_output_keeps_number_text() {
        let v = parse(r#"{"x":1.50,"y":[1E2,-0]}"#).unwrap();
        assert_eq!(
            serde_json::to_string(&v).unwrap(),
            r#"{"x":1.50,"y":[1E2,-0]}"#
        );
    }

    #[test]
    fn round_trips_through_serde_json_value() {
        let v = parse(r#"{"b":1,"a":[true,null,"s",2.5]}"#).unwrap();
        let sj: serde_json::Value = (&v).into();
        assert_eq!(Value::from(&sj), v);
        let back: Value = serde_json::from_str(r#"{"b":1,"a":[true,null,"s",2.5]}"#).unwrap();
        assert_eq!(back, v);
    }
}
