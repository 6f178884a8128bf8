//! `canvas_new`: a new canvas from a template, built in (`mindmap`, `flowchart`, `kanban`,
//! `timeline`, `swot`, `conversation`) or the user's own `.easel/templates/NAME.canvas`, with
//! `{{key}}` placeholders filled from `set`.

use easel_canvas::Canvas;
use easel_canvas::json::Value;
use easel_vault::Expect;
use easel_vault::canvas::canvas_path;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use crate::ctx::Ctx;
use crate::effect::Effect;
use crate::error::OpError;
use crate::op::Op;

/// A built-in template: its canvas (placeholders included) and the placeholders' defaults.
struct Builtin {
    name: &'static str,
    canvas: &'static str,
    defaults: &'static [(&'static str, &'static str)],
}

const BUILTINS: &[Builtin] = &[
    Builtin {
        name: "mindmap",
        canvas: r##"{"nodes":[
{"id":"centre","type":"text","text":"# {{topic}}","x":-150,"y":-40,"width":300,"height":80,"color":"6"},
{"id":"b1","type":"text","text":"{{branch1}}","x":-560,"y":-200,"width":250,"height":60},
{"id":"b2","type":"text","text":"{{branch2}}","x":310,"y":-200,"width":250,"height":60},
{"id":"b3","type":"text","text":"{{branch3}}","x":-560,"y":140,"width":250,"height":60},
{"id":"b4","type":"text","text":"{{branch4}}","x":310,"y":140,"width":250,"height":60}],
"edges":[
{"id":"e1","fromNode":"centre","fromSide":"left","toNode":"b1","toSide":"right"},
{"id":"e2","fromNode":"centre","fromSide":"right","toNode":"b2","toSide":"left"},
{"id":"e3","fromNode":"centre","fromSide":"left","toNode":"b3","toSide":"right"},
{"id":"e4","fromNode":"centre","fromSide":"right","toNode":"b4","toSide":"left"}]}"##,
        defaults: &[
            ("topic", "Central idea"),
            ("branch1", "Branch 1"),
            ("branch2", "Branch 2"),
            ("branch3", "Branch 3"),
            ("branch4", "Branch 4"),
        ],
    },
    Builtin {
        name: "flowchart",
        canvas: r##"{"nodes":[
{"id":"start","type":"text","text":"**{{start}}**","x":0,"y":0,"width":250,"height":60,"color":"4"},
{"id":"step","type":"text","text":"{{step}}","x":0,"y":160,"width":250,"height":60},
{"id":"choice","type":"text","text":"{{question}}","x":0,"y":320,"width":250,"height":60,"color":"3"},
{"id":"yes","type":"text","text":"{{yes}}","x":-200,"y":480,"width":250,"height":60},
{"id":"no","type":"text","text":"{{no}}","x":200,"y":480,"width":250,"height":60},
{"id":"end","type":"text","text":"**{{end}}**","x":0,"y":640,"width":250,"height":60,"color":"1"}],
"edges":[
{"id":"f1","fromNode":"start","fromSide":"bottom","toNode":"step","toSide":"top"},
{"id":"f2","fromNode":"step","fromSide":"bottom","toNode":"choice","toSide":"top"},
{"id":"f3","fromNode":"choice","fromSide":"bottom","toNode":"yes","toSide":"top","label":"yes"},
{"id":"f4","fromNode":"choice","fromSide":"bottom","toNode":"no","toSide":"top","label":"no"},
{"id":"f5","fromNode":"yes","fromSide":"bottom","toNode":"end","toSide":"top"},
{"id":"f6","fromNode":"no","fromSide":"bottom","toNode":"end","toSide":"top"}]}"##,
        defaults: &[
            ("start", "Start"),
            ("step", "Do something"),
            ("question", "Did it work?"),
            ("yes", "Next step"),
            ("no", "Fix it"),
            ("end", "Done"),
        ],
    },
    Builtin {
        name: "kanban",
        canvas: r##"{"nodes":[
{"id":"todo","type":"group","label":"{{todo}}","x":0,"y":0,"width":320,"height":500},
{"id":"doing","type":"group","label":"{{doing}}","x":360,"y":0,"width":320,"height":500,"color":"3"},
{"id":"done","type":"group","label":"{{done}}","x":720,"y":0,"width":320,"height":500,"color":"4"},
{"id":"card","type":"text","text":"{{card}}","x":35,"y":40,"width":250,"height":60}],
"edges":[]}"##,
        defaults: &[
            ("todo", "To do"),
            ("doing", "Doing"),
            ("done", "Done"),
            ("card", "First task"),
        ],
    },
    Builtin {
        name: "timeline",
        canvas: r##"{"nodes":[
{"id":"t1","type":"text","text":"**{{start}}**","x":0,"y":0,"width":220,"height":80,"color":"5"},
{"id":"t2","type":"text","text":"{{step2}}","x":300,"y":0,"width":220,"height":80},
{"id":"t3","type":"text","text":"{{step3}}","x":600,"y":0,"width":220,"height":80},
{"id":"t4","type":"text","text":"**{{end}}**","x":900,"y":0,"width":220,"height":80,"color":"5"}],
"edges":[
{"id":"l1","fromNode":"t1","fromSide":"right","toNode":"t2","toSide":"left"},
{"id":"l2","fromNode":"t2","fromSide":"right","toNode":"t3","toSide":"left"},
{"id":"l3","fromNode":"t3","fromSide":"right","toNode":"t4","toSide":"left"}]}"##,
        defaults: &[
            ("start", "Start"),
            ("step2", "Milestone"),
            ("step3", "Milestone"),
            ("end", "End"),
        ],
    },
    Builtin {
        name: "swot",
        canvas: r##"{"nodes":[
{"id":"title","type":"text","text":"# {{topic}}","x":0,"y":-100,"width":840,"height":70},
{"id":"s","type":"group","label":"Strengths","x":0,"y":0,"width":400,"height":300,"color":"4"},
{"id":"w","type":"group","label":"Weaknesses","x":440,"y":0,"width":400,"height":300,"color":"1"},
{"id":"o","type":"group","label":"Opportunities","x":0,"y":340,"width":400,"height":300,"color":"5"},
{"id":"t","type":"group","label":"Threats","x":440,"y":340,"width":400,"height":300,"color":"2"}],
"edges":[]}"##,
        defaults: &[("topic", "SWOT analysis")],
    },
    Builtin {
        name: "conversation",
        canvas: r##"{"nodes":[
{"id":"system","type":"text","text":"---\nrole: system\n---\n\n{{system}}","x":0,"y":0,"width":400,"height":140,"color":"6"},
{"id":"user","type":"text","text":"{{prompt}}","x":0,"y":200,"width":400,"height":120}],
"edges":[{"id":"c1","fromNode":"system","fromSide":"bottom","toNode":"user","toSide":"top"}]}"##,
        defaults: &[
            ("system", "You are a helpful assistant."),
            (
                "prompt",
                "Ask your question here, then run thread send on this node.",
            ),
        ],
    },
];

