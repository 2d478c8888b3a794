//! The wizard: the questions whose answers make a `brief`, in each of Signet's 14 languages
//! (one word catalogue per language in `wizard/`), with the currencies a payment may use.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use crate::brief::TYPES;
use crate::types::{
    CurrencyOut, WizardOptionOut, WizardOptionOut as Opt, WizardOut, WizardQuestionOut,
};

const CATALOGUES: &[(&str, &str)] = &[
    ("en", include_str!("../wizard/en.json")),
    ("es", include_str!("../wizard/es.json")),
    ("fr", include_str!("../wizard/fr.json")),
    ("de", include_str!("../wizard/de.json")),
    ("pt", include_str!("../wizard/pt.json")),
    ("it", include_str!("../wizard/it.json")),
    ("nl", include_str!("../wizard/nl.json")),
    ("pl", include_str!("../wizard/pl.json")),
    ("tr", include_str!("../wizard/tr.json")),
    ("ru", include_str!("../wizard/ru.json")),
    ("ar", include_str!("../wizard/ar.json")),
    ("ja", include_str!("../wizard/ja.json")),
    ("zh", include_str!("../wizard/zh.json")),
    ("ko", include_str!("../wizard/ko.json")),
];

type Words = BTreeMap<String, String>;

fn catalogues() -> &'static BTreeMap<&'static str, Words> {
    static ALL: OnceLock<BTreeMap<&'static str, Words>> = OnceLock::new();
    ALL.get_or_init(|| {
        CATALOGUES
            .iter()
            .map(|(l, text)| (*l, serde_json::from_str(text).unwrap_or_default()))
            .collect()
    })
}

/// The wizard in `locale` (one of the 14 languages; English words fill any gap).
pub fn wizard(locale: &str) -> WizardOut {
    let all = catalogues();
    let en = &all["en"];
    let words = all.get(locale).unwrap_or(en);
    let w = |k: &str| -> String {
        words
            .get(k)
            .or_else(|| en.get(k))
            .cloned()
            .unwrap_or_else(|| k.to_string())
    };
    let opt = |value: &str, key: &str| Opt {
        value: value.into(),
        label: w(key),
    };
    let q = |key: &str,
             words: &str,
             answer: &str,
             required: bool,
             options: Vec<WizardOptionOut>,
             when: Option<&str>| {
        WizardQuestionOut {
            key: key.into(),
            ask: w(&format!("{words}.ask")),
            help: words_help(words).then(|| w(&format!("{words}.help"))),
            answer: answer.into(),
            required,
            options,
            when: when.map(str::to_string),
        }
    };
    let yes_no = || vec![opt("true", "yes"), opt("false", "no")];
    WizardOut {
        locale: if all.contains_key(locale) {
            locale
        } else {
            "en"
        }
        .to_string(),
        questions: vec![
            q(
                "type",
                "type",
                "choice",
                true,
                TYPES
                    .iter()
                    .map(|(t, _)| opt(t, &format!("type.{t}")))
                    .collect(),
                None,
            ),
            q(
                "kind",
                "kind",
                "choice",
                true,
                vec![
                    opt("document", "kind.document"),
                    opt("template", "kind.template"),
                ],
                None,
            ),
            q("answers.parties", "parties", "parties", false, vec![], None),
            q("answers.terms", "terms", "text", false, vec![], None),
            q("answers.law", "law", "text", false, vec![], None),
            q("payment.collect", "collect", "yes_no", true, yes_no(), None),
            q(
                "payment.amount",
                "amount",
                "amount",
                true,
                vec![],
                Some("payment.collect"),
            ),
            q(
                "payment.currency",
                "currency",
                "currency",
                true,
                vec![],
                Some("payment.collect"),
            ),
            q(
                "payment.payer_role",
                "payer",
                "role",
                true,
                vec![],
                Some("payment.collect"),
            ),
            q(
                "payment.description",
                "description",
                "text",
                true,
                vec![],
                Some("payment.collect"),
            ),
            q(
                "payment.schedule_note",
                "schedule",
                "text",
                false,
                vec![],
                Some("payment.collect"),
            ),
            q("final", "final", "text", false, vec![], None),
        ],
        currencies: signet_core::currencies::CURRENCIES
            .iter()
            .map(|(code, decimals, name)| CurrencyOut {
                currency: code.to_string(),
                decimals: *decimals as i32,
                name: name.to_string(),
            })
            .collect(),
    }
}

fn words_help(words: &str) -> bool {
    !matches!(words, "currency" | "payer")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_has_every_word() {
        let all = catalogues();
        let en = &all["en"];
        for (l, _) in CATALOGUES {
            let words = &all[l];
            assert_eq!(words.len(), en.len(), "{l} has {} words", words.len());
            for (k, v) in en {
                let theirs = &words[k];
                assert!(!theirs.trim().is_empty(), "{l} {k}");
                if *l != "en" && k != "yes" && k != "no" && v.len() > 12 {
                    assert_ne!(theirs, v, "{l} {k} is not translated");
                }
            }
        }
        assert_eq!(CATALOGUES.len(), signet_core::languages::LANGUAGES.len());
    }
}
