//! The blocks of a page that hold other blocks or words of their own: lists, code, pictures
//! and tables.

use ego_tree::NodeRef;
use scraper::Node;
use serde_json::{Map, Value, json};

use super::*;

impl Walker {
    /// A list: each item's words a list item, words between items an item of their own.
    pub(super) fn list(
        &mut self,
        node: NodeRef<'_, Node>,
        e: &scraper::node::Element,
        flow: &mut Flow,
        m: &Marks,
        nest: usize,
        depth: usize,
    ) {
        let mut items = Vec::new();
        for child in node.children() {
            let mut item = Flow::new();
            match child.value().as_element().map(|e| e.name()) {
                Some("li") => self.children(child, &mut item, m.clone(), nest + 1, depth + 1),
                _ => self.node(child, &mut item, m, nest + 1, depth + 1),
            }
            self.flush(&mut item);
            if !item.blocks.is_empty() {
                items.push(json!({"type": "listItem", "content": item.blocks}));
            }
        }
        if items.is_empty() {
            return;
        }
        let list = if e.name() == "ol" {
            let start = e
                .attr("start")
                .and_then(|s| s.trim().parse::<u32>().ok())
                .filter(|s| *s <= 100_000)
                .unwrap_or(1);
            json!({"type": "orderedList", "attrs": {"start": start}, "content": items})
        } else {
            json!({"type": "bulletList", "content": items})
        };
        flow.blocks.push(list);
    }

    /// Preformatted text as a code block; a tag inside it is refused (it would be printed).
    pub(super) fn code(&mut self, node: NodeRef<'_, Node>, flow: &mut Flow, depth: usize) {
        let mut text = String::new();
        raw_text(node, &mut text, depth);
        let text = text
            .strip_prefix('\n')
            .unwrap_or(&text)
            .trim_end()
            .to_string();
        if !text.is_empty() {
            self.blocks_seen += 1;
            self.tags_in_code(&text);
            flow.blocks
                .push(json!({"type": "codeBlock", "content": [{"type": "text", "text": text}]}));
        }
    }

    pub(super) fn image(&mut self, e: &scraper::node::Element, flow: &mut Flow) {
        let src = e.attr("src").unwrap_or("").trim();
        if !src
            .get(..5)
            .is_some_and(|p| p.eq_ignore_ascii_case("data:"))
        {
            self.warn("pictures that are not data: addresses removed (nothing is fetched)");
            return;
        }
        let checked = signet_source::parse::image::data_url(src).and_then(|bytes| {
            signet_source::parse::image::image_header(&bytes).map(|h| (bytes, h))
        });
        let (bytes, (format, px_w, _)) = match checked {
            Ok(c) => c,
            Err(why) => {
                self.warn(format!("a picture removed: it {why}"));
                return;
            }
        };
        // Its `width` attribute in CSS pixels, else its own pixels; points are 3/4 of each.
        let width = e
            .attr("width")
            .and_then(|w| w.trim().trim_end_matches("px").parse::<f64>().ok())
            .filter(|w| *w >= 1.0)
            .unwrap_or(px_w as f64)
            * 0.75;
        let mut attrs = Map::new();
        attrs.insert("src".into(), json!(data_address(format.mime(), &bytes)));
        attrs.insert(
            "width".into(),
            json!((width.clamp(1.0, 2000.0) * 100.0).round() / 100.0),
        );
        if let Some(alt) = e.attr("alt").map(str::trim).filter(|a| !a.is_empty()) {
            attrs.insert(
                "alt".into(),
                json!(alt.chars().take(500).collect::<String>()),
            );
        }
        self.flush(flow);
        flow.blocks.push(json!({"type": "image", "attrs": attrs}));
    }

    pub(super) fn table(
        &mut self,
        node: NodeRef<'_, Node>,
        flow: &mut Flow,
        marks: &Marks,
        nest: usize,
        depth: usize,
    ) {
        let mut rows: Vec<Value> = Vec::new();
        let mut header = false;
        let mut caption = Flow::new();
        let mut each_row = |w: &mut Walker, tr: NodeRef<'_, Node>, in_head: bool| {
            let mut cells = Vec::new();
            let mut all_th = true;
            for cell in tr.children() {
                let Some(ce) = cell.value().as_element() else {
                    continue;
                };
                let kind = ce.name();
                if kind != "td" && kind != "th" {
                    continue;
                }
                all_th &= kind == "th";
                let mut inner = Flow::new();
                inner.align = align_of(ce);
                w.children(cell, &mut inner, marks.clone(), nest + 1, depth + 2);
                w.flush(&mut inner);
                if inner.blocks.is_empty() {
                    inner.blocks.push(json!({"type": "paragraph"}));
                }
                let span = |a: &str, max: u64| {
                    ce.attr(a)
                        .and_then(|s| s.trim().parse::<u64>().ok())
                        .map(|n| n.clamp(1, max))
                        .unwrap_or(1)
                };
                let mut cell_json = json!({"type": "tableCell", "content": inner.blocks});
                let (cs, rs) = (span("colspan", 30), span("rowspan", 1000));
                if cs > 1 || rs > 1 {
                    cell_json["attrs"] = json!({"colspan": cs, "rowspan": rs});
                }
                cells.push(cell_json);
            }
            if !cells.is_empty() {
                if rows.is_empty() && (in_head || all_th) {
                    header = true;
                }
                rows.push(json!({"type": "tableRow", "content": cells}));
            }
        };
        for child in node.children() {
            match child.value().as_element().map(|e| e.name()) {
                Some("tr") => each_row(self, child, false),
                Some(g @ ("thead" | "tbody" | "tfoot")) => {
                    for tr in child.children() {
                        if tr.value().as_element().is_some_and(|e| e.name() == "tr") {
                            each_row(self, tr, g == "thead");
                        }
                    }
                }
                Some("caption") => {
                    self.children(child, &mut caption, marks.clone(), nest, depth + 1)
                }
                _ => {}
            }
        }
        self.flush(&mut caption);
        flow.blocks.extend(caption.blocks);
        if rows.is_empty() {
            return;
        }
        let mut t = json!({"type": "table", "content": rows});
        if header {
            // The first row's cells are headers.
            if let Some(cells) = t["content"][0]["content"].as_array_mut() {
                for c in cells {
                    c["type"] = json!("tableHeader");
                }
            }
        }
        flow.blocks.push(t);
    }
}
