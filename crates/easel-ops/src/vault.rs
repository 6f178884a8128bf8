//! The vault-wide operations: `vault_list`, `vault_search`, `vault_query`.

use std::path::Path;

use easel_vault::{FileInfo, Note, Vault, VaultPath};
use regex::{Regex, RegexBuilder};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as Json};

use crate::ctx::Ctx;
use crate::effect::Effect;
use crate::error::OpError;
use crate::op::Op;

fn folder(vault: &Vault, folder: Option<&str>) -> Result<Option<VaultPath>, OpError> {
    // Only trailing slashes go: "/etc" must stay absolute, so that the vault refuses it.
    match folder.map(|f| f.trim().trim_end_matches('/')) {
        None | Some("") | Some(".") => Ok(None),
        Some(f) => Ok(Some(vault.resolve(f)?)),
    }
}

/// `vault_list`'s input.
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VaultListInput {
    /// Only files under this folder.
    #[serde(default)]
    pub folder: Option<String>,
    /// Look into subfolders (default true).
    #[serde(default)]
    pub recursive: Option<bool>,
    /// Only files with this extension, e.g. "md" or "canvas".
    #[serde(default)]
    pub ext: Option<String>,
    /// At most this many files (default 500).
    #[serde(default)]
    pub limit: Option<u32>,
}

/// `vault_list`'s output.
#[derive(Clone, Debug, Serialize)]
pub struct VaultListOutput {
    /// The files, sorted by path.
    pub files: Vec<FileInfo>,
    /// How many files matched (more than `files` holds when truncated).
    pub total: usize,
    /// Whether `limit` cut the list.
    pub truncated: bool,
}

/// List the files of the vault.
#[derive(Clone, Copy, Debug, Default)]
pub struct VaultList;

impl Op for VaultList {
    type Input = VaultListInput;
    type Output = VaultListOutput;
    const NAME: &'static str = "vault_list";
    const TITLE: &'static str = "List files";
    const DESCRIPTION: &'static str = "List the files of the vault (notes, canvases, images, ...) with their size and modification time, sorted by path. \
Use it to find a note's path; use vault_search to find text inside notes.\n\
Example: {\"folder\": \"Projects\", \"ext\": \"md\"}";
    const EFFECT: Effect = Effect::Read;

    fn run(&self, ctx: &Ctx, input: VaultListInput) -> Result<VaultListOutput, OpError> {
        let start = folder(ctx.vault(), input.folder.as_deref())?;
        let mut files = ctx.vault().list_files(
            start.as_ref(),
            input.recursive.unwrap_or(true),
            input.ext.as_deref().unwrap_or(""),
        )?;
        let total = files.len();
        let limit = input.limit.map_or(500, |l| l.max(1) as usize);
        files.truncate(limit);
        Ok(VaultListOutput {
            truncated: total > files.len(),
            total,
            files,
        })
    }
}

/// Files larger than this are not searched (logs, exports): they would swamp the results.
const MAX_SEARCH_BYTES: u64 = 8 * 1024 * 1024;

/// Obsidian's "Excluded files" (`userIgnoreFilters` in `.obsidian/app.json`): path prefixes, or
/// regular expressions written between slashes.
struct Exclusions {
    prefixes: Vec<String>,
    patterns: Vec<Regex>,
}

impl Exclusions {
    fn load(root: &Path) -> Exclusions {
        let mut ex = Exclusions {
            prefixes: Vec::new(),
            patterns: Vec::new(),
        };
        let Ok(text) = std::fs::read_to_string(root.join(".obsidian/app.json")) else {
            return ex;
        };
        let Ok(json) = serde_json::from_str::<Json>(&text) else {
            tracing::warn!("ignoring .obsidian/app.json: it is not valid JSON");
            return ex;
        };
        for filter in json
            .get("userIgnoreFilters")
            .and_then(Json::as_array)
            .into_iter()
            .flatten()
            .filter_map(Json::as_str)
        {
            if filter.len() > 2 && filter.starts_with('/') && filter.ends_with('/') {
                match RegexBuilder::new(&filter[1..filter.len() - 1])
                    .size_limit(1 << 20)
                    .build()
                {
                    Ok(re) => ex.patterns.push(re),
                    Err(e) => {
                        tracing::warn!(%filter, error = %e, "ignoring an excluded-files pattern Obsidian's settings hold")
                    }
                }
            } else {
                ex.prefixes.push(filter.trim_start_matches('/').to_string());
            }
        }
        ex
    }

