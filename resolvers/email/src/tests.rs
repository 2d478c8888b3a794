//! The wording files and the composer.

use super::compose::{self, Parsed, Seg};
use super::templates::sample_values;
use super::{Kind, wording};
use signet_core::languages::LANGUAGES;

fn variables_of(text: &str) -> std::collections::BTreeSet<String> {
    let mut out = std::collections::BTreeSet::new();
    let mut rest = text;
    while let Some(i) = rest.find("{{") {
        let after = &rest[i + 2..];
        let Some(j) = after.find("}}") else { break };
        out.insert(after[..j].trim().to_string());
        rest = &after[j + 2..];
    }
    out
}

#[test]
fn every_language_file_parses_and_uses_the_english_variables() {
    assert_eq!(wording::FILES.len(), LANGUAGES.len());
    let en = wording::parse(wording::FILES[0].1).unwrap();
    for (code, text) in wording::FILES {
        assert!(LANGUAGES.contains(&code), "{code}");
        let lang = wording::parse(text).unwrap_or_else(|e| panic!("{code}: {e}"));
        for kind in Kind::ALL {
            let (w, e) = (lang.wording(kind), en.wording(kind));
            for (field, a, b) in [
                ("subject", &w.subject, &e.subject),
                ("preview", &w.preview, &e.preview),
                ("body", &w.body, &e.body),
                ("button_label", &w.button_label, &e.button_label),
                ("footer", &w.footer, &e.footer),
            ] {
                assert_eq!(
                    variables_of(a),
                    variables_of(b),
                    "{code} {} {field}",
                    kind.as_str()
                );
                assert_eq!(
                    a.is_empty(),
                    b.is_empty(),
                    "{code} {} {field}",
                    kind.as_str()
                );
                // Every variable is one this kind accepts.
                Parsed::new(kind, w).unwrap_or_else(|e| panic!("{code} {}: {e}", kind.as_str()));
            }
            if code != "en" {
                assert_ne!(w.body, e.body, "{code} {} is not written", kind.as_str());
            }
        }
    }
}

#[test]
fn every_kind_in_every_language_is_composed_with_nothing_left_unreplaced() {
    for code in LANGUAGES {
        for kind in Kind::ALL {
            let w = wording::language(code).wording(kind);
            let parsed = Parsed::new(kind, w).unwrap();
            let (values, mut extras) = sample_values(kind, code);
            extras.test = true;
            let c = compose::compose(kind, code, &parsed, &values, &extras);
            for (part, text) in [
                ("subject", &c.subject),
                ("preview", &c.preview),
                ("text", &c.text),
                ("html", &c.html),
            ] {
                assert!(
                    !text.contains("{{") && !text.contains("}}"),
                    "{code} {} {part}: {text}",
                    kind.as_str()
                );
                assert!(!text.trim().is_empty(), "{code} {} {part}", kind.as_str());
            }
            assert!(c.text.contains("Ada Lovelace"), "{code} {}", kind.as_str());
            assert!(c.html.contains(&format!("lang=\"{code}\"")));
            let dir = if *code == "ar" { "rtl" } else { "ltr" };
            assert!(c.html.contains(&format!("dir=\"{dir}\"")), "{code}");
            assert!(c.text.contains(&wording::language(code).layout.test_notice));
            if kind.has_action() {
                let url = extras.action_url.clone().unwrap();
                assert!(c.text.contains(&url), "{code} {}", kind.as_str());
                assert!(c.html.contains(&format!("href=\"{url}\"")));
                let label = compose::escape(&w.button_label);
                assert!(c.html.contains(&label), "{code} {} button", kind.as_str());
            }
        }
    }
}

#[test]
fn values_are_text_and_escaped_whatever_they_hold() {
    let kind = Kind::Invitation;
    let parsed = Parsed::new(kind, wording::language("en").wording(kind)).unwrap();
    let (mut values, extras) = sample_values(kind, "en");
    values.insert(
        "person.name",
        "<script>alert(1)</script> {{code.value}}".into(),
    );
    values.insert("document.title", "Q&A \"draft\"\nSubject: injected".into());
    let c = compose::compose(kind, "en", &parsed, &values, &extras);
    assert!(!c.html.contains("<script>"));
    assert!(
        c.html
            .contains("&lt;script&gt;alert(1)&lt;/script&gt; {{code.value}}")
    );
    assert!(c.html.contains("Q&amp;A &quot;draft&quot;"));
    // A header stays one line.
    assert!(!c.subject.contains('\n'), "{}", c.subject);
    assert!(c.subject.contains("Q&A \"draft\" Subject: injected"));
}

