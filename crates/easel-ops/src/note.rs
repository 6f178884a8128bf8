//! The note operations: `note_read`, `note_write`, `note_append`, `note_edit`.

use easel_vault::{Expect, Note, Rev, VaultPath};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as Json};

use crate::ctx::Ctx;
use crate::effect::Effect;
use crate::error::OpError;
use crate::op::Op;

/// Resolve a note path, adding `.md` when the name has no extension.
pub fn note_path(ctx: &Ctx, path: &str, for_write: bool) -> Result<VaultPath, OpError> {
    let trimmed = path.trim();
    if trimmed.is_empty() {
        return Err(OpError::invalid(
            "the note path is empty",
            "give a path relative to the vault, e.g. \"Notes/Idea.md\"; `vault_list` lists the files",
        ));
    }
    let name = trimmed.rsplit('/').next().unwrap_or(trimmed);
    let with_ext = if name.contains('.') && !name.ends_with('.') {
        trimmed.to_string()
    } else {
        format!("{trimmed}.md")
    };
    let vault = ctx.vault();
    Ok(if for_write {
        vault.resolve_for_write(&with_ext)?
    } else {
        vault.resolve(&with_ext)?
    })
}

fn parse_rev(rev: Option<&str>) -> Result<Option<Rev>, OpError> {
    rev.map(|r| {
        r.trim().parse::<Rev>().map_err(|e| {
            OpError::invalid(
                format!("'rev' {r:?} is not a revision: {e}"),
                "use the 16 hex digits of 'rev' returned by `note_read`, or leave 'rev' out",
            )
        })
    })
    .transpose()
}

fn text_of(p: &VaultPath, bytes: Vec<u8>) -> Result<String, OpError> {
    String::from_utf8(bytes).map_err(|_| {
        OpError::invalid(
            format!(
                "{} is not UTF-8 text, so it cannot be read as a note",
                p.as_str()
            ),
            "point at a Markdown or other text file; `vault_list` lists the files",
        )
    })
}

fn missing(p: &VaultPath) -> OpError {
    OpError::not_found(
        format!("note not found: {}", p.as_str()),
        "check the path with `vault_list` or `vault_search`, or create the note with `note_write`",
    )
}

/// `note_read`'s input.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoteReadInput {
    /// Note path relative to the vault, e.g. "Projects/Plan.md" ('.md' may be left out).
    pub path: String,
    /// Only this part: "#Heading" (the section under a heading, "A#B" for B inside A) or
    /// "#^block" (an Obsidian block id).
    #[serde(default)]
    pub section: Option<String>,
}

/// `note_read`'s output.
#[derive(Clone, Debug, Serialize)]
pub struct NoteReadOutput {
    /// The vault-relative path.
    pub path: String,
    /// Pass it back as `rev` to `note_write` or `note_edit`.
    pub rev: String,
    /// The frontmatter properties; `null` when there are none or they are not valid YAML.
    pub frontmatter: Option<Map<String, Json>>,
    /// Why the frontmatter could not be read, when it could not.
    #[serde(rename = "frontmatterError", skip_serializing_if = "Option::is_none")]
    pub frontmatter_error: Option<String>,
    /// The body (without frontmatter), or only the section asked for.
    pub body: String,
    /// The section asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub section: Option<String>,
    /// The note's headings, "#" per level, so that a section can be asked for next.
    pub headings: Vec<String>,
}

/// Read a note.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoteRead;

impl Op for NoteRead {
    type Input = NoteReadInput;
    type Output = NoteReadOutput;
    const NAME: &'static str = "note_read";
    const TITLE: &'static str = "Read a note";
    const DESCRIPTION: &'static str = "Read a Markdown note: its frontmatter properties, its body and its 'rev', or only one section (\"#Heading\") or block (\"#^id\"). \
Use it before note_edit or note_write, and pass the 'rev' back so you never overwrite an edit made meanwhile.\n\
Example: {\"path\": \"Projects/Plan.md\", \"section\": \"#Budget\"}";
    const EFFECT: Effect = Effect::Read;

