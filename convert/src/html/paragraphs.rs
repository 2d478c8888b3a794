//! A paragraph gathered from the walk: its pieces made words and fields, its tags found.

use serde_json::{Value, json};
use signet_source::tags;

use super::*;
use crate::fields::{Written, short};

impl Walker {
    /// Ends the paragraph (or heading) being gathered: its tags found and made fields.
    pub(super) fn flush(&mut self, flow: &mut Flow) {
        let heading = flow.heading.take();
        let mut pieces = std::mem::take(&mut flow.pieces);
        // Leading and trailing white space of a paragraph is not shown.
        while matches!(pieces.last(), Some(Piece::Break)) {
            pieces.pop();
        }
        if let Some(Piece::Text(t, _)) = pieces.first_mut() {
            *t = t.trim_start().to_string();
        }
        if let Some(Piece::Text(t, _)) = pieces.last_mut() {
            *t = t.trim_end().to_string();
        }
        pieces.retain(|p| !matches!(p, Piece::Text(t, _) if t.is_empty()));
        if pieces.is_empty() {
            return;
        }
        self.blocks_seen += 1;
        let content = self.inline(pieces);
        let mut node = match heading {
            Some(level) => {
                json!({"type": "heading", "attrs": {"level": level}, "content": content})
            }
            None => json!({"type": "paragraph", "content": content}),
        };
        if let Some(a) = flow.align {
            node["attrs"]["textAlign"] = json!(a);
        }
        flow.blocks.push(node);
    }

    /// A paragraph's pieces as inline nodes, each tag cut out of its text and made a field.
    pub(super) fn inline(&mut self, pieces: Vec<Piece>) -> Vec<Value> {
        let mut whole = String::new();
        let mut starts = Vec::with_capacity(pieces.len());
        for p in &pieces {
            starts.push(whole.len());
            match p {
                Piece::Text(t, _) => whole.push_str(t),
                Piece::Break => whole.push('\n'),
            }
        }
        let found = tags::find(&whole);
        let mut out = Vec::new();
        let mut next_tag = found.iter().peekable();
        let mut at = 0; // bytes of `whole` already written
        for (i, p) in pieces.iter().enumerate() {
            let start = starts[i];
            match p {
                Piece::Break => {
                    if start >= at {
                        out.push(json!({"type": "hardBreak"}));
                        at = start + 1;
                    }
                }
                Piece::Text(t, m) => {
                    let end = start + t.len();
                    while at < end {
                        match next_tag.next_if(|f| f.start < end) {
                            Some(f) => {
                                if f.start > at {
                                    push_text(&mut out, &whole[at..f.start], m);
                                }
                                out.push(self.field(f, &whole));
                                at = f.end;
                            }
                            None => {
                                push_text(&mut out, &whole[at.max(start)..end], m);
                                at = end;
                            }
                        }
                    }
                }
            }
        }
        out
    }

    pub(super) fn field(&mut self, f: &tags::Found, whole: &str) -> Value {
        let text = whole[f.start..f.end].to_string();
        let place = format!("paragraph {}", self.blocks_seen);
        match &f.tag {
            Ok(_) if self.tags.len() >= crate::fields::MAX_TAGS => {
                if self.error.is_none() {
                    self.error = Some(HtmlError(format!(
                        "the page has more than {} text tags; a template takes at most that many",
                        crate::fields::MAX_TAGS
                    )));
                }
                json!({"type": "text", "text": ""})
            }
            Ok(tag) => {
                let n = self.tags.len();
                self.tags.push(Written {
                    tag: tag.clone(),
                    place,
                    text,
                });
                json!({"type": "fieldTag", "attrs": {"tag": n}})
            }
            Err(why) => {
                if self.error.is_none() {
                    self.error = Some(HtmlError(format!(
                        "the text tag {} in {place} cannot be read: {why}",
                        short(&text)
                    )));
                }
                json!({"type": "text", "text": text})
            }
        }
    }

    /// Tags inside preformatted text are a mistake worth stopping for: they would be printed.
    pub(super) fn tags_in_code(&mut self, text: &str) {
        if let Some(f) = tags::find(text).first()
            && self.error.is_none()
        {
            self.error = Some(HtmlError(format!(
                "the text tag {} in paragraph {} is inside preformatted text (<pre>); \
                 write it in a paragraph",
                short(&text[f.start..f.end]),
                self.blocks_seen
            )));
        }
    }
}
