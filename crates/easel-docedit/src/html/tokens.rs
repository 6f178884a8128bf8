//! The tokens of an HTML document with their byte positions, read with `lol_html`.
//!
//! `lol_html` is a spec-following streaming tokenizer: it knows where script, style and title
//! text ends, what a comment is and where each attribute's name and value sit. It does not build
//! a tree (an unclosed `<p>` or `<li>` stays "open" to it), so `tree.rs` does that from these
//! tokens. The rewriter's output is discarded: edits are byte splices of the original text.

use std::borrow::Cow;
use std::cell::RefCell;
use std::ops::Range;
use std::rc::Rc;

use lol_html::html_content::TextType;
use lol_html::{DocumentContentHandlers, ElementContentHandlers, HtmlRewriter, Selector, Settings};

use crate::error::DocError;

/// One attribute of a start tag.
#[derive(Clone, Debug)]
pub(crate) struct Attr {
    /// Lower-case name.
    pub name: String,
    /// The whole attribute (`name="value"`), quotes included.
    pub span: Range<usize>,
    /// The value's bytes without quotes, when it has one.
    pub value_span: Option<Range<usize>>,
    /// The value with entities decoded.
    pub value: String,
}

/// What a token is.
#[derive(Clone, Debug)]
pub(crate) enum Kind {
    Start {
        name: String,
        attrs: Vec<Attr>,
        /// Closed by its own syntax: a void element, or `/>` in SVG or MathML.
        closed: bool,
    },
    End {
        name: String,
    },
    Text {
        /// Entities count (ordinary text, title, textarea) rather than raw script or style.
        decoded: bool,
    },
    Comment,
}

/// One token and its bytes.
#[derive(Clone, Debug)]
pub(crate) struct Token {
    pub span: Range<usize>,
    pub kind: Kind,
}

/// The tokens of `text` in document order.
pub(crate) fn tokenize(text: &str) -> Result<Vec<Token>, DocError> {
    let tokens = Rc::new(RefCell::new(Vec::<Token>::new()));
    let selector: Selector = "*".parse().map_err(|e| DocError::Malformed {
        message: format!("internal selector: {e}"),
    })?;
    let on_element = {
        let tokens = Rc::clone(&tokens);
        move |el: &mut lol_html::html_content::Element<'_, '_>| {
            let name = el.tag_name();
            let span = el.source_location().bytes();
            let attrs = el
                .attributes()
                .iter()
                .filter_map(|a| attr(text, a, span.end))
                .collect();
            let foreign = el.namespace_uri() != "http://www.w3.org/1999/xhtml";
            let closed = !el.can_have_content() || (foreign && el.is_self_closing());
            tokens.borrow_mut().push(Token {
                span,
                kind: Kind::Start {
                    name,
                    attrs,
                    closed,
                },
            });
            let ends = Rc::clone(&tokens);
            if let Some(handlers) = el.end_tag_handlers() {
                handlers.push(Box::new(move |end| {
                    ends.borrow_mut().push(Token {
                        span: end.source_location().bytes(),
                        kind: Kind::End {
                            name: end.name().to_ascii_lowercase(),
                        },
                    });
                    Ok(())
                }));
            }
            Ok(())
        }
    };
    let on_text = {
        let tokens = Rc::clone(&tokens);
        move |t: &mut lol_html::html_content::TextChunk<'_>| {
            let span = t.source_location().bytes();
            if span.is_empty() {
                return Ok(());
            }
            let decoded = matches!(t.text_type(), TextType::Data | TextType::RCData);
            let mut all = tokens.borrow_mut();
            // A text node may arrive in chunks: join touching chunks into one token.
            if let Some(Token {
                span: last,
                kind: Kind::Text { decoded: d },
            }) = all.last_mut()
                && last.end == span.start
                && *d == decoded
            {
                last.end = span.end;
                return Ok(());
            }
            all.push(Token {
                span,
                kind: Kind::Text { decoded },
            });
            Ok(())
        }
    };
    let on_comment = {
        let tokens = Rc::clone(&tokens);
        move |c: &mut lol_html::html_content::Comment<'_>| {
            tokens.borrow_mut().push(Token {
                span: c.source_location().bytes(),
                kind: Kind::Comment,
            });
            Ok(())
        }
    };
    let settings = Settings::new()
        .with_strict(false)
        .append_element_content_handler((
            Cow::Owned(selector),
            ElementContentHandlers::default().element(on_element),
        ))
        .append_document_content_handler(
            DocumentContentHandlers::default()
                .text(on_text)
                .comments(on_comment),
        );
    let mut rewriter = HtmlRewriter::new(settings, |_: &[u8]| {});
    let result = rewriter
        .write(text.as_bytes())
        .and_then(|()| rewriter.end());
    result.map_err(|e| DocError::Malformed {
        message: format!("the HTML tokenizer stopped: {e}"),
    })?;
    let mut tokens = Rc::try_unwrap(tokens)
        .map(RefCell::into_inner)
        .map_err(|_| crate::splice::internal("tokens still borrowed"))?;
    tokens.sort_by_key(|t| t.span.start);
    // An end tag can be reported twice when several elements close on it.
    tokens.dedup_by(|a, b| a.span == b.span && !a.span.is_empty());
    tokens.retain(|t| t.span.end <= text.len() && text.is_char_boundary(t.span.start));
    Ok(tokens)
}

fn attr(text: &str, a: &lol_html::html_content::Attribute<'_>, tag_end: usize) -> Option<Attr> {
    let name_span = a.name_source_location()?.bytes();
    let value_span = a.value_source_location().map(|l| l.bytes());
    let end = match &value_span {
        None => name_span.end,
        Some(v) => match text.as_bytes().get(v.end) {
            Some(b'"' | b'\'') => v.end + 1,
            _ => v.end,
        },
    };
    let raw = value_span.as_ref().and_then(|v| text.get(v.clone()));
    Some(Attr {
        name: a.name(),
        span: name_span.start..end.min(tag_end),
        value: raw
            .map(|r| htmlize::unescape_attribute(r).into_owned())
            .unwrap_or_default(),
        value_span,
    })
}
