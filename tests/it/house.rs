//! Where things live: within each crate, no two source files import each other, directly or
//! through others. Files are read as text (a file's `crate::` and `super::` paths name the
//! modules it uses), so the check costs nothing to build and runs with the suite. Test
//! modules and test files are left out: tests may reach anywhere.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The crates checked, by their source folder.
const CRATES: [&str; 19] = [
    "src",
    "source/src",
    "convert/src",
    "pdf/src",
    "seal/src",
    "storage/src",
    "resolvers/core/src",
    "resolvers/accounts/src",
    "resolvers/documents/src",
    "resolvers/email/src",
    "resolvers/webhooks/src",
    "resolvers/plays/src",
    "resolvers/payments/src",
    "mcp/src",
    "schema/src",
    "rest_compat/src",
    "workers/src",
    "workers/queue/src",
    "testkit/src",
];

/// Circles allowed, each as its files sorted and joined by ` `: none. A `mod.rs` or root file
/// that both holds what its children use and calls them is a circle with them; a root that
/// only re-exports (`pub use ctx::Ctx;`) is not, as a path through it is followed to the file
/// that defines the name. No circle may come: what children share lives in a file of its own.
const KNOWN: &[&str] = &[];

/// A source file's module path (`documents::seal` for `documents/seal.rs` and
/// `documents/seal/mod.rs`; empty for `lib.rs` and `main.rs`).
fn module_of(root: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(root).unwrap();
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs");
    if !matches!(stem, "mod" | "lib" | "main") {
        parts.push(stem.to_string());
    }
    parts
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            let name = p.file_name().unwrap().to_string_lossy();
            if name != "tests.rs" && !name.ends_with("_tests.rs") {
                out.push(p);
            }
        }
    }
}

