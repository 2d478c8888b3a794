//! A file document (a template made from a PDF, Office file or picture): its stored file,
//! its pages' sizes, its fields placed on them, and the runs of text each page shows.

use serde_json::Value;

use super::Parser;
use crate::model::*;

impl Parser {
    /// `file`: `{"blob", "pages": [[w, h]...], "fields": [fieldTag attributes with "page", "x",
    /// "y", "width", "height"]}`. Only templates made from files write it.
    pub(super) fn file(&mut self, path: &str, v: &Value) -> Option<FileDoc> {
        let blob = v.get("blob").and_then(Value::as_str);
        let Some(blob) = blob.filter(|b| !b.is_empty() && b.len() <= 300) else {
            self.err(&format!("{path}.blob"), "must name the file");
            return None;
        };
        let pages = self.file_pages(path, v);
        let fields = self.file_fields(path, v, &pages);
        let text = self.file_text(path, v);
        Some(FileDoc {
            blob: blob.to_string(),
            pages,
            fields,
            text,
            data: None,
        })
    }

    /// Each page's width and height in points.
    fn file_pages(&mut self, path: &str, v: &Value) -> Vec<(f64, f64)> {
        let mut pages = Vec::new();
        for (i, p) in v
            .get("pages")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            match (
                p.get(0).and_then(Value::as_f64),
                p.get(1).and_then(Value::as_f64),
            ) {
                (Some(w), Some(h))
                    if (1.0..=14_400.0).contains(&w) && (1.0..=14_400.0).contains(&h) =>
                {
                    pages.push((w, h))
                }
                _ => self.err(
                    &format!("{path}.pages[{i}]"),
                    "must be [width, height] in points",
                ),
            }
        }
        if pages.is_empty() {
            self.err(&format!("{path}.pages"), "must list the file's pages");
        }
        pages
    }

    /// The fields, each inside its page.
    fn file_fields(&mut self, path: &str, v: &Value, pages: &[(f64, f64)]) -> Vec<PlacedField> {
        let mut fields = Vec::new();
        for (i, f) in v
            .get("fields")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            let fpath = format!("{path}.fields[{i}]");
            if !self.count_node(&fpath) {
                break;
            }
            let Some(obj) = f.as_object() else {
                self.err(&fpath, "must be an object");
                continue;
            };
            let num = |k: &str| obj.get(k).and_then(Value::as_f64);
            let page = obj.get("page").and_then(Value::as_u64).unwrap_or(0) as usize;
            let (Some(x), Some(y), Some(w), Some(h)) =
                (num("x"), num("y"), num("width"), num("height"))
            else {
                self.err(&fpath, "needs page, x, y, width and height");
                continue;
            };
            let Some(&(pw, ph)) = page.checked_sub(1).and_then(|p| pages.get(p)) else {
                self.err(&format!("{fpath}.page"), "is not a page of the file");
                continue;
            };
            if x < 0.0 || y < 0.0 || w <= 0.0 || h <= 0.0 || x + w > pw + 0.5 || y + h > ph + 0.5 {
                self.err(&fpath, "is not inside its page");
                continue;
            }
            if let Some(field) = self.field(&fpath, Some(obj)) {
                fields.push(PlacedField {
                    field,
                    page: page as u32,
                    x,
                    y,
                    width: w,
                    height: h,
                });
            }
        }
        fields
    }

    /// The runs of text each page shows, as the file's reader found them.
    fn file_text(&mut self, path: &str, v: &Value) -> Vec<Vec<FileRun>> {
        let mut text = Vec::new();
        for (i, runs) in v
            .get("text")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            let mut page = Vec::new();
            for (k, r) in runs.as_array().into_iter().flatten().enumerate() {
                let rpath = format!("{path}.text[{i}][{k}]");
                if !self.count_node(&rpath) {
                    break;
                }
                let num = |key: &str| r.get(key).and_then(Value::as_f64).filter(|n| n.is_finite());
                match (
                    num("x"),
                    num("y"),
                    num("width"),
                    num("height"),
                    num("size"),
                    r.get("text").and_then(Value::as_str),
                ) {
                    (Some(x), Some(y), Some(width), Some(height), Some(size), Some(t))
                        if t.len() <= 10_000 =>
                    {
                        page.push(FileRun {
                            x,
                            y,
                            width,
                            height,
                            size,
                            text: t.to_string(),
                        })
                    }
                    _ => self.err(&rpath, "must be a run: x, y, width, height, size and text"),
                }
            }
            text.push(page);
        }
        text
    }
}
