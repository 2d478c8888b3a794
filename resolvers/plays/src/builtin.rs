//! The built-in plays, shipped in the binary (`builtin/*.md`), read once, the same for every
//! workspace. A workspace changes one by duplicating it.

use std::sync::LazyLock;

use crate::play::{self, Play};

pub struct Builtin {
    pub source: &'static str,
    pub play: Play,
}

const FILES: &[&str] = &[
    include_str!("../builtin/mutual-nda.md"),
    include_str!("../builtin/one-way-nda.md"),
    include_str!("../builtin/consulting-agreement.md"),
    include_str!("../builtin/contractor-agreement.md"),
    include_str!("../builtin/offer-letter.md"),
    include_str!("../builtin/residential-lease.md"),
    include_str!("../builtin/photo-release.md"),
    include_str!("../builtin/sales-order.md"),
];

static ALL: LazyLock<Vec<Builtin>> = LazyLock::new(|| {
    let mut all: Vec<Builtin> = FILES
        .iter()
        .map(|source| Builtin {
            source,
            // Each file is read by the tests below; one that did not read would fail them.
            play: play::read(source).unwrap_or_else(|p| panic!("a built-in play: {p:?}")),
        })
        .collect();
    all.sort_by(|a, b| a.play.header.name.cmp(&b.play.header.name));
    all
});

/// Every built-in play, by name.
pub fn all() -> &'static [Builtin] {
    &ALL
}

pub fn get(name: &str) -> Option<&'static Builtin> {
    ALL.iter().find(|b| b.play.header.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_built_in_play_reads_and_asks_questions_that_change_its_words() {
        assert!(FILES.len() >= 8);
        for source in FILES {
            let p = play::read(source).unwrap_or_else(|e| panic!("{e:#?}"));
            let h = &p.header;
            assert!(!h.questions.is_empty(), "{}", h.name);
            // Each can be tailored by AI (POST /drafts with `tailor`).
            assert!(
                h.guidance.as_deref().is_some_and(|g| g.len() > 40),
                "{}",
                h.name
            );
            // Each question changes the words: some answer drafts other words than another.
            for q in &h.questions {
                let (_, base) = p.walk_defaults();
                let words = |v: &str| {
                    let mut a = base.clone();
                    // The answers that make the question asked.
                    for (dep, vals) in &q.when {
                        a.insert(dep.clone(), vals[0].clone());
                    }
                    a.insert(q.id.clone(), v.to_string());
                    // The later questions that now apply take their first option.
                    let mut a2 = a.clone();
                    for later in &h.questions {
                        if !a2.contains_key(&later.id) && play::applies(later, &a2) {
                            a2.insert(later.id.clone(), later.options[0].value.clone());
                        }
                    }
                    let (doc, used) = crate::body::assemble(&p.blocks, h, &a2);
                    let labels = p.labels(&a2);
                    let vals: Vec<_> = used.iter().map(|u| labels.get(u).cloned()).collect();
                    (doc.to_string(), vals)
                };
                let drafts: Vec<_> = q.options.iter().map(|o| words(&o.value)).collect();
                assert!(
                    drafts.windows(2).any(|w| w[0] != w[1]),
                    "{}: question {} changes nothing",
                    h.name,
                    q.id
                );
            }
        }
        assert_eq!(all().len(), FILES.len(), "two built-in plays share a name");
    }
}