    fn excludes(&self, rel: &str) -> bool {
        self.prefixes.iter().any(|p| rel.starts_with(p.as_str()))
            || self.patterns.iter().any(|re| re.is_match(rel))
    }
}

/// The text files under `start` a search or query may read: `.gitignore`d files, hidden files
/// and folders (`.obsidian/`, `.git/`, `.trash/`, `.easel/`), Obsidian's excluded files, links
/// and binaries are left out. Sorted by path.
fn text_files(
    vault: &Vault,
    start: Option<&VaultPath>,
    ext: Option<&str>,
) -> Vec<(String, std::path::PathBuf)> {
    let root = vault.root();
    let exclusions = Exclusions::load(root);
    let dir = start.map_or_else(|| root.to_path_buf(), |p| p.abs().to_path_buf());
    let walker = ignore::WalkBuilder::new(&dir)
        .hidden(true)
        .git_ignore(true)
        .git_global(false)
        .git_exclude(false)
        .require_git(false)
        .follow_links(false)
        .sort_by_file_name(|a, b| a.cmp(b))
        .build();
    let mut out = Vec::new();
    for entry in walker.flatten() {
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let Ok(rel) = entry.path().strip_prefix(root) else {
            continue;
        };
        let rel = rel.to_string_lossy().replace('\\', "/");
        // Easel's temporary files start with a dot, so the hidden-file rule leaves them out.
        if exclusions.excludes(&rel) {
            continue;
        }
        if let Some(ext) = ext {
            let wanted = ext.trim_start_matches('.');
            if !rel
                .rsplit_once('.')
                .is_some_and(|(_, e)| e.eq_ignore_ascii_case(wanted))
            {
                continue;
            }
        }
        if entry
            .metadata()
            .map_or(true, |m| m.len() > MAX_SEARCH_BYTES)
        {
            continue;
        }
        out.push((rel, entry.into_path()));
    }
    out
}

fn read_text(path: &Path) -> Option<String> {
    let bytes = std::fs::read(path).ok()?;
    // A NUL byte near the start means a binary file (as git and ripgrep decide).
    if bytes[..bytes.len().min(8192)].contains(&0) {
        return None;
    }
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// `vault_search`'s input.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VaultSearchInput {
    /// The text to look for (a plain string, or a regular expression with "regex": true).
    pub query: String,
    /// Treat the query as a regular expression.
    #[serde(default)]
    pub regex: Option<bool>,
    /// Match case exactly (default: ignore case).
    #[serde(default)]
    pub case_sensitive: Option<bool>,
    /// Only files under this folder.
    #[serde(default)]
    pub folder: Option<String>,
    /// Only files with this extension, e.g. "md".
    #[serde(default)]
    pub ext: Option<String>,
    /// Lines of context before and after each match (default 1, at most 5).
    #[serde(default)]
    pub context: Option<u32>,
    /// At most this many matches (default 50).
    #[serde(default)]
    pub limit: Option<u32>,
}

/// One matching line.
#[derive(Clone, Debug, Serialize)]
pub struct SearchMatch {
    /// The file.
    pub path: String,
    /// The line number, from 1.
    pub line: usize,
    /// The line's text.
    pub text: String,
    /// The lines before it.
    pub before: Vec<String>,
    /// The lines after it.
    pub after: Vec<String>,
}

/// `vault_search`'s output.
#[derive(Clone, Debug, Serialize)]
pub struct VaultSearchOutput {
    /// The query as given.
    pub query: String,
    /// The matches, by path then line.
    pub matches: Vec<SearchMatch>,
    /// How many matches were returned.
    pub total: usize,
    /// Whether `limit` stopped the search early.
    pub truncated: bool,
}

/// Search the text of the vault's files.
#[derive(Clone, Copy, Debug, Default)]
pub struct VaultSearch;

impl Op for VaultSearch {
    type Input = VaultSearchInput;
    type Output = VaultSearchOutput;
    const NAME: &'static str = "vault_search";
    const TITLE: &'static str = "Search the vault";
    const DESCRIPTION: &'static str = "Find lines containing a text in the vault's notes and other text files (case-insensitive by default), with a line of context around each. \
Files ignored by .gitignore or excluded in Obsidian's settings are skipped. Then read a whole note with note_read.\n\
Example: {\"query\": \"budget\", \"ext\": \"md\"}";
    const EFFECT: Effect = Effect::Read;

