//! Layers drawn onto a finished PDF as one incremental update: the first pages of a layer
//! PDF are laid over the file's pages as form XObjects (the field values), and the layer's
//! other pages are added after the last page (the certificate of completion). The pages
//! people saw are never re-rendered, so the revision before this one is byte for byte the
//! file they were sent.

use std::collections::BTreeMap;

use lopdf::{Dictionary, Object, ObjectId, Stream};

use crate::SealError;
use crate::incremental::{Revisions, write_object};

const XOBJECT_NAME: &[u8] = b"SignetLayer";

/// Lays the first `overlays` pages of `layer` over pages 1..=`overlays` of `base` and appends
/// the rest of `layer`'s pages.
pub fn stamp(base: &[u8], layer: &[u8], overlays: usize) -> Result<Vec<u8>, SealError> {
    let mut file = Revisions::open(base)?;
    let layer_doc = lopdf::Document::load_mem(layer).map_err(|e| bad(format!("layer: {e}")))?;
    let base_pages: Vec<ObjectId> = file.doc.get_pages().into_values().collect();
    let layer_pages: Vec<ObjectId> = layer_doc.get_pages().into_values().collect();
    if overlays > base_pages.len() || overlays > layer_pages.len() {
        return Err(bad(format!(
            "{overlays} overlay pages for a file of {} and a layer of {}",
            base_pages.len(),
            layer_pages.len()
        )));
    }
    let pages_root = pages_root(&file.doc)?;
    let (map, mut objects) = moved_in(&mut file, &layer_doc, &layer_pages, overlays, pages_root)?;
    for (i, layer_page) in layer_pages[..overlays].iter().enumerate() {
        let over = Overlay {
            layer: &layer_doc,
            layer_page: *layer_page,
            base_page: base_pages[i],
            number: i + 1,
            map: &map,
        };
        over.draw(&mut file, &mut objects)?;
    }
    let added: Vec<Object> = layer_pages[overlays..]
        .iter()
        .map(|id| Object::Reference(map[id]))
        .collect();
    if !added.is_empty() {
        let root = grown_tree(&file, pages_root, &added)?;
        objects.push((pages_root.0, body(&Object::Dictionary(root))));
    }
    file.append(objects);
    Ok(file.out)
}

fn bad(m: String) -> SealError {
    SealError::Pdf(m)
}

type Moved = (BTreeMap<ObjectId, ObjectId>, Vec<(u32, Vec<u8>)>);

/// What the layer's pages use moves in under new numbers: the overlays' resources and the
/// appended pages with everything they reach. The layer's catalog, page tree and structure
/// tree stay behind (an appended page's /StructParents would point into a tree that is not
/// there, so it is dropped). Answers the numbers' map and the objects to append.
fn moved_in(
    file: &mut Revisions,
    layer_doc: &lopdf::Document,
    layer_pages: &[ObjectId],
    overlays: usize,
    pages_root: ObjectId,
) -> Result<Moved, SealError> {
    let mut roots: Vec<Object> = Vec::new();
    for id in &layer_pages[..overlays] {
        let page = layer_doc
            .get_dictionary(*id)
            .map_err(|e| bad(format!("layer page: {e}")))?;
        roots.extend(inherited(layer_doc, page, b"Resources"));
    }
    roots.extend(
        layer_pages[overlays..]
            .iter()
            .map(|id| Object::Reference(*id)),
    );
    let used = reachable(layer_doc, &roots);
    let mut map: BTreeMap<ObjectId, ObjectId> = BTreeMap::new();
    for id in &used {
        map.insert(*id, (file.alloc(), 0));
    }
    let mut objects: Vec<(u32, Vec<u8>)> = Vec::new();
    for id in &used {
        let Ok(obj) = layer_doc.get_object(*id) else {
            continue;
        };
        let mut obj = remap(obj, &map);
        if layer_pages[overlays..].contains(id)
            && let Object::Dictionary(d) = &mut obj
        {
            d.set("Parent", Object::Reference(pages_root));
            d.remove(b"StructParents");
        }
        objects.push((map[id].0, body(&obj)));
    }
    Ok((map, objects))
}

