//! The standard wording, written for each of the 14 languages of `send.language` (not
//! translated word for word) in `wording/<code>.toml`, compiled into the binary and read once.
//! Every file has the same tables and uses the English file's variables; the tests check it.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use serde::Deserialize;

use super::Kind;

/// The five fields of one kind's wording.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Wording {
    pub subject: String,
    pub preview: String,
    pub body: String,
    pub button_label: String,
    pub footer: String,
}

/// The words laid around every email of a language.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Layout {
    pub link_hint: String,
    pub message_from: String,
    pub test_notice: String,
    pub download_hint: String,
    pub powered_by: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    layout: Layout,
    invitation: Wording,
    reminder: Wording,
    completed: Wording,
    declined: Wording,
    voided: Wording,
    expired: Wording,
    code: Wording,
    receipt: Wording,
}

/// One language's words.
#[derive(Debug)]
pub struct Language {
    pub layout: Layout,
    kinds: BTreeMap<Kind, Wording>,
}

impl Language {
    pub fn wording(&self, kind: Kind) -> &Wording {
        // Every file has every kind (a parse error otherwise), so the lookup cannot miss.
        &self.kinds[&kind]
    }
}

/// The files, by language code, in the order of `send.language`'s list.
pub const FILES: [(&str, &str); 14] = [
    ("en", include_str!("wording/en.toml")),
    ("es", include_str!("wording/es.toml")),
    ("fr", include_str!("wording/fr.toml")),
    ("de", include_str!("wording/de.toml")),
    ("pt", include_str!("wording/pt.toml")),
    ("it", include_str!("wording/it.toml")),
    ("nl", include_str!("wording/nl.toml")),
    ("pl", include_str!("wording/pl.toml")),
    ("tr", include_str!("wording/tr.toml")),
    ("ru", include_str!("wording/ru.toml")),
    ("ar", include_str!("wording/ar.toml")),
    ("ja", include_str!("wording/ja.toml")),
    ("zh", include_str!("wording/zh.toml")),
    ("ko", include_str!("wording/ko.toml")),
];

/// Parses one file. Answers the reason when it is not a whole wording file.
pub fn parse(text: &str) -> Result<Language, String> {
    let f: File = toml::from_str(text).map_err(|e| e.to_string())?;
    let kinds = BTreeMap::from([
        (Kind::Invitation, f.invitation),
        (Kind::Reminder, f.reminder),
        (Kind::Completed, f.completed),
        (Kind::Declined, f.declined),
        (Kind::Voided, f.voided),
        (Kind::Expired, f.expired),
        (Kind::Code, f.code),
        (Kind::Receipt, f.receipt),
    ]);
    let trim = |w: Wording| Wording {
        subject: w.subject.trim().to_string(),
        preview: w.preview.trim().to_string(),
        body: w.body.trim().to_string(),
        button_label: w.button_label.trim().to_string(),
        footer: w.footer.trim().to_string(),
    };
    Ok(Language {
        layout: f.layout,
        kinds: kinds.into_iter().map(|(k, w)| (k, trim(w))).collect(),
    })
}

static LANGUAGES: LazyLock<BTreeMap<&'static str, Language>> = LazyLock::new(|| {
    FILES
        .iter()
        .filter_map(|(code, text)| match parse(text) {
            Ok(l) => Some((*code, l)),
            // The tests parse every file; a broken one falls back to English rather than
            // stopping every email.
            Err(e) => {
                tracing::error!(language = code, error = %e, "a wording file does not parse");
                None
            }
        })
        .collect()
});

/// The words of `code`, English for a language there are none of.
pub fn language(code: &str) -> &'static Language {
    LANGUAGES
        .get(code)
        .or_else(|| LANGUAGES.get("en"))
        .unwrap_or_else(|| {
            // English parses (a test checks it); this is only reached if it did not.
            static EMPTY: LazyLock<Language> = LazyLock::new(|| Language {
                layout: Layout {
                    link_hint: String::new(),
                    message_from: String::new(),
                    test_notice: "TEST".into(),
                    download_hint: String::new(),
                    powered_by: "Signet".into(),
                },
                kinds: Kind::ALL.map(|k| (k, Wording::default())).into(),
            });
            &EMPTY
        })
}

/// Whether a language is written right to left.
pub fn right_to_left(code: &str) -> bool {
    code == "ar"
}