/// The built-in template names.
pub fn builtin_names() -> Vec<&'static str> {
    BUILTINS.iter().map(|b| b.name).collect()
}

/// Replaces every `{{key}}` in `s`; keys without a value are collected in `missing`.
fn fill(
    s: &str,
    values: &BTreeMap<String, String>,
    used: &mut Vec<String>,
    missing: &mut Vec<String>,
) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(start) = rest.find("{{") {
        let Some(len) = rest[start + 2..].find("}}") else {
            break;
        };
        out.push_str(&rest[..start]);
        let key = rest[start + 2..start + 2 + len].trim();
        match values.get(key) {
            Some(v) => {
                out.push_str(v);
                used.push(key.to_owned());
            }
            None => {
                missing.push(key.to_owned());
                out.push_str(&rest[start..start + 2 + len + 2]);
            }
        }
        rest = &rest[start + 2 + len + 2..];
    }
    out.push_str(rest);
    out
}

fn fill_value(
    v: &mut Value,
    values: &BTreeMap<String, String>,
    used: &mut Vec<String>,
    missing: &mut Vec<String>,
) {
    match v {
        Value::String(s) if s.contains("{{") => {
            *v = Value::from(fill(s, values, used, missing).as_str())
        }
        Value::Array(items) => items
            .iter_mut()
            .for_each(|i| fill_value(i, values, used, missing)),
        Value::Object(m) => {
            let keys: Vec<String> = m.keys().map(str::to_owned).collect();
            for k in keys {
                if let Some(item) = m.get_mut(&k) {
                    fill_value(item, values, used, missing);
                }
            }
        }
        _ => {}
    }
}

/// `canvas_new`'s input.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NewInput {
    /// The new canvas's path; it must not exist yet.
    pub path: String,
    /// A built-in template (mindmap, flowchart, kanban, timeline, swot, conversation) or the
    /// name of one in .easel/templates/ (without '.canvas').
    pub template: String,
    /// Values for the template's {{key}} placeholders, e.g. {"topic": "Holidays"}.
    #[serde(default)]
    pub set: Option<BTreeMap<String, String>>,
}

/// `canvas_new`'s output.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NewOutput {
    /// The new canvas.
    pub path: String,
    /// Its revision.
    pub rev: Option<String>,
    /// The template used.
    pub template: String,
    /// Nodes made.
    pub node_count: usize,
    /// Edges made.
    pub edge_count: usize,
    /// Values given that the template does not use.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// Start a canvas from a template.
#[derive(Clone, Copy, Debug, Default)]
pub struct CanvasNew;

impl Op for CanvasNew {
    type Input = NewInput;
    type Output = NewOutput;
    const NAME: &'static str = "canvas_new";
    const TITLE: &'static str = "Start a canvas from a template";
    const DESCRIPTION: &'static str = "Create a NEW canvas from a template: mindmap, flowchart, kanban, timeline, swot, conversation (a system prompt and a first question wired for thread_send), or the user's own .easel/templates/NAME.canvas. \
Fill the template's {{key}} placeholders with 'set'.\n\
Example: {\"path\": \"Trip.canvas\", \"template\": \"mindmap\", \"set\": {\"topic\": \"Summer trip\"}}";
    const EFFECT: Effect = Effect::Write;

