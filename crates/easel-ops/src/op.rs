//! The [`Op`] trait, its type-erased form [`DynOp`], and [`OpInfo`], what a catalogue lists.

use std::marker::PhantomData;

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value as Json;

use crate::args;
use crate::ctx::Ctx;
use crate::effect::Effect;
use crate::error::OpError;

/// One operation: a name, a title, a tutorial description, a typed input whose JSON Schema is
/// derived from the type, a typed output that serialises to the JSON `--json` prints, an effect,
/// and the function that does it.
///
/// Front ends never call [`Op::run`] with JSON; they either build the typed input themselves (the
/// hand-shaped shell commands) or go through [`crate::Registry::call`], which checks and
/// deserialises JSON arguments first. Either way the same function runs.
pub trait Op: Send + Sync + 'static {
    /// The arguments. `#[serde(deny_unknown_fields)]` on it makes the registry refuse arguments
    /// the schema does not list, with the accepted names in the hint.
    type Input: DeserializeOwned + JsonSchema;
    /// The result, serialised as the operation's JSON output.
    type Output: Serialize;
    /// `area_verb` in snake case: `canvas_add_node`.
    const NAME: &'static str;
    /// A few words for people: "Add a node".
    const TITLE: &'static str;
    /// For small models: what it does, when to use it, one `Example:`.
    const DESCRIPTION: &'static str;
    /// What it can change.
    const EFFECT: Effect;
    /// Whether running it twice with the same input leaves the vault as running it once.
    const IDEMPOTENT: bool = false;

    /// Do it.
    fn run(&self, ctx: &Ctx, input: Self::Input) -> Result<Self::Output, OpError>;

    /// Do it and encode the output as compact JSON: what every JSON front end (MCP, HTTP,
    /// agents, `easel op run`) calls. An operation that can answer from a cache of encoded
    /// outputs overrides it; the JSON must equal what [`Op::run`]'s output encodes to.
    fn run_json(&self, ctx: &Ctx, input: Self::Input) -> Result<OpOutput, OpError> {
        OpOutput::of(&self.run(ctx, input)?)
    }
}

/// What a catalogue lists about an operation (`easel op list`, MCP `tools/list`, `GET /api/ops`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OpInfo {
    /// See [`Op::NAME`].
    pub name: String,
    /// See [`Op::TITLE`].
    pub title: String,
    /// See [`Op::DESCRIPTION`].
    pub description: String,
    /// See [`Op::EFFECT`].
    pub effect: Effect,
    /// See [`Op::IDEMPOTENT`].
    pub idempotent: bool,
    /// The JSON Schema of the input: an object schema with every subschema inline.
    #[serde(rename = "inputSchema")]
    pub input_schema: Json,
}

/// The compact JSON text an operation produced, and the pictures that go with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpOutput {
    /// Compact JSON.
    pub json: String,
    /// Pictures for a client that shows them (MCP sends each as an image after the JSON);
    /// front ends that print JSON only leave them out, so the JSON must name them (a path).
    pub images: Vec<OpImage>,
}

/// A picture an operation returns beside its JSON.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpImage {
    /// `image/png`.
    pub mime_type: String,
    /// The encoded picture.
    pub data: Vec<u8>,
}

impl OpImage {
    /// A PNG picture.
    pub fn png(data: Vec<u8>) -> OpImage {
        OpImage {
            mime_type: "image/png".to_string(),
            data,
        }
    }
}

impl OpOutput {
    /// The output of a serialisable value.
    pub fn of<T: Serialize + ?Sized>(value: &T) -> Result<OpOutput, OpError> {
        serde_json::to_string(value)
            .map(|json| OpOutput {
                json,
                images: Vec::new(),
            })
            .map_err(|e| OpError::failure(format!("could not encode the result: {e}")))
    }

    /// The same output with these pictures.
    pub fn with_images(mut self, images: Vec<OpImage>) -> OpOutput {
        self.images = images;
        self
    }
}

/// An operation with JSON in and JSON out: what a [`crate::Registry`] holds. Implemented for every
/// [`Op`] through [`Typed`]; implement it directly for operations whose names or schemas are only
/// known at run time (an agent's script tools).
pub trait DynOp: Send + Sync {
    /// What the catalogue lists.
    fn info(&self) -> &OpInfo;
    /// Run with JSON arguments (already checked against the schema's property names and coerced
    /// by [`crate::Registry::call`]).
    fn call_json(&self, ctx: &Ctx, args: Json) -> Result<OpOutput, OpError>;
}

/// An [`Op`] as a [`DynOp`].
pub struct Typed<O: Op> {
    op: O,
    info: OpInfo,
    _marker: PhantomData<fn() -> O>,
}