    fn run(&self, ctx: &Ctx, input: VaultSearchInput) -> Result<VaultSearchOutput, OpError> {
        if input.query.is_empty() {
            return Err(OpError::invalid(
                "the search query is empty",
                "give a word or phrase to look for; to list files use `vault_list`",
            ));
        }
        let pattern = if input.regex.unwrap_or(false) {
            input.query.clone()
        } else {
            regex::escape(&input.query)
        };
        let re = RegexBuilder::new(&pattern)
            .case_insensitive(!input.case_sensitive.unwrap_or(false))
            .size_limit(1 << 20)
            .build()
            .map_err(|e| {
                OpError::invalid(
                    format!("the query is not a usable regular expression: {e}"),
                    "fix the expression, or leave out \"regex\": true to search for the text as written",
                )
            })?;
        let start = folder(ctx.vault(), input.folder.as_deref())?;
        let context = input.context.unwrap_or(1).min(5) as usize;
        let limit = input.limit.map_or(50, |l| l.max(1) as usize);
        let mut matches = Vec::new();
        let mut truncated = false;
        'files: for (rel, abs) in text_files(ctx.vault(), start.as_ref(), input.ext.as_deref()) {
            if ctx.is_cancelled() {
                return Err(OpError::cancelled("the search"));
            }
            let Some(text) = read_text(&abs) else {
                continue;
            };
            if !re.is_match(&text) {
                continue;
            }
            let lines: Vec<&str> = text.lines().collect();
            for (i, line) in lines.iter().enumerate() {
                if !re.is_match(line) {
                    continue;
                }
                if matches.len() == limit {
                    truncated = true;
                    break 'files;
                }
                let from = i.saturating_sub(context);
                let to = (i + 1 + context).min(lines.len());
                matches.push(SearchMatch {
                    path: rel.clone(),
                    line: i + 1,
                    text: (*line).to_string(),
                    before: lines[from..i].iter().map(|s| s.to_string()).collect(),
                    after: lines[i + 1..to].iter().map(|s| s.to_string()).collect(),
                });
            }
        }
        Ok(VaultSearchOutput {
            query: input.query,
            total: matches.len(),
            matches,
            truncated,
        })
    }
}

/// `vault_query`'s input.
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VaultQueryInput {
    /// Only notes under this folder.
    #[serde(default)]
    pub folder: Option<String>,
    /// Only notes with this tag (in the frontmatter's `tags` or as `#tag` in the text), without '#'.
    #[serde(default)]
    pub tag: Option<String>,
    /// Only notes whose frontmatter has these values, e.g. {"status": "draft"}; a list property
    /// matches when it contains the value.
    #[serde(default, rename = "where")]
    pub filter: Option<Map<String, Json>>,
    /// Sort by "path" (default), "modified", "title" or a frontmatter property.
    #[serde(default)]
    pub sort: Option<String>,
    /// Sort in descending order.
    #[serde(default)]
    pub desc: Option<bool>,
    /// At most this many notes (default 50).
    #[serde(default)]
    pub limit: Option<u32>,
}

/// One note found by `vault_query`.
#[derive(Clone, Debug, Serialize)]
pub struct QueriedNote {
    /// The vault-relative path.
    pub path: String,
    /// The frontmatter's `title`, else the first heading, else the file name.
    pub title: String,
    /// Last modification, Unix milliseconds.
    pub modified: i64,
    /// Its tags, without '#'.
    pub tags: Vec<String>,
    /// Its frontmatter properties (empty when none or invalid).
    pub frontmatter: Map<String, Json>,
}

/// `vault_query`'s output.
#[derive(Clone, Debug, Serialize)]
pub struct VaultQueryOutput {
    /// The notes, sorted.
    pub notes: Vec<QueriedNote>,
    /// How many notes matched (more than `notes` holds when `limit` cut the list).
    pub total: usize,
}

/// Tags of a note: frontmatter `tags`/`tag` (a list, or text separated by commas or spaces)
/// and `#tags` in the text outside code.
pub fn note_tags(note: &Note) -> Vec<String> {
    let mut tags: Vec<String> = Vec::new();
    let mut add = |t: &str| {
        let t = t.trim().trim_start_matches('#');
        if !t.is_empty() && !tags.iter().any(|x| x.eq_ignore_ascii_case(t)) {
            tags.push(t.to_string());
        }
    };
    for key in ["tags", "tag"] {
        match note.get(key) {
            Some(Json::Array(items)) => items.iter().filter_map(Json::as_str).for_each(&mut add),
            Some(Json::String(s)) => s.split([',', ' ']).for_each(&mut add),
            _ => {}
        }
    }
    for (event, _) in pulldown_cmark::Parser::new(note.body()).into_offset_iter() {
        if let pulldown_cmark::Event::Text(text) = event {
            for word in text.split(|c: char| c.is_whitespace() || c == ',' || c == ';') {
                if let Some(tag) = word.strip_prefix('#') {
                    let tag = tag.trim_end_matches(['.', '!', '?', ':', ')']);
                    let valid = tag
                        .chars()
                        .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '/'));
                    // Obsidian needs at least one non-digit: "#2024" is not a tag.
                    if valid && tag.chars().any(|c| !c.is_ascii_digit()) {
                        add(tag);
                    }
                }
            }
        }
    }
    tags
}

fn matches_filter(fields: &Map<String, Json>, filter: &Map<String, Json>) -> bool {
    filter.iter().all(|(key, wanted)| match fields.get(key) {
        None => wanted.is_null(),
        Some(Json::Array(items)) if !wanted.is_array() => items.iter().any(|i| loose_eq(i, wanted)),
        Some(value) => loose_eq(value, wanted),
    })
}

