//! Two prompts that show a client what the server is for: `canvas-brainstorm` (build a board
//! from a topic) and `code-impact` (look at a change's blast radius before making it).

use rmcp::ErrorData;
use rmcp::model::{
    ContentBlock, GetPromptResult, JsonObject, Prompt, PromptArgument, PromptMessage, Role,
};

/// The prompts, in the order clients list them.
pub fn list() -> Vec<Prompt> {
    vec![
        Prompt::new(
            "canvas-brainstorm",
            Some("Brainstorm a topic on a new canvas: ideas as nodes, grouped and connected"),
            Some(vec![
                PromptArgument::new("topic")
                    .with_description("What to brainstorm about")
                    .with_required(true),
                PromptArgument::new("canvas")
                    .with_description("Path of the canvas to create (default: the topic's name)")
                    .with_required(false),
            ]),
        )
        .with_title("Brainstorm on a canvas"),
        Prompt::new(
            "code-impact",
            Some("Before changing a function, see what calls it and what it calls, on the code board"),
            Some(vec![
                PromptArgument::new("symbol")
                    .with_description("The function, method or class you are about to change")
                    .with_required(true),
            ]),
        )
        .with_title("Impact of a code change"),
    ]
}

fn argument<'a>(args: Option<&'a JsonObject>, name: &str) -> Option<&'a str> {
    args?
        .get(name)?
        .as_str()
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

fn missing(prompt: &str, name: &str) -> ErrorData {
    ErrorData::invalid_params(
        format!("the prompt '{prompt}' needs the argument '{name}'"),
        Some(
            serde_json::json!({"hint": format!("pass {{\"{name}\": \"...\"}} as the prompt's arguments")}),
        ),
    )
}

/// The messages of prompt `name` filled with `args`.
pub fn get(name: &str, args: Option<&JsonObject>) -> Result<GetPromptResult, ErrorData> {
    match name {
        "canvas-brainstorm" => {
            let topic = argument(args, "topic").ok_or_else(|| missing(name, "topic"))?;
            let canvas = argument(args, "canvas").map_or_else(
                || format!("{}.canvas", topic.replace(['/', '\\', ':'], "-")),
                str::to_string,
            );
            let text = format!(
                "Brainstorm \"{topic}\" on the canvas {canvas:?}.\n\
1. Create it with canvas_write: one text node per idea (a short Markdown line each, about 8 to 15 ideas), \
a group node per theme whose box surrounds its ideas, and edges (fromNode/toNode) from each idea to the ideas it leads to.\n\
2. Read it back with canvas_read and check it with canvas_validate.\n\
3. Add a text node summarising the three most promising ideas, coloured \"4\" (green), with canvas_add_node, and connect it to them with canvas_add_edge.\n\
Keep every 'rev' you read and pass it to the next write."
            );
            Ok(GetPromptResult::new(vec![PromptMessage::new(
                Role::User,
                ContentBlock::text(text),
            )])
            .with_description(format!("Brainstorm {topic} on {canvas}")))
        }
        "code-impact" => {
            let symbol = argument(args, "symbol").ok_or_else(|| missing(name, "symbol"))?;
            let text = format!(
                "I am about to change `{symbol}`. Before editing:\n\
1. Call canvas(action=\"init\") if the repository has no code board yet.\n\
2. Call canvas(action=\"impact\", symbol=\"{symbol}\") and read its callers, callees and blast radius.\n\
3. List the callers the change could break, and record what you learn with canvas(action=\"claim\", ...) citing the evidence.\n\
Then propose the change."
            );
            Ok(GetPromptResult::new(vec![PromptMessage::new(
                Role::User,
                ContentBlock::text(text),
            )])
            .with_description(format!("Impact of changing {symbol}")))
        }
        other => Err(ErrorData::invalid_params(
            format!("there is no prompt named '{other}'"),
            Some(serde_json::json!({"hint": "use canvas-brainstorm or code-impact"})),
        )),
    }
}