    fn run(&self, ctx: &Ctx, input: NewInput) -> Result<NewOutput, OpError> {
        let name = input.template.trim().trim_end_matches(".canvas");
        let mut values: BTreeMap<String, String> = BTreeMap::new();
        let text = match BUILTINS.iter().find(|b| b.name == name) {
            Some(b) => {
                for (k, v) in b.defaults {
                    values.insert((*k).to_owned(), (*v).to_owned());
                }
                b.canvas.to_owned()
            }
            None => {
                let p = ctx
                    .vault()
                    .resolve(&format!(".easel/templates/{name}.canvas"))
                    .map_err(|_| unknown(name))?;
                let (bytes, _) = ctx.vault().read(&p).map_err(|_| unknown(name))?;
                String::from_utf8(bytes).map_err(|_| {
                    OpError::invalid(
                        format!("template '{name}' is not UTF-8 text"),
                        "save the template as a UTF-8 .canvas file",
                    )
                })?
            }
        };
        let given = input.set.unwrap_or_default();
        values.extend(given.clone());
        let mut canvas = Canvas::parse(&text).map_err(|e| {
            OpError::invalid(
                format!("template '{name}' is not a canvas: {e}"),
                "fix the template file in .easel/templates/",
            )
        })?;
        let (mut used, mut missing) = (Vec::new(), Vec::new());
        let mut value = canvas.to_value();
        fill_value(&mut value, &values, &mut used, &mut missing);
        missing.sort();
        missing.dedup();
        if !missing.is_empty() {
            let example = missing
                .iter()
                .map(|k| format!("{k}=..."))
                .collect::<Vec<_>>()
                .join(" ");
            return Err(OpError::invalid(
                format!(
                    "template '{name}' needs a value for {}",
                    missing
                        .iter()
                        .map(|k| format!("'{k}'"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                format!(
                    "give them with 'set' ({{\"{}\": \"...\"}}), on the shell --set {example}",
                    missing[0]
                ),
            ));
        }
        canvas = Canvas::from_value(value).map_err(|e| {
            OpError::failure(format!("a filled template stopped being a canvas: {e}"))
        })?;
        let warnings = given
            .keys()
            .filter(|k| !used.contains(k))
            .map(|k| {
                format!(
                    "the template '{name}' has no {{{{{k}}}}} placeholder, so '{k}' was not used"
                )
            })
            .collect();
        let p = canvas_path(ctx.vault(), &input.path, true)?;
        let change = ctx.change(
            Self::NAME,
            format!("create {} from template {name}", p.as_str()),
        );
        let written = ctx
            .vault()
            .write(
                &p,
                canvas.to_obsidian_string().as_bytes(),
                Expect::Absent,
                &change,
            )
            .map_err(|e| match e {
                easel_vault::VaultError::AlreadyExists { .. } => OpError::conflict(
                    format!("canvas already exists: {}", p.as_str()),
                    "pick another 'path'; a template only starts new canvases",
                ),
                other => other.into(),
            })?;
        Ok(NewOutput {
            path: p.as_str().to_owned(),
            rev: written.rev_after.map(|r| r.to_string()),
            template: name.to_owned(),
            node_count: canvas.nodes().len(),
            edge_count: canvas.edges().len(),
            warnings,
        })
    }
}

fn unknown(name: &str) -> OpError {
    OpError::not_found(
        format!("there is no template '{name}'"),
        format!(
            "use a built-in one ({}) or save your own as .easel/templates/{name}.canvas",
            builtin_names().join(", ")
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_is_a_valid_canvas_once_filled() {
        for b in BUILTINS {
            let values = b
                .defaults
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect();
            let (mut used, mut missing) = (Vec::new(), Vec::new());
            let mut value = Canvas::parse(b.canvas).unwrap().to_value();
            fill_value(&mut value, &values, &mut used, &mut missing);
            assert!(missing.is_empty(), "{}: {missing:?}", b.name);
            let c = Canvas::from_value(value).unwrap();
            assert!(easel_canvas::validate(&c).is_valid(), "{}", b.name);
            assert_eq!(
                easel_layout::canvas_metrics(&c).node_overlaps,
                0,
                "{}",
                b.name
            );
        }
    }

    #[test]
    fn placeholders_fill_and_report_what_is_missing() {
        let values = BTreeMap::from([("a".to_owned(), "x \"quoted\"".to_owned())]);
        let (mut used, mut missing) = (Vec::new(), Vec::new());
        assert_eq!(
            fill("{{a}} and {{ b }}", &values, &mut used, &mut missing),
            "x \"quoted\" and {{ b }}"
        );
        assert_eq!(
            (used, missing),
            (vec!["a".to_owned()], vec!["b".to_owned()])
        );
    }
}