/// One layer page drawn over one base page.
struct Overlay<'a> {
    layer: &'a lopdf::Document,
    layer_page: ObjectId,
    base_page: ObjectId,
    /// The page's number, from 1, for errors.
    number: usize,
    map: &'a BTreeMap<ObjectId, ObjectId>,
}

impl Overlay<'_> {
    /// The layer page becomes a form; the base page keeps its own drawing inside q/Q and
    /// draws the form on top.
    fn draw(
        &self,
        file: &mut Revisions,
        objects: &mut Vec<(u32, Vec<u8>)>,
    ) -> Result<(), SealError> {
        let i = self.number;
        let lp = self
            .layer
            .get_dictionary(self.layer_page)
            .map_err(|e| bad(format!("layer page {i}: {e}")))?;
        let content = page_content(self.layer, lp)?;
        let mut form = Dictionary::new();
        form.set("Type", Object::Name(b"XObject".to_vec()));
        form.set("Subtype", Object::Name(b"Form".to_vec()));
        let bbox = inherited(self.layer, lp, b"MediaBox")
            .ok_or_else(|| bad(format!("layer page {i} has no size")))?;
        form.set("BBox", bbox);
        let resources = inherited(self.layer, lp, b"Resources")
            .map(|r| remap(&r, self.map))
            .unwrap_or(Object::Dictionary(Dictionary::new()));
        form.set("Resources", resources);
        let form_id = file.alloc();
        objects.push((form_id, body(&Object::Stream(Stream::new(form, content)))));

        let mut page = file
            .doc
            .get_dictionary(self.base_page)
            .map_err(|e| bad(format!("page {i}: {e}")))?
            .clone();
        let mut contents = vec![];
        let open = file.alloc();
        let stream = |bytes: Vec<u8>| body(&Object::Stream(Stream::new(Dictionary::new(), bytes)));
        objects.push((open, stream(b"q\n".to_vec())));
        contents.push(Object::Reference((open, 0)));
        match page.get(b"Contents") {
            Ok(Object::Array(a)) => contents.extend(a.iter().cloned()),
            // A reference to an array of streams is not a stream: take its elements.
            Ok(Object::Reference(r)) => match file.doc.get_object(*r) {
                Ok(Object::Array(a)) => contents.extend(a.iter().cloned()),
                _ => contents.push(Object::Reference(*r)),
            },
            Ok(other) => contents.push(other.clone()),
            Err(_) => {}
        }
        let draw = file.alloc();
        let mut name = String::from_utf8_lossy(XOBJECT_NAME).to_string();
        name.insert(0, '/');
        // Readers may join content streams with nothing between: start on a new line.
        objects.push((draw, stream(format!("\nQ\nq {name} Do Q\n").into_bytes())));
        contents.push(Object::Reference((draw, 0)));
        page.set("Contents", Object::Array(contents));
        let mut res = match inherited(&file.doc, &page, b"Resources") {
            Some(Object::Dictionary(d)) => d,
            _ => Dictionary::new(),
        };
        let mut xobjects = match res.get(b"XObject") {
            Ok(Object::Dictionary(d)) => d.clone(),
            Ok(Object::Reference(r)) => file.doc.get_dictionary(*r).cloned().unwrap_or_default(),
            _ => Dictionary::new(),
        };
        xobjects.set(XOBJECT_NAME.to_vec(), Object::Reference((form_id, 0)));
        res.set("XObject", Object::Dictionary(xobjects));
        page.set("Resources", Object::Dictionary(res));
        objects.push((self.base_page.0, body(&Object::Dictionary(page))));
        Ok(())
    }
}

/// The page tree's root with `added` pages at its end.
fn grown_tree(
    file: &Revisions,
    pages_root: ObjectId,
    added: &[Object],
) -> Result<Dictionary, SealError> {
    let mut root = file
        .doc
        .get_dictionary(pages_root)
        .map_err(|e| bad(format!("page tree: {e}")))?
        .clone();
    let mut kids = match root.get(b"Kids") {
        Ok(Object::Array(a)) => a.clone(),
        Ok(Object::Reference(r)) => file
            .doc
            .get_object(*r)
            .and_then(Object::as_array)
            .cloned()
            .map_err(|e| bad(format!("page tree kids: {e}")))?,
        _ => return Err(bad("the page tree has no kids".into())),
    };
    kids.extend(added.iter().cloned());
    let count = root.get(b"Count").and_then(Object::as_i64).unwrap_or(0);
    root.set("Kids", Object::Array(kids));
    root.set("Count", Object::Integer(count + added.len() as i64));
    Ok(root)
}