/// The file's text before its test module, without comments and strings.
fn code_of(text: &str) -> String {
    let text = match text.find("#[cfg(test)]") {
        Some(at) => &text[..at],
        None => text,
    };
    let mut out = String::with_capacity(text.len());
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

/// The module paths a file's code names through `crate::`, `super::`, `self::` and its own
/// child modules' names (`store::load` in `documents/mod.rs`), braces expanded. `children`
/// are the names of this module's child modules.
fn paths_named(
    code: &str,
    here: &[String],
    is_mod: bool,
    children: &BTreeSet<String>,
) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let chars: Vec<char> = code.chars().collect();
    let mut i = 0;
    // Reads `a::b::{c, d::e}` from `i`, appending full paths to `out` under `prefix`.
    fn read(chars: &[char], i: &mut usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
        let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
        let mut path = prefix;
        loop {
            while *i < chars.len() && chars[*i].is_whitespace() {
                *i += 1;
            }
            if *i < chars.len() && chars[*i] == '{' {
                *i += 1;
                loop {
                    read(chars, i, path.clone(), out);
                    while *i < chars.len() && chars[*i].is_whitespace() {
                        *i += 1;
                    }
                    match chars.get(*i) {
                        Some(',') => *i += 1,
                        Some('}') => {
                            *i += 1;
                            return;
                        }
                        _ => return,
                    }
                    while *i < chars.len() && chars[*i].is_whitespace() {
                        *i += 1;
                    }
                    if chars.get(*i) == Some(&'}') {
                        *i += 1;
                        return;
                    }
                }
            }
            let start = *i;
            while *i < chars.len() && ident(chars[*i]) {
                *i += 1;
            }
            if start == *i {
                out.push(path);
                return;
            }
            path.push(chars[start..*i].iter().collect());
            if chars.get(*i) == Some(&':') && chars.get(*i + 1) == Some(&':') {
                *i += 2;
                continue;
            }
            out.push(path);
            return;
        }
    }
    while i < chars.len() {
        let before_ok = i == 0 || !ident(chars[i - 1]);
        let rest: String = chars[i..(i + 7).min(chars.len())].iter().collect();
        let after_path = i >= 2 && chars[i - 1] == ':' && chars[i - 2] == ':';
        if before_ok && rest.starts_with("crate::") {
            i += 7;
            read(&chars, &mut i, Vec::new(), &mut out);
        } else if before_ok && rest.starts_with("self::") {
            i += 6;
            read(&chars, &mut i, here.to_vec(), &mut out);
        } else if before_ok && rest.starts_with("super::") {
            // `super` is the parent of this module (of the folder's module for `mod.rs`).
            let mut base = here.to_vec();
            let _ = is_mod;
            base.pop();
            i += 7;
            while chars[i..].iter().collect::<String>().starts_with("super::") {
                base.pop();
                i += 7;
            }
            read(&chars, &mut i, base, &mut out);
        } else if before_ok && !after_path && ident(chars[i]) {
            // A child module named by itself: `identity::check(..)`, `use store::{..}`.
            let start = i;
            while i < chars.len() && ident(chars[i]) {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            if children.contains(&word)
                && chars.get(i) == Some(&':')
                && chars.get(i + 1) == Some(&':')
            {
                i = start;
                read(&chars, &mut i, here.to_vec(), &mut out);
            }
        } else {
            i += 1;
        }
    }
    out
}

/// The names a root file re-exports, each with the module path it comes from:
/// `pub use ctx::Ctx;` gives `Ctx` -> `[ctx]`, `pub use a::{b::C, d as e};` gives `C` ->
/// `[a, b]` and `e` -> `[a]`.
fn reexports_of(code: &str) -> BTreeMap<String, Vec<String>> {
    fn expand(text: &str, prefix: &[String], out: &mut BTreeMap<String, Vec<String>>) {
        let text = text.trim();
        if let Some(open) = text.find('{') {
            let mut base = prefix.to_vec();
            base.extend(
                text[..open]
                    .split("::")
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(String::from),
            );
            let inner = &text[open + 1..text.rfind('}').unwrap_or(text.len())];
            let (mut depth, mut start) = (0, 0);
            for (i, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        expand(&inner[start..i], &base, out);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            expand(&inner[start..], &base, out);
            return;
        }
        let (path, alias) = match text.split_once(" as ") {
            Some((p, a)) => (p.trim(), Some(a.trim())),
            None => (text, None),
        };
        let mut full: Vec<String> = prefix.to_vec();
        full.extend(path.split("::").map(str::trim).map(String::from));
        let Some(last) = full.pop() else { return };
        let name = alias.unwrap_or(&last).to_string();
        if name != "self" && name != "*" {
            out.insert(name, full);
        }
    }
    let mut out = BTreeMap::new();
    for statement in code.split(';') {
        let t = statement.trim();
        let rest = ["pub use ", "pub(crate) use ", "pub(super) use "]
            .iter()
            .find_map(|p| t.strip_prefix(p));
        if let Some(rest) = rest {
            expand(rest.trim_start_matches("crate::"), &[], &mut out);
        }
    }
    out
}

/// Circles among a crate's files: groups of two or more files that reach each other.
fn circles(root: &Path) -> Vec<Vec<String>> {
    let mut all = Vec::new();
    files(root, &mut all);
    let modules: BTreeMap<Vec<String>, String> = all
        .iter()
        .map(|f| {
            (
                module_of(root, f),
                f.strip_prefix(root).unwrap().to_string_lossy().into_owned(),
            )
        })
        .collect();
    // What the crate's root file re-exports (`pub use ctx::Ctx;`): a path through the root to
    // such a name leads to the file that defines it, not to the root.
    let root_file = all.iter().find(|f| module_of(root, f).is_empty());
    let reexports = root_file
        .map(|f| reexports_of(&code_of(&std::fs::read_to_string(f).unwrap())))
        .unwrap_or_default();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in &all {
        let here = module_of(root, f);
        let name = f.strip_prefix(root).unwrap().to_string_lossy().into_owned();
        let is_mod = f.file_name().is_some_and(|n| n == "mod.rs");
        let code = code_of(&std::fs::read_to_string(f).unwrap());
        let children: BTreeSet<String> = modules
            .keys()
            .filter(|m| m.len() == here.len() + 1 && m.starts_with(&here))
            .map(|m| m[here.len()].clone())
            .collect();
        let entry = edges.entry(name.clone()).or_default();
        for mut path in paths_named(&code, &here, is_mod, &children) {
            if let Some(first) = path.first()
                && !modules.contains_key(&path[..1])
                && let Some(through) = reexports.get(first)
            {
                path = through.clone();
            }
            // The longest prefix that is a file of the crate.
            while !path.is_empty() && !modules.contains_key(&path) {
                path.pop();
            }
            if let Some(to) = modules.get(&path)
                && *to != name
            {
                entry.insert(to.clone());
            }
        }
    }
    // Strongly connected components (Tarjan), iteratively small enough to recurse.
    struct T<'a> {
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<String, usize>,
        low: BTreeMap<String, usize>,
        stack: Vec<String>,
        on: BTreeSet<String>,
        next: usize,
        out: Vec<Vec<String>>,
    }
    fn visit(t: &mut T, v: &str) {
        t.index.insert(v.to_string(), t.next);
        t.low.insert(v.to_string(), t.next);
        t.next += 1;
        t.stack.push(v.to_string());
        t.on.insert(v.to_string());
        let targets: Vec<String> = t.edges.get(v).into_iter().flatten().cloned().collect();
        for w in targets {
            if !t.index.contains_key(&w) {
                visit(t, &w);
                let lw = t.low[&w];
                let lv = t.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if t.on.contains(&w) {
                let iw = t.index[&w];
                let lv = t.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if t.low[v] == t.index[v] {
            let mut group = Vec::new();
            loop {
                let w = t.stack.pop().unwrap();
                t.on.remove(&w);
                let done = w == v;
                group.push(w);
                if done {
                    break;
                }
            }
            if group.len() > 1 {
                group.sort();
                t.out.push(group);
            }
        }
    }
    let mut t = T {
        edges: &edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        next: 0,
        out: Vec::new(),
    };
    let names: Vec<String> = edges.keys().cloned().collect();
    for v in names {
        if !t.index.contains_key(&v) {
            visit(&mut t, &v);
        }
    }
    t.out
}

#[test]
fn no_two_files_of_a_crate_import_each_other() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = BTreeSet::new();
    for krate in CRATES {
        for group in circles(&root.join(krate)) {
            found.insert(format!("{krate}: {}", group.join(" ")));
        }
    }
    let known: BTreeSet<String> = KNOWN.iter().map(|s| s.to_string()).collect();
    let new: Vec<&String> = found.difference(&known).collect();
    let gone: Vec<&String> = known.difference(&found).collect();
    assert!(
        new.is_empty() && gone.is_empty(),
        "files that import each other, new: {new:#?}\nknown circles now broken (take them off \
         KNOWN): {gone:#?}"
    );
}

#[test]
fn the_circle_finder_finds_a_circle() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::create_dir_all(src.join("a")).unwrap();
    std::fs::write(src.join("lib.rs"), "mod a; mod c;").unwrap();
    std::fs::write(src.join("a/mod.rs"), "pub mod b; use crate::c::f;").unwrap();
    std::fs::write(
        src.join("a/b.rs"),
        "// crate::c is only a comment\nfn g() { super::super::c::f(); let _ = \"crate::a\"; }",
    )
    .unwrap();
    std::fs::write(src.join("c.rs"), "use crate::{a::{b::g}, x};").unwrap();
    assert_eq!(
        circles(src),
        vec![vec!["a/b.rs".to_string(), "c.rs".to_string()]]
    );
    // `c` names `a::b`, `a/b.rs` names `c`, `a/mod.rs` names `c` only: b and c form the circle.

    // A folder's module that calls its child by name, and the child using its parent's.
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::create_dir_all(src.join("m")).unwrap();
    std::fs::write(src.join("lib.rs"), "mod m; mod n;").unwrap();
    std::fs::write(
        src.join("m/mod.rs"),
        "pub mod k; pub struct T; fn f() { k::g(); n::h(); }",
    )
    .unwrap();
    std::fs::write(src.join("m/k.rs"), "use super::T; pub fn g() {}").unwrap();
    std::fs::write(src.join("n.rs"), "pub fn h() {}").unwrap();
    assert_eq!(
        circles(src),
        vec![vec!["m/k.rs".to_string(), "m/mod.rs".to_string()]]
    );

    // A root file that only re-exports is no circle with the files it names; a root that
    // holds what a child uses and calls that child is one.
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::write(
        src.join("lib.rs"),
        "mod ctx; mod user; pub use ctx::{Ctx, other::Thing as Alias}; pub use user::go;",
    )
    .unwrap();
    std::fs::write(src.join("ctx.rs"), "pub struct Ctx;").unwrap();
    std::fs::write(
        src.join("user.rs"),
        "use crate::{Ctx, Alias}; pub fn go(_: Ctx) {}",
    )
    .unwrap();
    assert!(circles(src).is_empty());
    std::fs::write(
        src.join("lib.rs"),
        "mod user; pub struct Ctx; pub fn start() { user::go(Ctx) }",
    )
    .unwrap();
    assert_eq!(
        circles(src),
        vec![vec!["lib.rs".to_string(), "user.rs".to_string()]]
    );
}

/// Which crate's files may name each table in SQL: the crate that owns it. Others call its
/// functions. The schema itself (`storage/src/migrations/`) and the embedded backup name every
/// table and are left out; sea-orm entities are plain data in `storage` and not SQL text.
const OWNERS: &[(&str, &str)] = &[
    ("api_keys", "resolvers/accounts/src"),
    ("auth_epoch", "resolvers/accounts/src"),
    ("teams", "resolvers/accounts/src"),
    ("team_members", "resolvers/accounts/src"),
    ("usage_counters", "resolvers/accounts/src"),
    ("workspaces", "resolvers/accounts/src"),
    ("approvals", "resolvers/documents/src"),
    ("audit_events", "resolvers/documents/src"),
    ("document_metadata", "resolvers/documents/src"),
    ("documents", "resolvers/documents/src"),
    ("fields", "resolvers/documents/src"),
    ("identity_checks", "resolvers/documents/src"),
    ("people", "resolvers/documents/src"),
    ("signing_links", "resolvers/documents/src"),
    ("template_versions", "resolvers/documents/src"),
    ("templates", "resolvers/documents/src"),
    ("email_suppressions", "resolvers/email/src"),
    ("email_templates", "resolvers/email/src"),
    ("emails", "resolvers/email/src"),
    ("webhook_attempts", "resolvers/webhooks/src"),
    ("webhook_endpoints", "resolvers/webhooks/src"),
    ("webhook_messages", "resolvers/webhooks/src"),
    ("payment_accounts", "resolvers/payments/src"),
    ("payments", "resolvers/payments/src"),
    ("stripe_events", "resolvers/payments/src"),
    ("outbox", "workers/queue/src"),
    ("installation", "resolvers/core/src"),
    ("api_log", "storage/src"),
    ("idempotency", "storage/src"),
    ("key_daily_counters", "storage/src"),
];

/// Statements that still name another crate's table, each with why, as `file: table`. A
/// statement moved to its owner must leave this list.
const FOREIGN: &[&str] = &[
    // The key's daily budget of a workspace's metric is counted where the other shared
    // budgets are, beside the usage the accounts crate reads.
    "storage/src/db.rs: usage_counters",
    "storage/src/state/daily.rs: usage_counters",
    // Ending a document marks its withdrawn emails in the log, in the ending's transaction;
    // the email crate depends on documents, not the other way round.
    "resolvers/documents/src/ending.rs: emails",
    // Reports count documents by day; accounts sits below documents.
    "resolvers/accounts/src/reports.rs: documents",
];

fn sql_tables(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let words: Vec<&str> = code
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect();
    for pair in words.windows(2) {
        if matches!(pair[0], "FROM" | "INTO" | "UPDATE" | "JOIN") {
            out.insert(pair[1].to_string());
        }
    }
    out
}

#[test]
fn each_table_is_named_in_sql_only_by_the_crate_that_owns_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let owners: BTreeMap<&str, &str> = OWNERS.iter().copied().collect();
    let mut found = BTreeSet::new();
    for krate in CRATES {
        let mut all = Vec::new();
        files(&root.join(krate), &mut all);
        for f in all {
            let rel = f.strip_prefix(root).unwrap().to_string_lossy().into_owned();
            if rel.contains("/migrations/") || rel.ends_with("storage/src/backup.rs") {
                continue;
            }
            let text = std::fs::read_to_string(&f).unwrap();
            let text = match text.find("#[cfg(test)]") {
                Some(at) => &text[..at],
                None => &text[..],
            };
            for table in sql_tables(text) {
                if let Some(owner) = owners.get(table.as_str())
                    && !rel.starts_with(owner)
                {
                    found.insert(format!("{rel}: {table}"));
                }
            }
        }
    }
    let known: BTreeSet<String> = FOREIGN.iter().map(|s| s.to_string()).collect();
    let new: Vec<&String> = found.difference(&known).collect();
    let gone: Vec<&String> = known.difference(&found).collect();
    assert!(
        new.is_empty() && gone.is_empty(),
        "statements naming another crate's table, new: {new:#?}\nknown ones now gone (take \
         them off FOREIGN): {gone:#?}"
    );
}
