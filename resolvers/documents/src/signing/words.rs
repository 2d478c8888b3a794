//! The signing page's words and the electronic-records disclosure, in the 14 languages of
//! `send.language` (`words/<code>.toml`, each with the keys and placeholders of English).

use std::collections::BTreeMap;
use std::sync::LazyLock;

use serde::Serialize;

/// The version of the disclosure texts: a changed text is a new version, and what a person
/// accepted stays identifiable in the audit trail by version and digest.
pub const DISCLOSURE_VERSION: &str = "2026-11-24";

const FILES: &[(&str, &str)] = &[
    ("en", include_str!("words/en.toml")),
    ("es", include_str!("words/es.toml")),
    ("fr", include_str!("words/fr.toml")),
    ("de", include_str!("words/de.toml")),
    ("pt", include_str!("words/pt.toml")),
    ("it", include_str!("words/it.toml")),
    ("nl", include_str!("words/nl.toml")),
    ("pl", include_str!("words/pl.toml")),
    ("tr", include_str!("words/tr.toml")),
    ("ru", include_str!("words/ru.toml")),
    ("ar", include_str!("words/ar.toml")),
    ("ja", include_str!("words/ja.toml")),
    ("zh", include_str!("words/zh.toml")),
    ("ko", include_str!("words/ko.toml")),
];

pub struct Words {
    pub page: BTreeMap<String, String>,
    pub disclosure_title: String,
    pub disclosure_text: String,
}

#[derive(serde::Deserialize)]
struct File {
    page: BTreeMap<String, String>,
    disclosure: DisclosureFile,
}

#[derive(serde::Deserialize)]
struct DisclosureFile {
    title: String,
    text: String,
}

fn parse(text: &str) -> Result<Words, String> {
    let f: File = toml::from_str(text).map_err(|e| e.to_string())?;
    Ok(Words {
        page: f.page,
        disclosure_title: f.disclosure.title,
        disclosure_text: f.disclosure.text.trim().to_string(),
    })
}

static WORDS: LazyLock<BTreeMap<&'static str, Words>> = LazyLock::new(|| {
    FILES
        .iter()
        .filter_map(|(code, text)| match parse(text) {
            Ok(w) => Some((*code, w)),
            // The tests parse every file; a broken one falls back to English rather than
            // stopping every signing page.
            Err(e) => {
                tracing::error!(language = code, error = %e, "a signing page words file does not parse");
                None
            }
        })
        .collect()
});

/// What a page shows when not even English parsed (a test checks that every file does).
static NONE: LazyLock<Words> = LazyLock::new(|| Words {
    page: BTreeMap::new(),
    disclosure_title: String::new(),
    disclosure_text: String::new(),
});

/// One of the 14 codes for a language tag (`pt-BR` is `pt`); English for any other.
pub fn code(tag: &str) -> &'static str {
    let base = tag
        .split(['-', '_'])
        .next()
        .unwrap_or("en")
        .to_ascii_lowercase();
    FILES
        .iter()
        .map(|(c, _)| *c)
        .find(|c| *c == base)
        .unwrap_or("en")
}

pub fn of(code: &str) -> &'static Words {
    WORDS.get(code).or_else(|| WORDS.get("en")).unwrap_or(&NONE)
}

pub fn disclosure(code: &str) -> Disclosure {
    let w = of(code);
    Disclosure {
        version: DISCLOSURE_VERSION,
        title: w.disclosure_title.clone(),
        text: w.disclosure_text.clone(),
        sha256: signet_core::ids::sha256_hex(w.disclosure_text.as_bytes()),
    }
}

/// Every language's codes, for tests.
pub fn codes() -> impl Iterator<Item = &'static str> {
    FILES.iter().map(|(c, _)| *c)
}

#[derive(Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Disclosure {
    pub version: &'static str,
    pub title: String,
    pub text: String,
    /// SHA-256 of `text`, hex: what the audit row records as shown.
    pub sha256: String,
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    fn placeholders(s: &str) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        let mut rest = s;
        while let Some(i) = rest.find('{') {
            let Some(j) = rest[i..].find('}') else { break };
            out.insert(rest[i + 1..i + j].to_string());
            rest = &rest[i + j + 1..];
        }
        out
    }

    #[test]
    fn every_language_has_every_word_with_the_same_placeholders() {
        let en = of("en");
        for code in codes() {
            let w = of(code);
            assert_eq!(
                w.page.keys().collect::<Vec<_>>(),
                en.page.keys().collect::<Vec<_>>(),
                "{code}"
            );
            for (k, v) in &w.page {
                assert!(!v.trim().is_empty(), "{code}.{k}");
                assert_eq!(placeholders(v), placeholders(&en.page[k]), "{code}.{k}");
                assert!(
                    !v.chars().any(signet_core::fields::is_disguising),
                    "{code}.{k}"
                );
            }
            let d = disclosure(code);
            assert!(d.text.len() > 200, "{code}: the disclosure is whole");
            for n in 1..=5 {
                assert!(d.text.contains(&format!("{n}.")), "{code}: point {n}");
            }
        }
        assert_eq!(codes().count(), 14);
    }
}