#[test]
fn wording_is_refused_for_a_variable_of_another_kind_or_none() {
    let e = compose::parse(Kind::Invitation, "body", "Your code: {{code.value}}").unwrap_err();
    let m = e.to_string();
    assert!(
        m.contains("body") && m.contains("{{code.value}}") && m.contains("code emails"),
        "{m}"
    );
    let e = compose::parse(Kind::Voided, "subject", "{{ document.nme }}").unwrap_err();
    assert!(
        e.to_string().contains("unknown variable {{document.nme}}"),
        "{e}"
    );
    let e = compose::parse(Kind::Voided, "footer", "{{document.title").unwrap_err();
    assert!(e.to_string().contains("footer"), "{e}");
    assert_eq!(
        compose::parse(Kind::Voided, "subject", "{{ void.reason }}!").unwrap(),
        vec![Seg::Var("void.reason"), Seg::Text("!".into())]
    );
}

#[test]
fn a_paragraph_with_an_empty_value_is_left_out_and_the_link_follows_a_body_without_it() {
    let kind = Kind::Voided;
    let parsed = Parsed::new(kind, wording::language("en").wording(kind)).unwrap();
    let (mut values, extras) = sample_values(kind, "en");
    values.insert("void.reason", String::new());
    let c = compose::compose(kind, "en", &parsed, &values, &extras);
    assert!(!c.text.contains("Reason given"), "{}", c.text);
    assert!(c.text.contains("has cancelled"));

    let kind = Kind::Invitation;
    let mut w = wording::language("en").wording(kind).clone();
    w.body = "Hello {{person.name}}, please sign.".into();
    let parsed = Parsed::new(kind, &w).unwrap();
    let (values, extras) = sample_values(kind, "en");
    let c = compose::compose(kind, "en", &parsed, &values, &extras);
    let url = extras.action_url.unwrap();
    assert!(
        c.text.contains(&format!("Review and sign:\n{url}")),
        "{}",
        c.text
    );
    // The sender's message is shown under a body that does not place it.
    assert!(
        c.text.contains("> Hi Ada, here is the agreement"),
        "{}",
        c.text
    );
}

/// The application's emails: every language of `send.language` has both, with exactly the
/// English file's variables, and the words fill in without leaving a `{{`.
#[test]
fn the_application_emails_speak_every_language_with_the_same_variables() {
    use crate::people::{Words, fill, languages};
    fn all(w: &Words) -> std::collections::BTreeSet<String> {
        [&w.subject, &w.preview, &w.body, &w.button_label, &w.footer]
            .iter()
            .flat_map(|t| variables_of(t))
            .collect()
    }
    let langs = languages().expect("wording/people.toml parses");
    let codes: Vec<&str> = langs.keys().map(String::as_str).collect();
    let mut want: Vec<&str> = signet_core::languages::LANGUAGES.to_vec();
    want.sort();
    assert_eq!(codes, want);
    let en = &langs["en"];
    let values = [
        ("person.name", "P"),
        ("workspace.name", "W"),
        ("inviter.name", "I"),
        ("role", "R"),
        ("minutes", "15"),
        ("days", "3"),
    ];
    for (code, l) in &langs {
        for (kind, w, e) in [
            ("sign_in", &l.sign_in, &en.sign_in),
            ("invited", &l.invited, &en.invited),
        ] {
            assert_eq!(all(w), all(e), "{code}.{kind} uses other variables");
            for t in [&w.subject, &w.body, &w.footer] {
                assert!(!fill(t, &values).contains("{{"), "{code}.{kind}: {t}");
            }
        }
    }
    // A value is never read as wording.
    assert_eq!(
        fill("Hi {{person.name}}", &[("person.name", "{{role}}")]),
        "Hi {{role}}"
    );
}
