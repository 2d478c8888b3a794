//! Composing an email: wording with `{{variables}}` and the values of one message become a
//! subject, a preview line, a plain-text body and an HTML body.
//!
//! Wording is parsed into text and variables before any value is seen, so a value is never
//! read as wording: `{{...}}` inside a person's name stays text, and in the HTML every value
//! and every word of the wording is escaped on its way out. A body is paragraphs separated by
//! blank lines; a paragraph that uses a variable with no value (no decline reason, no last
//! day) is left out whole rather than sent half-finished.

use std::collections::BTreeMap;

use super::Kind;
use super::wording::{self, Layout, Wording};
use signet_core::DomainError;

/// A piece of parsed wording.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seg {
    Text(String),
    Var(&'static str),
}

/// Parses `text` as wording of `kind`; an unknown variable, or one of another kind, is an
/// error naming it and `field`.
pub fn parse(kind: Kind, field: &str, text: &str) -> Result<Vec<Seg>, DomainError> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find("{{") {
        if open > 0 {
            out.push(Seg::Text(rest[..open].to_string()));
        }
        let after = &rest[open + 2..];
        let Some(close) = after.find("}}") else {
            return Err(DomainError::invalid(
                field,
                "has '{{' with no '}}' to close it; write variables like {{document.title}}",
            ));
        };
        let name = after[..close].trim();
        let Some(var) = kind.variable(name) else {
            let owner = Kind::ALL.into_iter().find(|k| k.variable(name).is_some());
            let why = match owner {
                Some(k) => format!(
                    "uses {{{{{name}}}}}, a variable of {} emails, not of {} emails",
                    k.as_str(),
                    kind.as_str()
                ),
                None => format!("uses the unknown variable {{{{{name}}}}}"),
            };
            return Err(DomainError::invalid(
                field,
                format!(
                    "{why}; {} emails accept {}",
                    kind.as_str(),
                    kind.variables()
                        .iter()
                        .map(|v| format!("{{{{{v}}}}}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        };
        out.push(Seg::Var(var));
        rest = &after[close + 2..];
    }
    if !rest.is_empty() {
        out.push(Seg::Text(rest.to_string()));
    }
    Ok(out)
}

/// The values of one message, by variable.
pub type Values = BTreeMap<&'static str, String>;

/// What is laid around the wording of one message.
#[derive(Clone, Debug, Default)]
pub struct Extras {
    /// The email of a test document: a notice at the top.
    pub test: bool,
    /// The person's own link, shown as the button.
    pub action_url: Option<String>,
    /// A download link replacing an attachment too large to send.
    pub download_url: Option<String>,
    /// The sender's message, shown under the body unless the body places it.
    pub message: Option<String>,
}

/// A composed message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Composed {
    pub subject: String,
    pub preview: String,
    pub text: String,
    pub html: String,
}

/// Wording of one kind, parsed.
pub struct Parsed {
    pub subject: Vec<Seg>,
    pub preview: Vec<Seg>,
    /// Paragraphs.
    pub body: Vec<Vec<Seg>>,
    pub button_label: Vec<Seg>,
    pub footer: Vec<Seg>,
}

impl Parsed {
    pub fn new(kind: Kind, w: &Wording) -> Result<Parsed, DomainError> {
        let body = paragraphs(&w.body)
            .iter()
            .map(|p| parse(kind, "body", p))
            .collect::<Result<_, _>>()?;
        Ok(Parsed {
            subject: parse(kind, "subject", &w.subject)?,
            preview: parse(kind, "preview", &w.preview)?,
            body,
            button_label: parse(kind, "buttonLabel", &w.button_label)?,
            footer: parse(kind, "footer", &w.footer)?,
        })
    }

    fn uses(&self, var: &str) -> bool {
        self.body
            .iter()
            .flatten()
            .any(|s| matches!(s, Seg::Var(v) if *v == var))
    }
}

fn paragraphs(body: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur: Vec<&str> = Vec::new();
    let body = body.replace("\r\n", "\n");
    for line in body.lines() {
        let line = line.trim_end();
        if line.trim().is_empty() {
            if !cur.is_empty() {
                out.push(cur.join("\n"));
                cur.clear();
            }
        } else {
            cur.push(line);
        }
    }
    if !cur.is_empty() {
        out.push(cur.join("\n"));
    }
    out
}

fn value<'a>(values: &'a Values, v: &str) -> &'a str {
    values.get(v).map(String::as_str).unwrap_or_default()
}

/// One line: newlines and control characters become spaces (a subject is a header).
fn line(segs: &[Seg], values: &Values) -> String {
    let mut s = String::new();
    for seg in segs {
        match seg {
            Seg::Text(t) => s.push_str(t),
            Seg::Var(v) => s.push_str(value(values, v)),
        }
    }
    // Runs of spaces and control characters become one space; a no-break space is the
    // language's typography (French « … », 10 min) and stays.
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        let c = if c.is_control() { ' ' } else { c };
        if c == ' ' && (out.is_empty() || out.ends_with(' ')) {
            continue;
        }
        out.push(c);
    }
    out.trim_end_matches(' ').to_string()
}

/// A line of the layout (which may name the common variables).
fn layout_line(s: &str, values: &Values) -> String {
    match parse(Kind::Invitation, "layout", s) {
        Ok(segs) => line(&segs, values),
        Err(_) => s.to_string(),
    }
}

/// The paragraphs whose every variable has a value.
fn kept<'a>(body: &'a [Vec<Seg>], values: &Values) -> Vec<&'a Vec<Seg>> {
    body.iter()
        .filter(|p| {
            p.iter().all(|s| match s {
                Seg::Var(v) => !value(values, v).trim().is_empty(),
                Seg::Text(_) => true,
            })
        })
        .collect()
}

pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Escaped text with its line breaks kept.
fn html_lines(s: &str) -> String {
    escape(s).replace('\n', "<br>\n")
}

fn paragraph_html(p: &[Seg], values: &Values) -> String {
    let mut s = String::new();
    for seg in p {
        match seg {
            Seg::Text(t) => s.push_str(&html_lines(t)),
            Seg::Var("action.url") => {
                let url = escape(value(values, "action.url"));
                s.push_str(&format!(
                    r#"<a href="{url}" style="color:#1d4ed8">{url}</a>"#
                ));
            }
            // A value keeps its own direction: a Latin name in an Arabic sentence, or the
            // reverse, is not reordered by the text around it.
            Seg::Var(v) => {
                s.push_str("<bdi>");
                s.push_str(&html_lines(value(values, v)));
                s.push_str("</bdi>");
            }
        }
    }
    s
}

fn paragraph_text(p: &[Seg], values: &Values) -> String {
    let mut s = String::new();
    for seg in p {
        match seg {
            Seg::Text(t) => s.push_str(t),
            Seg::Var(v) => s.push_str(value(values, v)),
        }
    }
    s
}

/// The subject as the email log keeps it: a code or a link in it is replaced by dots, so the
/// log never holds either.
pub fn logged_subject(w: &Parsed, values: &Values) -> String {
    let mut masked = values.clone();
    for secret in ["code.value", "action.url"] {
        masked.insert(secret, "•••".into());
    }
    line(&w.subject, &masked)
}

/// Composes a message of `kind` in `lang` from wording already merged (standard, saved,
/// the document's own) and the message's values.
pub fn compose(kind: Kind, lang: &str, w: &Parsed, values: &Values, extras: &Extras) -> Composed {
    let layout = &wording::language(lang).layout;
    let mut values = values.clone();
    if let Some(url) = &extras.action_url {
        values.insert("action.url", url.clone());
    }
    if let Some(m) = &extras.message {
        values.insert("document.message", m.clone());
    }
    let subject = line(&w.subject, &values);
    let preview = line(&w.preview, &values);
    let button = line(&w.button_label, &values);
    let footer = line(&w.footer, &values);
    let body = kept(&w.body, &values);
    // The sender's message and the link go under the body unless the body places them.
    let message = extras
        .message
        .as_deref()
        .map(str::trim)
        .filter(|m| !m.is_empty() && !w.uses("document.message"));
    let action = extras.action_url.as_deref().filter(|_| kind.has_action());
    let link = action.or(extras.download_url.as_deref());
    let text = text_version(
        layout, extras, &body, &values, message, link, &button, &footer,
    );
    let html = html_version(
        lang,
        layout,
        extras,
        [&subject, &preview],
        &body,
        &values,
        message,
        link,
        &button,
        &footer,
    );
    Composed {
        subject,
        preview,
        text,
        html,
    }
}

#[allow(clippy::too_many_arguments)]
fn text_version(
    layout: &Layout,
    extras: &Extras,
    body: &[&Vec<Seg>],
    values: &Values,
    message: Option<&str>,
    link: Option<&str>,
    button: &str,
    footer: &str,
) -> String {
    let mut parts: Vec<String> = Vec::new();
    if extras.test {
        parts.push(layout.test_notice.clone());
    }
    parts.extend(body.iter().map(|p| paragraph_text(p, values)));
    if let Some(m) = message {
        let quoted: Vec<String> = m.lines().map(|l| format!("> {l}")).collect();
        parts.push(format!(
            "{}\n{}",
            layout_line(&layout.message_from, values),
            quoted.join("\n")
        ));
    }
    let in_body = body
        .iter()
        .flat_map(|p| p.iter())
        .any(|s| matches!(s, Seg::Var("action.url")));
    if let Some(url) = link
        && !in_body
    {
        parts.push(if button.is_empty() {
            url.to_string()
        } else {
            format!("{button}:\n{url}")
        });
        if extras.download_url.is_some() {
            parts.push(layout.download_hint.clone());
        }
    }
    parts.push(format!("-- \n{footer}\n{}", layout.powered_by));
    let mut s = parts.join("\n\n");
    s.push('\n');
    s
}