/// Every object `roots` reach, not following /Parent (up the page tree).
fn reachable(doc: &lopdf::Document, roots: &[Object]) -> std::collections::BTreeSet<ObjectId> {
    let mut seen = std::collections::BTreeSet::new();
    let mut stack: Vec<&Object> = roots.iter().collect();
    while let Some(o) = stack.pop() {
        match o {
            Object::Reference(id) => {
                if seen.insert(*id)
                    && let Ok(obj) = doc.get_object(*id)
                {
                    stack.push(obj);
                }
            }
            Object::Array(a) => stack.extend(a.iter()),
            Object::Dictionary(d) => stack.extend(children(d)),
            Object::Stream(st) => stack.extend(children(&st.dict)),
            _ => {}
        }
    }
    seen
}

fn children(d: &Dictionary) -> impl Iterator<Item = &Object> {
    d.iter()
        .filter(|(k, _)| k.as_slice() != b"Parent")
        .map(|(_, v)| v)
}

fn body(o: &Object) -> Vec<u8> {
    let mut v = Vec::new();
    write_object(&mut v, o);
    v
}

fn pages_root(doc: &lopdf::Document) -> Result<ObjectId, SealError> {
    doc.catalog()
        .and_then(|c| c.get(b"Pages"))
        .and_then(Object::as_reference)
        .map_err(|_| SealError::Pdf("the catalog has no page tree".into()))
}

/// A page attribute, looked up the page tree as ISO 32000 says attributes inherit.
fn inherited(doc: &lopdf::Document, page: &Dictionary, key: &[u8]) -> Option<Object> {
    let mut d = page.clone();
    for _ in 0..32 {
        match d.get(key) {
            Ok(Object::Reference(r)) => return doc.get_object(*r).ok().cloned(),
            Ok(o) => return Some(o.clone()),
            Err(_) => {}
        }
        let parent = d.get(b"Parent").and_then(Object::as_reference).ok()?;
        d = doc.get_dictionary(parent).ok()?.clone();
    }
    None
}

/// The page's drawing as one content stream (decoded when it was split in several).
fn page_content(doc: &lopdf::Document, page: &Dictionary) -> Result<Vec<u8>, SealError> {
    let refs = match page.get(b"Contents") {
        Ok(Object::Reference(r)) => match doc.get_object(*r) {
            Ok(Object::Array(a)) => a.iter().filter_map(|o| o.as_reference().ok()).collect(),
            _ => vec![*r],
        },
        Ok(Object::Array(a)) => a.iter().filter_map(|o| o.as_reference().ok()).collect(),
        _ => vec![],
    };
    let mut out = Vec::new();
    for r in refs {
        let stream = doc
            .get_object(r)
            .and_then(Object::as_stream)
            .map_err(|e| SealError::Pdf(format!("layer content: {e}")))?;
        // A filter we cannot undo is an error: compressed bytes in a form without its filter
        // would draw garbage.
        let data = if stream.dict.has(b"Filter") {
            stream
                .decompressed_content()
                .map_err(|e| SealError::Pdf(format!("layer content: {e}")))?
        } else {
            stream.content.clone()
        };
        out.extend_from_slice(&data);
        out.push(b'\n');
    }
    Ok(out)
}

fn remap(o: &Object, map: &BTreeMap<ObjectId, ObjectId>) -> Object {
    match o {
        // A reference to what was left behind (the layer's page tree) becomes null.
        Object::Reference(r) => map.get(r).map_or(Object::Null, |n| Object::Reference(*n)),
        Object::Array(a) => Object::Array(a.iter().map(|x| remap(x, map)).collect()),
        Object::Dictionary(d) => {
            let mut n = Dictionary::new();
            for (k, v) in d {
                n.set(k.clone(), remap(v, map));
            }
            Object::Dictionary(n)
        }
        Object::Stream(s) => {
            let mut n = s.clone();
            if let Object::Dictionary(d) = remap(&Object::Dictionary(s.dict.clone()), map) {
                n.dict = d;
            }
            Object::Stream(n)
        }
        other => other.clone(),
    }
}