    fn run(&self, ctx: &Ctx, input: NoteReadInput) -> Result<NoteReadOutput, OpError> {
        let p = note_path(ctx, &input.path, false)?;
        let (bytes, rev) = ctx.vault().read(&p).map_err(|e| match e {
            easel_vault::VaultError::NotFound { .. } => missing(&p),
            other => other.into(),
        })?;
        let note = Note::parse(&text_of(&p, bytes)?);
        let (frontmatter, frontmatter_error) = match note.frontmatter().map(|f| f.fields()) {
            None => (None, None),
            Some(Ok(fields)) => (Some(fields.clone()), None),
            Some(Err(e)) => (None, Some(e.to_string())),
        };
        let headings: Vec<String> = easel_vault::markdown::headings(note.body())
            .into_iter()
            .map(|h| format!("{} {}", "#".repeat(usize::from(h.level)), h.text))
            .collect();
        let body = match &input.section {
            None => note.body().to_string(),
            Some(section) => {
                let part = match section.trim().trim_start_matches('#').strip_prefix('^') {
                    Some(block) => note.block(block),
                    None => note.section(section),
                };
                part.map(str::to_string).ok_or_else(|| {
                    OpError::not_found(
                        format!("{} has no section {section:?}", p.as_str()),
                        if headings.is_empty() {
                            "the note has no headings; read it without 'section'".to_string()
                        } else {
                            format!("its headings are: {}", headings.join(", "))
                        },
                    )
                })?
            }
        };
        Ok(NoteReadOutput {
            path: p.as_str().to_string(),
            rev: rev.to_string(),
            frontmatter,
            frontmatter_error,
            body,
            section: input.section,
            headings,
        })
    }
}

/// What a note write returns.
#[derive(Clone, Debug, Serialize)]
pub struct NoteWritten {
    /// The vault-relative path.
    pub path: String,
    /// The new revision.
    pub rev: Option<String>,
    /// Whether the note was created.
    pub created: bool,
    /// Its size in bytes now.
    pub bytes: usize,
}

fn written(p: &VaultPath, w: &easel_vault::Written, bytes: usize) -> NoteWritten {
    NoteWritten {
        path: p.as_str().to_string(),
        rev: w.rev_after.map(|r| r.to_string()),
        created: w.rev_before.is_none(),
        bytes,
    }
}

/// `note_write`'s input.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoteWriteInput {
    /// Note path relative to the vault, e.g. "Projects/Plan.md" ('.md' may be left out).
    pub path: String,
    /// The whole text of the note, frontmatter included.
    pub content: String,
    /// The 'rev' from your last read: the write fails with a conflict if the note changed since.
    /// Leave it out to create a note or to replace one regardless.
    #[serde(default)]
    pub rev: Option<String>,
    /// Only create: fail if the note exists.
    #[serde(default)]
    pub create_only: Option<bool>,
}

/// Create or replace a note.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoteWrite;

impl Op for NoteWrite {
    type Input = NoteWriteInput;
    type Output = NoteWritten;
    const NAME: &'static str = "note_write";
    const TITLE: &'static str = "Write a note";
    const DESCRIPTION: &'static str = "Create a note, or replace a whole note's text. To change a few words use note_edit, to add at the end note_append. \
When replacing, pass the 'rev' from note_read so an edit made meanwhile is not overwritten.\n\
Example: {\"path\": \"Ideas/Garden.md\", \"content\": \"# Garden\\n\\nPlant tomatoes in May.\\n\", \"create_only\": true}";
    const EFFECT: Effect = Effect::Destructive;
    const IDEMPOTENT: bool = true;

    fn run(&self, ctx: &Ctx, input: NoteWriteInput) -> Result<NoteWritten, OpError> {
        let p = note_path(ctx, &input.path, true)?;
        let expect = match (parse_rev(input.rev.as_deref())?, input.create_only) {
            (Some(rev), _) => Expect::Rev(rev),
            (None, Some(true)) => Expect::Absent,
            (None, _) => Expect::Any,
        };
        let summary = format!("write {}", p.as_str());
        let w = ctx.vault().write(
            &p,
            input.content.as_bytes(),
            expect,
            &ctx.change(Self::NAME, summary),
        )?;
        Ok(written(&p, &w, input.content.len()))
    }
}

/// `note_append`'s input.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoteAppendInput {
    /// Note path relative to the vault ('.md' may be left out). Created when missing.
    pub path: String,
    /// The Markdown to add; it starts on a new line.
    pub text: String,
    /// Add at the end of this section ("#Heading") instead of the end of the note.
    #[serde(default)]
    pub section: Option<String>,
}

/// Add text at the end of a note or of one of its sections.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoteAppend;

impl Op for NoteAppend {
    type Input = NoteAppendInput;
    type Output = NoteWritten;
    const NAME: &'static str = "note_append";
    const TITLE: &'static str = "Append to a note";
    const DESCRIPTION: &'static str = "Add text at the end of a note (created if missing), or at the end of one section. Nothing already there changes, so no 'rev' is needed.\n\
Example: {\"path\": \"Journal/2026-11-25.md\", \"text\": \"- Met Ana about the budget\", \"section\": \"#Log\"}";
    const EFFECT: Effect = Effect::Write;