#[allow(clippy::too_many_arguments)]
fn html_version(
    lang: &str,
    layout: &Layout,
    extras: &Extras,
    [subject, preview]: [&str; 2],
    body: &[&Vec<Seg>],
    values: &Values,
    message: Option<&str>,
    link: Option<&str>,
    button: &str,
    footer: &str,
) -> String {
    let dir = if wording::right_to_left(lang) {
        "rtl"
    } else {
        "ltr"
    };
    let align = if dir == "rtl" { "right" } else { "left" };
    let mut h = String::with_capacity(4096);
    h.push_str(&format!(
        "<!DOCTYPE html>\n<html lang=\"{lang}\" dir=\"{dir}\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"color-scheme\" content=\"light\">\n<title>{}</title>\n</head>\n",
        escape(subject)
    ));
    h.push_str(&format!(
        "<body style=\"margin:0;padding:0;background:#f3f4f6;\">\n\
         <div style=\"display:none;max-height:0;overflow:hidden;opacity:0;\">{}</div>\n\
         <table role=\"presentation\" width=\"100%\" cellpadding=\"0\" cellspacing=\"0\" style=\"background:#f3f4f6;\"><tr><td align=\"center\" style=\"padding:24px 12px;\">\n\
         <table role=\"presentation\" width=\"100%\" cellpadding=\"0\" cellspacing=\"0\" style=\"max-width:560px;background:#ffffff;border-radius:8px;\" dir=\"{dir}\">\n",
        escape(preview)
    ));
    // Han characters are drawn differently in Chinese, Japanese and Korean: each language
    // asks for its own face first.
    let cjk = match lang {
        "zh" => "'PingFang SC','Microsoft YaHei','Noto Sans CJK SC',",
        "ko" => "'Apple SD Gothic Neo','Malgun Gothic','Noto Sans CJK KR',",
        "ja" => "'Hiragino Sans','Yu Gothic','Noto Sans CJK JP',",
        _ => "",
    };
    let font = format!(
        "font-family:{cjk}-apple-system,'Segoe UI',Roboto,'Noto Sans','Noto Sans Arabic',Arial,sans-serif;"
    );
    let font = font.as_str();
    if extras.test {
        h.push_str(&format!(
            "<tr><td style=\"padding:12px 32px;background:#fef3c7;color:#92400e;border-radius:8px 8px 0 0;{font}font-size:14px;text-align:{align};\">{}</td></tr>\n",
            escape(&layout.test_notice)
        ));
    }
    // Who it is from, first: the name a reader knows.
    h.push_str(&format!(
        "<tr><td style=\"padding:24px 32px 0;{font}font-size:13px;font-weight:600;letter-spacing:0.02em;color:#4b5563;text-align:{align};\"><bdi>{}</bdi></td></tr>\n",
        escape(value(values, "workspace.name"))
    ));
    h.push_str(&format!(
        "<tr><td style=\"padding:16px 32px 8px;{font}font-size:16px;line-height:1.55;color:#111827;text-align:{align};\">\n"
    ));
    for p in body {
        h.push_str(&format!(
            "<p style=\"margin:0 0 16px;\">{}</p>\n",
            paragraph_html(p, values)
        ));
    }
    if let Some(m) = message {
        h.push_str(&format!(
            "<p style=\"margin:0 0 6px;color:#4b5563;\">{}</p>\n\
             <blockquote dir=\"auto\" style=\"margin:0 0 16px;padding:8px 16px;border-{}:4px solid #d1d5db;color:#111827;\">{}</blockquote>\n",
            html_lines(&layout_line(&layout.message_from, values)),
            if dir == "rtl" { "right" } else { "left" },
            html_lines(m)
        ));
    }
    h.push_str("</td></tr>\n");
    if let Some(url) = link {
        let url = escape(url);
        if !button.is_empty() {
            h.push_str(&format!(
                "<tr><td align=\"center\" style=\"padding:8px 32px 24px;\">\
                 <a href=\"{url}\" style=\"display:inline-block;padding:12px 28px;background:#1d4ed8;color:#ffffff;text-decoration:none;border-radius:6px;{font}font-size:16px;font-weight:600;\">{}</a></td></tr>\n",
                escape(button)
            ));
        }
        let hint = if extras.download_url.is_some() {
            format!("{} ", escape(&layout.download_hint))
        } else {
            String::new()
        };
        h.push_str(&format!(
            "<tr><td style=\"padding:0 32px 24px;{font}font-size:13px;line-height:1.5;color:#6b7280;text-align:{align};\">{hint}{}<br>\
             <a href=\"{url}\" style=\"color:#1d4ed8;word-break:break-all;\">{url}</a></td></tr>\n",
            escape(&layout.link_hint)
        ));
    }
    h.push_str(&format!(
        "<tr><td style=\"padding:16px 32px 28px;border-top:1px solid #e5e7eb;{font}font-size:12px;line-height:1.5;color:#6b7280;text-align:{align};\">{}<br>{}</td></tr>\n\
         </table>\n</td></tr></table>\n</body>\n</html>\n",
        escape(footer),
        escape(&layout.powered_by)
    ));
    h
}