/// Equality that forgives a model writing `"3"` for `3` or `"true"` for `true`.
fn loose_eq(a: &Json, b: &Json) -> bool {
    match (a, b) {
        (Json::String(x), Json::String(y)) => x.eq_ignore_ascii_case(y),
        (Json::String(s), other) | (other, Json::String(s)) => match other {
            Json::Bool(b) => s
                .trim()
                .eq_ignore_ascii_case(if *b { "true" } else { "false" }),
            Json::Number(n) => s.trim().parse::<f64>().ok() == n.as_f64(),
            Json::Null => s.trim() == "null",
            _ => false,
        },
        (Json::Number(x), Json::Number(y)) => x.as_f64() == y.as_f64(),
        _ => a == b,
    }
}

/// Find notes by folder, tag and frontmatter.
#[derive(Clone, Copy, Debug, Default)]
pub struct VaultQuery;

impl Op for VaultQuery {
    type Input = VaultQueryInput;
    type Output = VaultQueryOutput;
    const NAME: &'static str = "vault_query";
    const TITLE: &'static str = "Query notes";
    const DESCRIPTION: &'static str = "Find Markdown notes by folder, tag and frontmatter properties, sorted and limited; each comes with its title, tags and properties. \
Use it for questions like \"my draft notes tagged #garden, newest first\".\n\
Example: {\"tag\": \"garden\", \"where\": {\"status\": \"draft\"}, \"sort\": \"modified\", \"desc\": true, \"limit\": 10}";
    const EFFECT: Effect = Effect::Read;

    fn run(&self, ctx: &Ctx, input: VaultQueryInput) -> Result<VaultQueryOutput, OpError> {
        let start = folder(ctx.vault(), input.folder.as_deref())?;
        let wanted_tag = input
            .tag
            .as_deref()
            .map(|t| t.trim().trim_start_matches('#').to_string());
        let mut notes = Vec::new();
        for (rel, abs) in text_files(ctx.vault(), start.as_ref(), Some("md")) {
            if ctx.is_cancelled() {
                return Err(OpError::cancelled("the query"));
            }
            let Some(text) = read_text(&abs) else {
                continue;
            };
            let note = Note::parse(&text);
            let fields = note
                .frontmatter()
                .and_then(|f| f.fields().ok().cloned())
                .unwrap_or_default();
            if let Some(filter) = &input.filter
                && !matches_filter(&fields, filter)
            {
                continue;
            }
            let tags = note_tags(&note);
            if let Some(t) = &wanted_tag
                && !tags.iter().any(|x| {
                    x.eq_ignore_ascii_case(t)
                        || x.to_lowercase()
                            .starts_with(&format!("{}/", t.to_lowercase()))
                })
            {
                continue;
            }
            let title = fields
                .get("title")
                .and_then(Json::as_str)
                .map(str::to_string)
                .or_else(|| {
                    easel_vault::markdown::headings(note.body())
                        .into_iter()
                        .next()
                        .map(|h| h.text)
                })
                .unwrap_or_else(|| {
                    rel.rsplit('/')
                        .next()
                        .unwrap_or(&rel)
                        .trim_end_matches(".md")
                        .to_string()
                });
            let modified = std::fs::metadata(&abs)
                .ok()
                .and_then(|m| m.modified().ok())
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
            notes.push(QueriedNote {
                path: rel,
                title,
                modified,
                tags,
                frontmatter: fields,
            });
        }
        let sort = input.sort.as_deref().unwrap_or("path");
        notes.sort_by(|a, b| {
            let ord = match sort {
                "path" => a.path.cmp(&b.path),
                "modified" => a.modified.cmp(&b.modified),
                "title" => a.title.to_lowercase().cmp(&b.title.to_lowercase()),
                field => compare_json(a.frontmatter.get(field), b.frontmatter.get(field)),
            };
            ord.then_with(|| a.path.cmp(&b.path))
        });
        if input.desc.unwrap_or(false) {
            notes.reverse();
        }
        let total = notes.len();
        notes.truncate(input.limit.map_or(50, |l| l.max(1) as usize));
        Ok(VaultQueryOutput { notes, total })
    }
}

/// Orders property values: missing last, numbers by value, everything else as text.
fn compare_json(a: Option<&Json>, b: Option<&Json>) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    match (a, b) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Greater,
        (Some(_), None) => Ordering::Less,
        (Some(Json::Number(x)), Some(Json::Number(y))) => x
            .as_f64()
            .partial_cmp(&y.as_f64())
            .unwrap_or(Ordering::Equal),
        (Some(x), Some(y)) => {
            let s = |v: &Json| v.as_str().map_or_else(|| v.to_string(), str::to_string);
            s(x).cmp(&s(y))
        }
    }
}
