//! One operation per edit (`doc_replace_text`, `doc_redact_element`, …): `doc_apply` of a list
//! of one, for callers that make one change at a time.

use easel_ops::{Ctx, Effect, Op, OpError};
use schemars::JsonSchema;
use serde::Deserialize;

use super::apply::{DocApplied, OperationItem, apply_list};
use crate::edit::Edit;

fn one(ctx: &Ctx, path: &str, rev: Option<&str>, edit: Edit) -> Result<DocApplied, OpError> {
    apply_list(ctx, path, rev, &[OperationItem::of(None, &edit)])
}

macro_rules! edit_op {
    (
        $op:ident, $input:ident, $name:literal, $title:literal, $effect:expr,
        $description:expr,
        { $( $(#[$meta:meta])* $field:ident : $ty:ty ),* $(,)? },
        |$i:ident| $edit:expr
    ) => {
        #[doc = concat!("`", $name, "`'s input.")]
        #[derive(Clone, Debug, Deserialize, JsonSchema)]
        #[serde(deny_unknown_fields)]
        pub struct $input {
            /// Document path relative to the vault (.html, .htm or .md).
            pub path: String,
            /// The 'rev' from `doc_show`: nothing changes if the document changed since.
            #[serde(default)]
            pub rev: Option<String>,
            $( $(#[$meta])* pub $field: $ty, )*
        }

        #[doc = $title]
        #[derive(Clone, Copy, Debug, Default)]
        pub struct $op;

        impl Op for $op {
            type Input = $input;
            type Output = DocApplied;
            const NAME: &'static str = $name;
            const TITLE: &'static str = $title;
            const DESCRIPTION: &'static str = $description;
            const EFFECT: Effect = $effect;

            fn run(&self, ctx: &Ctx, $i: $input) -> Result<DocApplied, OpError> {
                let path = $i.path.clone();
                let rev = $i.rev.clone();
                one(ctx, &path, rev.as_deref(), $edit)
            }
        }
    };
}

edit_op!(
    DocReplaceText, DocReplaceTextInput, "doc_replace_text", "Replace text in one element",
    Effect::Write,
    "Replace one piece of text inside ONE element of a document; the rest of the file stays byte for byte. 'oldText' must occur in the element's text (copy it from `doc_show`); its first occurrence changes.\n\
Example: {\"path\": \"Lease.html\", \"elementId\": \"c1a2b3c4d\", \"oldText\": \"30 days\", \"newText\": \"60 days\"}",
    {
        /// The element's id from `doc_show`.
        #[serde(rename = "elementId")]
        element_id: String,
        /// Text that occurs in the element.
        #[serde(rename = "oldText")]
        old_text: String,
        /// Its replacement.
        #[serde(rename = "newText")]
        new_text: String,
    },
    |i| Edit::ReplaceText { element_id: i.element_id, old_text: i.old_text, new_text: i.new_text }
);

edit_op!(
    DocRedactElement, DocRedactElementInput, "doc_redact_element", "Redact one element",
    Effect::Destructive,
    "Black out ONE element for good: its text becomes █ characters and is removed from the file, also from links, titles, alt texts and comments anywhere in the document. `doc_finalize` later drops the copies kept for undo.\n\
Example: {\"path\": \"Lease.html\", \"elementId\": \"c1a2b3c4d\"}",
    {
        /// The element's id from `doc_show`.
        #[serde(rename = "elementId")]
        element_id: String,
    },
    |i| Edit::RedactElement { element_id: i.element_id }
);

edit_op!(
    DocAddHighlight, DocAddHighlightInput, "doc_add_highlight", "Highlight one element",
    Effect::Write,
    "Highlight ONE element of a document (<mark> in HTML, ==text== in Markdown).\n\
Example: {\"path\": \"Notes/Plan.md\", \"elementId\": \"b3\"}",
    {
        /// The element's id from `doc_show`.
        #[serde(rename = "elementId")]
        element_id: String,
    },
    |i| Edit::AddHighlight { element_id: i.element_id }
);

edit_op!(
    DocAddComment, DocAddCommentInput, "doc_add_comment", "Comment on one element",
    Effect::Write,
    "Attach a comment to ONE element of a document (a data-canon-comment attribute in HTML, an Obsidian %%comment%% in Markdown).\n\
Example: {\"path\": \"Lease.html\", \"elementId\": \"c1a2b3c4d\", \"comment\": \"Check this date\"}",
    {
        /// The element's id from `doc_show`.
        #[serde(rename = "elementId")]
        element_id: String,
        /// The comment.
        comment: String,
    },
    |i| Edit::AddComment { element_id: i.element_id, comment: i.comment }
);

edit_op!(
    DocDeleteElement, DocDeleteElementInput, "doc_delete_element", "Delete one element",
    Effect::Destructive,
    "Remove ONE element from a document.\n\
Example: {\"path\": \"Lease.html\", \"elementId\": \"c1a2b3c4d\"}",
    {
        /// The element's id from `doc_show`.
        #[serde(rename = "elementId")]
        element_id: String,
    },
    |i| Edit::DeleteElement { element_id: i.element_id }
);

edit_op!(
    DocFindAndReplaceAll, DocFindAndReplaceAllInput, "doc_find_and_replace_all",
    "Replace a text everywhere in a document", Effect::Destructive,
    "Replace every occurrence of a text in the document's elements (case-insensitive unless caseSensitive is true).\n\
Example: {\"path\": \"Lease.html\", \"find\": \"Acme Ltd\", \"replace\": \"Acme Limited\"}",
    {
        /// The text to find.
        find: String,
        /// Its replacement.
        replace: String,
        /// Match case exactly (default false).
        #[serde(rename = "caseSensitive", default)]
        case_sensitive: bool,
    },
    |i| Edit::FindAndReplaceAll { find: i.find, replace: i.replace, case_sensitive: i.case_sensitive }
);

edit_op!(
    DocRedactAllMatching, DocRedactAllMatchingInput, "doc_redact_all_matching",
    "Redact every match in a document", Effect::Destructive,
    "Redact every match of a plain text or a /regular expression/ in the document's elements, and remove it from links, titles and comments.\n\
Example: {\"path\": \"Lease.html\", \"pattern\": \"/\\\\b\\\\d{3}-\\\\d{4}\\\\b/\"}",
    {
        /// Plain text, or a regular expression between slashes.
        pattern: String,
    },
    |i| Edit::RedactAllMatching { pattern: i.pattern }
);
