//! Tool names as other tools write them, turned into the names of this vault's operations
//! and script tools.

use super::Source;

/// Whether a tool name is a glob (`canvas_*`) rather than one name.
pub(crate) fn is_glob(name: &str) -> bool {
    name.contains(['*', '?', '[', '{'])
}

/// The tools `names` stand for: known names and globs as written, another tool's names as
/// their equivalent operations; the rest is left out with a warning. `Err` for a glob that
/// does not parse: the user meant something, and guessing what would hand out tools.
pub(super) fn resolve(
    names: &[String],
    src: &Source,
    is_tool: &dyn Fn(&str) -> bool,
    warn: &mut dyn FnMut(String),
) -> Result<Vec<String>, String> {
    let mut out: Vec<String> = Vec::new();
    let add = |name: &str, out: &mut Vec<String>| {
        if !out.iter().any(|n| n == name) {
            out.push(name.to_string());
        }
    };
    for name in names.iter().map(|n| n.trim()).filter(|n| !n.is_empty()) {
        if is_glob(name) {
            globset::Glob::new(name)
                .map_err(|e| format!("the tool pattern '{name}' is not a valid glob: {e}"))?;
            add(name, &mut out);
        } else if is_tool(name) {
            add(name, &mut out);
        } else if let Some(ops) = (src.equivalents)(name) {
            let offered: Vec<&str> = ops.iter().copied().filter(|op| is_tool(op)).collect();
            if offered.is_empty() && !ops.is_empty() {
                warn(format!(
                    "tool '{name}' stands for {}, which this vault does not offer; left out",
                    ops.join(", ")
                ));
            }
            for op in offered {
                add(op, &mut out);
            }
        } else {
            warn(format!(
                "tool '{name}' is neither an operation nor a script tool, and Easel has no equivalent; left out"
            ));
        }
    }
    Ok(out)
}
