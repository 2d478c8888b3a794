//! The document engine's memory, stage by stage, as the server's allocator (mimalloc) holds
//! it: resident memory (anonymous and file-backed, from `/proc/self/status` and
//! `/proc/self/smaps_rollup`) after building the renderer, after the first render of a
//! 1-page source, after 50 more renders of new documents, and after drawing a page's pictures.
//!   cargo bench -p signet-pdf --bench footprint
//! `MIMALLOC_PURGE_DECOMMITS=1` shows what freed memory the allocator gives back at once.

use std::collections::BTreeMap;

use signet_pdf::{RenderInput, Renderer};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod common;
use common::{input, source};

/// Resident memory in MB: (all, anonymous, file-backed).
fn resident() -> (f64, f64, f64) {
    let read = |path: &str, key: &str| -> f64 {
        std::fs::read_to_string(path)
            .unwrap_or_default()
            .lines()
            .find(|l| l.starts_with(key))
            .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
            .unwrap_or(0.0)
            / 1024.0
    };
    let all = read("/proc/self/status", "VmRSS:");
    let anon = read("/proc/self/status", "RssAnon:");
    let file = read("/proc/self/status", "RssFile:");
    (all, anon, file)
}

fn report(stage: &str) {
    let (all, anon, file) = resident();
    println!("{stage:<44} RSS {all:7.1} MB (anonymous {anon:6.1}, file-backed {file:6.1})");
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else is taken.
    report("start");
    let renderer = Renderer::new();
    report("renderer built (library and fonts)");
    let values = BTreeMap::new();
    let seats = BTreeMap::from([
        ("client".to_string(), "Ada".to_string()),
        ("provider".to_string(), "Bob".to_string()),
    ]);
    let doc = source(1);
    let base = input(&doc, &values, &seats);
    let first = renderer
        .render_with_text(&base, 100)
        .unwrap_or_else(|e| panic!("{e}"));
    report("first render, 1-page source");
    for n in 0..50 {
        let (title, footer) = (format!("Agreement {n}"), format!("doc_{n:026}"));
        let fresh = RenderInput {
            title: &title,
            footer: &footer,
            ..base
        };
        renderer
            .render_with_text(&fresh, 100)
            .unwrap_or_else(|e| panic!("{e}"));
    }
    report("after 50 more renders of new documents");
    let drawn =
        signet_pdf::pages::picture(&first.pdf, 0, &[750, 1500]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(drawn.images.len(), 2);
    report("after one page's pictures (750 and 1,500)");
    let ten = source(10);
    let long = input(&ten, &values, &seats);
    let out = renderer
        .render_with_text(&long, 100)
        .unwrap_or_else(|e| panic!("{e}"));
    for page in 0..out.pages.len() {
        signet_pdf::pages::picture(&out.pdf, page, &[750, 1500]).unwrap_or_else(|e| panic!("{e}"));
    }
    report(&format!(
        "after a {}-page render and its pictures",
        out.pages.len()
    ));
    // A busy server allocates all the time: the allocator purges what was freed more than
    // its purge delay (10 ms) ago when a thread's allocations reach its collection count.
    std::thread::sleep(std::time::Duration::from_millis(50));
    let mut keep = Vec::new();
    for n in 0..200_000usize {
        keep.push(vec![n as u8; 64 + n % 512]);
        if keep.len() > 1_000 {
            keep.clear();
        }
    }
    drop(keep);
    report("after 200,000 small allocations 50 ms later");
}