impl<O: Op> Typed<O> {
    /// Wraps `op`, deriving its schema once.
    pub fn new(op: O) -> Typed<O> {
        let info = OpInfo {
            name: O::NAME.to_string(),
            title: O::TITLE.to_string(),
            description: O::DESCRIPTION.to_string(),
            effect: O::EFFECT,
            idempotent: O::IDEMPOTENT || O::EFFECT == Effect::Read,
            input_schema: input_schema::<O::Input>(),
        };
        Typed {
            op,
            info,
            _marker: PhantomData,
        }
    }
}

impl<O: Op> DynOp for Typed<O> {
    fn info(&self) -> &OpInfo {
        &self.info
    }

    fn call_json(&self, ctx: &Ctx, args: Json) -> Result<OpOutput, OpError> {
        let input: O::Input = args::deserialize(&self.info, args)?;
        self.op.run_json(ctx, input)
    }
}

/// The input schema of `T` as MCP and small models like it: an object, subschemas inline (no
/// `$ref`), no `$schema` or type-name `title` at the top.
pub fn input_schema<T: JsonSchema>() -> Json {
    let schema = SchemaSettings::draft2020_12()
        .with(|s| {
            s.inline_subschemas = true;
            s.meta_schema = None;
        })
        .for_deserialize()
        .into_generator()
        .into_root_schema_for::<T>();
    let mut json = schema.to_value();
    compact(&mut json);
    if let Some(obj) = json.as_object_mut() {
        obj.remove("title");
        obj.remove("$defs");
        // The input type's own doc comment ("`canvas_read`'s input") says nothing to a client.
        obj.remove("description");
        obj.entry("type").or_insert_with(|| Json::from("object"));
        obj.entry("properties")
            .or_insert_with(|| Json::Object(Default::default()));
    }
    json
}

/// Makes a derived schema as short as it can be without changing what it accepts for a client:
/// optional properties lose their `null` alternative (absent and null mean the same to the
/// registry), number formats go. Every token of a tool list is read by the model on every turn,
/// and small models follow a plain `{"type": "string", "enum": [...]}` best.
fn compact(schema: &mut Json) {
    let Some(obj) = schema.as_object_mut() else {
        return;
    };
    obj.remove("format");
    if obj.get("default") == Some(&Json::Null) {
        obj.remove("default");
    }
    // Doc comments wrap at 100 columns; a description is one paragraph.
    if let Some(Json::String(d)) = obj.get_mut("description") {
        *d = d
            .split("\n\n")
            .map(|p| p.replace('\n', " "))
            .collect::<Vec<_>>()
            .join("\n\n");
    }
    if let Some(Json::Array(types)) = obj.get("type") {
        let named: Vec<Json> = types.iter().filter(|t| *t != "null").cloned().collect();
        if named.len() == 1 {
            obj.insert("type".into(), named[0].clone());
        }
    }
    for key in ["anyOf", "oneOf"] {
        let Some(Json::Array(alts)) = obj.get(key) else {
            continue;
        };
        let named: Vec<Json> = alts
            .iter()
            .filter(|a| a.get("type") != Some(&Json::from("null")))
            .cloned()
            .collect();
        if named.len() == 1
            && alts.len() == 2
            && let Json::Object(inner) = &named[0]
        {
            let inner = inner.clone();
            obj.remove(key);
            for (k, v) in inner {
                // The property's own description wins over its type's.
                obj.entry(k).or_insert(v);
            }
            return compact(schema);
        }
        // An enumeration of documented constants: the values are what a client needs.
        if !named.is_empty() && named.iter().all(|a| a.get("const").is_some()) {
            let values: Vec<Json> = named
                .iter()
                .filter_map(|a| a.get("const").cloned())
                .collect();
            obj.remove(key);
            obj.insert("type".into(), Json::from("string"));
            obj.insert("enum".into(), Json::Array(values));
            break;
        }
    }
    for key in ["properties", "$defs"] {
        if let Some(Json::Object(props)) = obj.get_mut(key) {
            for v in props.values_mut() {
                compact(v);
            }
        }
    }
    if let Some(items) = obj.get_mut("items") {
        compact(items);
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(Json::Array(alts)) = obj.get_mut(key) {
            for a in alts {
                compact(a);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn optional_enums_become_plain_enums() {
        let mut s = json!({"type": "object", "properties": {
            "side": {"description": "Which side.", "anyOf": [
                {"oneOf": [{"type": "string", "const": "top", "description": "Top."},
                           {"type": "string", "const": "left", "description": "Left."}],
                 "description": "A side."},
                {"type": "null"}]},
            "n": {"type": ["integer", "null"], "format": "uint32", "minimum": 0}
        }});
        compact(&mut s);
        assert_eq!(
            s["properties"]["side"],
            json!({"description": "Which side.", "type": "string", "enum": ["top", "left"]})
        );
        assert_eq!(
            s["properties"]["n"],
            json!({"type": "integer", "minimum": 0})
        );
    }
}
