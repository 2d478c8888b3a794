//! Read-only walks over a `Doc`: the signer's view (sender-only sections removed), every field
//! in reading order (signature blocks expanded into their fields), and every merge chip.

use crate::model::*;

/// The document as signers see, sign and receive it: each sender-only heading and everything
/// under it up to the next heading of the same or a higher level (a smaller or equal level
/// number) are removed, at every depth.
pub fn signer_view(doc: &Doc) -> Doc {
    Doc {
        content: without_sender_sections(&doc.content),
        file: doc.file.clone(),
    }
}

fn without_sender_sections(blocks: &[Block]) -> Vec<Block> {
    let mut out = Vec::new();
    let mut hiding_below: Option<u8> = None;
    for b in blocks {
        if let Block::Heading {
            level, sender_only, ..
        } = b
        {
            if let Some(h) = hiding_below
                && *level <= h
            {
                hiding_below = None;
            }
            if hiding_below.is_none() && *sender_only {
                hiding_below = Some(*level);
            }
        }
        if hiding_below.is_some() {
            continue;
        }
        out.push(match b {
            Block::BulletList(items) => Block::BulletList(items.iter().map(item).collect()),
            Block::OrderedList { start, items } => Block::OrderedList {
                start: *start,
                items: items.iter().map(item).collect(),
            },
            Block::Table(t) => Block::Table(Table {
                header: t.header,
                rows: t
                    .rows
                    .iter()
                    .map(|r| {
                        r.iter()
                            .map(|c| Cell {
                                content: without_sender_sections(&c.content),
                                colspan: c.colspan,
                                rowspan: c.rowspan,
                            })
                            .collect()
                    })
                    .collect(),
            }),
            Block::Quote(blocks) => Block::Quote(without_sender_sections(blocks)),
            Block::Aligned { align, content } => Block::Aligned {
                align: *align,
                content: without_sender_sections(content),
            },
            other => other.clone(),
        });
    }
    out
}

fn item(i: &ListItem) -> ListItem {
    ListItem {
        content: without_sender_sections(&i.content),
    }
}

/// Calls `f` for every block, depth first, in reading order.
pub fn each_block<'d>(blocks: &'d [Block], f: &mut impl FnMut(&'d Block)) {
    for b in blocks {
        f(b);
        match b {
            Block::BulletList(items) | Block::OrderedList { items, .. } => {
                for i in items {
                    each_block(&i.content, f);
                }
            }
            Block::Table(t) => {
                for c in t.rows.iter().flatten() {
                    each_block(&c.content, f);
                }
            }
            Block::Quote(blocks)
            | Block::Aligned {
                content: blocks, ..
            } => each_block(blocks, f),
            _ => {}
        }
    }
}

/// Calls `f` for every inline node, in reading order.
pub fn each_inline<'d>(doc: &'d Doc, f: &mut impl FnMut(&'d Inline)) {
    each_block(&doc.content, &mut |b| {
        if let Block::Heading { content, .. } | Block::Paragraph(content) = b {
            content.iter().for_each(&mut *f);
        }
    });
}

/// The fields a signature block stands for: the signature itself and the date it was signed.
/// `path` is the block's place in the request.
pub fn signature_block_fields(role: &str, nth: usize, path: &str) -> [Field; 2] {
    let suffix = if nth > 1 {
        format!(" {nth}")
    } else {
        String::new()
    };
    let base = Field {
        name: String::new(),
        ty: FieldType::Signature,
        role: role.to_string(),
        required: true,
        autofill: None,
        editable: true,
        placeholder: None,
        tooltip: None,
        locked: false,
        options: vec![],
        default: None,
        payment: None,
        width: None,
        height: None,
        path: path.to_string(),
    };
    [
        Field {
            name: format!("{role} signature{suffix}"),
            ..base.clone()
        },
        Field {
            name: format!("{role} date signed{suffix}"),
            ty: FieldType::Date,
            autofill: Some(Autofill::DateSigned),
            editable: false,
            ..base
        },
    ]
}

/// Every field of `doc` in reading order, signature blocks expanded.
pub fn fields(doc: &Doc) -> Vec<Field> {
    let mut out: Vec<Field> = doc
        .file
        .iter()
        .flat_map(|f| f.fields.iter().map(|p| p.field.clone()))
        .collect();
    let mut blocks_per_role = std::collections::BTreeMap::<String, usize>::new();
    each_block(&doc.content, &mut |b| match b {
        Block::Heading { content, .. } | Block::Paragraph(content) => {
            for i in content {
                if let Inline::Field(f) = i {
                    out.push(f.clone());
                }
            }
        }
        Block::SignatureBlock { role, path } => {
            let n = blocks_per_role.entry(role.clone()).or_default();
            *n += 1;
            out.extend(signature_block_fields(role, *n, path));
        }
        _ => {}
    });
    out
}

/// Each field once, at its first place: a name written in several places is one field.
pub fn unique_fields(doc: &Doc) -> Vec<Field> {
    let mut out: Vec<Field> = Vec::new();
    for f in fields(doc) {
        if !out.iter().any(|g| g.name.eq_ignore_ascii_case(&f.name)) {
            out.push(f);
        }
    }
    out
}

/// What differs between two places of a field of one name, beyond place and size: `None`
/// when they are one field.
pub fn differs(a: &Field, b: &Field) -> Option<&'static str> {
    Some(if a.ty != b.ty {
        "type"
    } else if a.role != b.role {
        "role"
    } else if a.required != b.required {
        "required"
    } else if a.autofill != b.autofill {
        "autofill"
    } else if a.editable != b.editable || a.locked != b.locked {
        "readonly"
    } else if a.options != b.options {
        "options"
    } else if a.default != b.default {
        "default"
    } else if a.placeholder != b.placeholder || a.tooltip != b.tooltip {
        "placeholder or description"
    } else if a.payment != b.payment {
        "payment"
    } else {
        return None;
    })
}

/// The names of the merge chips of `doc`, each once, in first-seen order.
pub fn chips(doc: &Doc) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    each_inline(doc, &mut |i| {
        if let Inline::Chip { name, .. } = i
            && !out.contains(name)
        {
            out.push(name.clone());
        }
    });
    out
}

/// Roles written in the text (fields and signature blocks), each once, in first-seen order.
pub fn roles(doc: &Doc) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for f in fields(doc) {
        if !out.contains(&f.role) {
            out.push(f.role);
        }
    }
    out
}