    fn run(&self, ctx: &Ctx, input: NoteAppendInput) -> Result<NoteWritten, OpError> {
        let p = note_path(ctx, &input.path, true)?;
        let summary = format!("append to {}", p.as_str());
        let (w, len) = ctx.vault().update(
            &p,
            Expect::Any,
            &ctx.change(Self::NAME, summary),
            |old| -> Result<(Vec<u8>, usize), OpError> {
                let old = match old {
                    Some(bytes) => text_of(&p, bytes.to_vec())?,
                    None => String::new(),
                };
                let at = match &input.section {
                    None => old.len(),
                    Some(section) => {
                        let note = Note::parse(&old);
                        let body_start = old.len() - note.body().len();
                        let (_, end) = easel_vault::markdown::section_range(note.body(), section)
                            .ok_or_else(|| {
                                OpError::not_found(
                                    format!("{} has no section {section:?}", p.as_str()),
                                    "read the note with `note_read` to see its headings, or leave 'section' out",
                                )
                            })?;
                        body_start + end
                    }
                };
                let (before, after) = old.split_at(at);
                let mut new = String::with_capacity(old.len() + input.text.len() + 2);
                new.push_str(before);
                if !before.is_empty() && !before.ends_with('\n') {
                    new.push('\n');
                }
                new.push_str(&input.text);
                if !input.text.ends_with('\n') {
                    new.push('\n');
                }
                if !after.is_empty() && !after.starts_with('\n') && input.section.is_some() {
                    new.push('\n');
                }
                new.push_str(after);
                let len = new.len();
                Ok((new.into_bytes(), len))
            },
        )?;
        Ok(written(&p, &w, len))
    }
}

/// `note_edit`'s input.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoteEditInput {
    /// Note path relative to the vault ('.md' may be left out).
    pub path: String,
    /// The exact text to replace; it must occur exactly once in the note.
    pub old_text: String,
    /// What to put in its place.
    pub new_text: String,
    /// The 'rev' from your last read: the edit fails with a conflict if the note changed since.
    #[serde(default)]
    pub rev: Option<String>,
}

/// What `note_edit` returns.
#[derive(Clone, Debug, Serialize)]
pub struct NoteEdited {
    /// The vault-relative path.
    pub path: String,
    /// The new revision.
    pub rev: Option<String>,
    /// The line (from 1) where the replaced text started.
    pub line: usize,
}

/// Replace one occurrence of a text in a note.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoteEdit;

impl Op for NoteEdit {
    type Input = NoteEditInput;
    type Output = NoteEdited;
    const NAME: &'static str = "note_edit";
    const TITLE: &'static str = "Edit a note";
    const DESCRIPTION: &'static str = "Replace one exact piece of text in a note with another; the rest of the note stays byte for byte. \
'old_text' must occur exactly once: copy it from note_read, with enough words around it to be unique.\n\
Example: {\"path\": \"Plan.md\", \"old_text\": \"due in May\", \"new_text\": \"due in June\"}";
    const EFFECT: Effect = Effect::Destructive;

    fn run(&self, ctx: &Ctx, input: NoteEditInput) -> Result<NoteEdited, OpError> {
        if input.old_text.is_empty() {
            return Err(OpError::invalid(
                "'old_text' is empty",
                "copy the exact text to replace from `note_read`; to add text use `note_append`",
            ));
        }
        let p = note_path(ctx, &input.path, true)?;
        let expect = match parse_rev(input.rev.as_deref())? {
            Some(rev) => Expect::Rev(rev),
            None => Expect::Present,
        };
        let summary = format!("edit {}", p.as_str());
        let (w, line) = ctx
            .vault()
            .update(
                &p,
                expect,
                &ctx.change(Self::NAME, summary),
                |old| -> Result<(Vec<u8>, usize), OpError> {
                    let old = text_of(&p, old.unwrap_or_default().to_vec())?;
                    let mut found = old.match_indices(&input.old_text);
                    let Some((at, _)) = found.next() else {
                        return Err(OpError::invalid(
                            format!("{}: the text to replace does not occur in the note", p.as_str()),
                            "read the note with `note_read` and copy 'old_text' exactly, spaces and line breaks included",
                        ));
                    };
                    let more = found.count();
                    if more > 0 {
                        return Err(OpError::invalid(
                            format!(
                                "{}: the text to replace occurs {} times",
                                p.as_str(),
                                more + 1
                            ),
                            "include more of the surrounding text in 'old_text' so that it occurs only once",
                        ));
                    }
                    let line = old[..at].matches('\n').count() + 1;
                    let new = format!(
                        "{}{}{}",
                        &old[..at],
                        input.new_text,
                        &old[at + input.old_text.len()..]
                    );
                    Ok((new.into_bytes(), line))
                },
            )
            .map_err(|e| match e {
                e if e.kind == easel_core::ErrorKind::NotFound => missing(&p),
                e => e,
            })?;
        Ok(NoteEdited {
            path: p.as_str().to_string(),
            rev: w.rev_after.map(|r| r.to_string()),
            line,
        })
    }
}
