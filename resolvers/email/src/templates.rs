//! A workspace's saved wording: per kind and language, each of the five fields either saved
//! or left to the standard wording (blank or null). Shared by both modes: wording practised
//! with a test key is the wording live documents go out with.

use sea_orm::{ConnectionTrait, Value};
use serde::{Deserialize, Serialize};

use super::Kind;
use super::compose::{self, Composed, Extras, Parsed, Values};
use super::wording::{self, Wording};
use signet_core::rules::{self, Validate};
use signet_core::{Actor, Ctx, DomainError, Scope};

/// Saved wording of one kind: every field optional, blank or null meaning the standard words.
#[derive(
    Clone,
    Debug,
    Default,
    Deserialize,
    Serialize,
    Validate,
    utoipa::ToSchema,
    async_graphql::InputObject,
)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[graphql(name = "EmailWordingInput")]
pub struct EmailWordingIn {
    /// One of the 14 languages of `send.language`; English when left out.
    #[serde(default)]
    pub locale: Option<String>,
    #[serde(default)]
    #[validate(custom(function = rules::blank_or_line::<200>))]
    pub subject: Option<String>,
    /// The preview line mail clients show beside the subject.
    #[serde(default)]
    #[validate(custom(function = rules::blank_or_line::<300>))]
    pub preview: Option<String>,
    /// Plain text; a blank line starts a paragraph. The button and the link are added after
    /// it unless it places `{{action.url}}` itself.
    #[serde(default)]
    #[validate(custom(function = rules::blank_or_text::<10_000>))]
    pub body: Option<String>,
    #[serde(default)]
    #[validate(custom(function = rules::blank_or_line::<60>))]
    pub button_label: Option<String>,
    #[serde(default)]
    #[validate(custom(function = rules::blank_or_text::<1_000>))]
    pub footer: Option<String>,
}

/// Five fields of wording.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct EmailWordingOut {
    pub subject: Option<String>,
    pub preview: Option<String>,
    pub body: Option<String>,
    pub button_label: Option<String>,
    pub footer: Option<String>,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct EmailVariableOut {
    /// Written `{{name}}` in wording.
    pub name: String,
    pub description: String,
}

/// One kind's wording in one language: what goes out, the standard words, what is saved.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct EmailTemplateOut {
    /// invitation, reminder, completed, declined, voided, expired, code or receipt.
    pub kind: String,
    pub locale: String,
    /// The words emails of this kind go out with: the saved field, else the standard one.
    pub subject: String,
    pub preview: String,
    pub body: String,
    pub button_label: String,
    pub footer: String,
    pub standard: EmailWordingOut,
    /// The saved fields; null when nothing is saved for this kind and language.
    pub saved: Option<EmailWordingOut>,
    /// The variables this kind accepts; any other is refused.
    pub variables: Vec<EmailVariableOut>,
    /// When the saved wording was last changed.
    pub updated_at: Option<String>,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct EmailTemplatesOut {
    pub locale: String,
    /// The eight kinds, in the spec's order.
    pub data: Vec<EmailTemplateOut>,
}

/// An email rendered from wording with made-up names.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct EmailPreviewOut {
    pub kind: String,
    pub locale: String,
    pub subject: String,
    /// The preview line.
    pub preview: String,
    /// The plain-text body.
    pub body: String,
    /// The HTML body.
    pub html: String,
}

const FIELDS: [&str; 5] = ["subject", "preview", "body", "buttonLabel", "footer"];

/// The saved fields of a request: their rules (`EmailWordingIn`) checked, then their
/// variables (of this kind only).
fn parse_in(kind: Kind, body: &EmailWordingIn) -> Result<[Option<String>; 5], DomainError> {
    rules::check(body)?;
    let given = [
        &body.subject,
        &body.preview,
        &body.body,
        &body.button_label,
        &body.footer,
    ];
    let mut out: [Option<String>; 5] = Default::default();
    for (i, (field, v)) in FIELDS.iter().zip(given).enumerate() {
        let v = signet_core::fields::trimmed(v);
        if let Some(v) = &v {
            let segs = compose::parse(kind, field, v)?;
            if *field == "subject" && segs.contains(&compose::Seg::Var("action.url")) {
                return Err(DomainError::invalid(
                    field,
                    "may not hold {{action.url}}: a subject is shown in the email log, and a person's link is only theirs",
                ));
            }
        }
        out[i] = v;
    }
    Ok(out)
}

fn merged(standard: &Wording, saved: &[Option<String>; 5]) -> Wording {
    let pick = |i: usize, s: &String| saved[i].clone().unwrap_or_else(|| s.clone());
    Wording {
        subject: pick(0, &standard.subject),
        preview: pick(1, &standard.preview),
        body: pick(2, &standard.body),
        button_label: pick(3, &standard.button_label),
        footer: pick(4, &standard.footer),
    }
}

fn wording_out(w: &[Option<String>; 5]) -> EmailWordingOut {
    EmailWordingOut {
        subject: w[0].clone(),
        preview: w[1].clone(),
        body: w[2].clone(),
        button_label: w[3].clone(),
        footer: w[4].clone(),
    }
}

/// What is saved for a workspace's kinds in one language.
async fn saved(
    ctx: &Ctx,
    workspace_id: &str,
    kind: Option<Kind>,
    locale: &str,
) -> Result<Vec<(Kind, [Option<String>; 5], i64)>, DomainError> {
    let mut values = vec![
        Value::from(workspace_id.to_string()),
        Value::from(locale.to_string()),
    ];
    let mut sql = "SELECT kind, subject, preview, body, button_label, footer, updated_at FROM email_templates \
                   WHERE workspace_id = $1 AND locale = $2"
        .to_string();
    if let Some(k) = kind {
        sql.push_str(" AND kind = $3");
        values.push(Value::from(k.as_str()));
    }
    let rows = ctx.db.conn.query_all_raw(ctx.db.stmt(&sql, values)).await?;
    let mut out = Vec::new();
    for r in rows {
        let Some(kind) = Kind::parse(&r.try_get::<String>("", "kind")?) else {
            continue;
        };
        let f = |c: &str| r.try_get::<Option<String>>("", c);
        out.push((
            kind,
            [
                f("subject")?,
                f("preview")?,
                f("body")?,
                f("button_label")?,
                f("footer")?,
            ],
            r.try_get::<i64>("", "updated_at")?,
        ));
    }
    Ok(out)
}

/// The wording emails of `kind` in `locale` go out with for a workspace: saved, else standard.
pub async fn effective(
    ctx: &Ctx,
    workspace_id: &str,
    kind: Kind,
    locale: &str,
) -> Result<Wording, DomainError> {
    let standard = wording::language(locale).wording(kind);
    let saved = saved(ctx, workspace_id, Some(kind), locale).await?;
    Ok(match saved.first() {
        Some((_, fields, _)) => merged(standard, fields),
        None => standard.clone(),
    })
}

fn template_out(
    kind: Kind,
    locale: &str,
    saved: Option<&([Option<String>; 5], i64)>,
) -> EmailTemplateOut {
    let standard = wording::language(locale).wording(kind);
    let none: [Option<String>; 5] = Default::default();
    let fields = saved.map(|s| &s.0).unwrap_or(&none);
    let w = merged(standard, fields);
    let std_fields = [
        Some(standard.subject.clone()),
        Some(standard.preview.clone()),
        Some(standard.body.clone()),
        Some(standard.button_label.clone()),
        Some(standard.footer.clone()),
    ];
    EmailTemplateOut {
        kind: kind.as_str().into(),
        locale: locale.into(),
        subject: w.subject,
        preview: w.preview,
        body: w.body,
        button_label: w.button_label,
        footer: w.footer,
        standard: wording_out(&std_fields),
        saved: saved.map(|s| wording_out(&s.0)),
        variables: kind
            .variables()
            .into_iter()
            .map(|v| EmailVariableOut {
                name: v.into(),
                description: Kind::describe(v).into(),
            })
            .collect(),
        updated_at: saved.map(|s| signet_core::clock::time(s.1)),
    }
}

/// GET /email-templates
pub async fn list(
    ctx: &Ctx,
    actor: &Actor,
    locale: Option<&str>,
) -> Result<EmailTemplatesOut, DomainError> {
    actor.require(Scope::NotificationsRead)?;
    let locale = signet_core::languages::locale("locale", locale)?;
    let saved = saved(ctx, &actor.workspace_id, None, &locale).await?;
    Ok(EmailTemplatesOut {
        data: Kind::ALL
            .iter()
            .map(|k| {
                let s = saved.iter().find(|s| s.0 == *k).map(|s| (s.1.clone(), s.2));
                template_out(*k, &locale, s.as_ref())
            })
            .collect(),
        locale,
    })
}

/// Saved wording is what live documents send: a test key (which acts only on test
/// documents) or a draft-only key may read and preview it, not change it.
fn may_change(actor: &Actor) -> Result<(), DomainError> {
    actor.require(Scope::NotificationsWrite)?;
    // A person's test/live switch chooses the documents they see; wording is the
    // workspace's in both, so an owner or admin changes it from either, and a live key even
    // while the workspace's test mode pins it. A test key never.
    if actor.is_test_key() {
        return Err(DomainError::Forbidden(
            "saved wording is what live documents send: change it with a live key (a test key may preview it)".into(),
        ));
    }
    if actor.draft_only {
        return Err(DomainError::Forbidden(
            "this key is draft-only: it cannot change the wording emails go out with".into(),
        ));
    }
    Ok(())
}

/// PUT /email-templates/{kind}
pub async fn save(
    ctx: &Ctx,
    actor: &Actor,
    kind: &str,
    body: EmailWordingIn,
) -> Result<EmailTemplateOut, DomainError> {
    may_change(actor)?;
    let kind = Kind::parse_field("kind", kind)?;
    let locale = signet_core::languages::locale("locale", body.locale.as_deref())?;
    let fields = parse_in(kind, &body)?;
    if fields.iter().all(Option::is_none) {
        return remove(ctx, actor, kind.as_str(), Some(&locale)).await;
    }
    let now = ctx.now();
    let mut values = vec![
        Value::from(actor.workspace_id.clone()),
        Value::from(kind.as_str()),
        Value::from(locale.clone()),
    ];
    values.extend(fields.iter().map(|f| Value::from(f.clone())));
    values.push(Value::from(now));
    ctx.db
        .write(ctx.db.stmt(
            "INSERT INTO email_templates (workspace_id, kind, locale, subject, preview, body, button_label, footer, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) \
             ON CONFLICT (workspace_id, kind, locale) DO UPDATE SET subject = excluded.subject, preview = excluded.preview, \
             body = excluded.body, button_label = excluded.button_label, footer = excluded.footer, updated_at = excluded.updated_at",
            values,
        ))
        .await?;
    let changed: Vec<&str> = FIELDS
        .iter()
        .zip(&fields)
        .filter_map(|(f, v)| v.as_ref().map(|_| *f))
        .collect();
    let detail = format!("{locale}: {}", changed.join(", "));
    signet_accounts::activity::record(
        &ctx.db.conn,
        ctx,
        actor,
        None,
        "email.wording_saved",
        kind.as_str(),
        &detail,
    )
    .await?;
    Ok(template_out(kind, &locale, Some(&(fields, now))))
}

/// DELETE /email-templates/{kind}
pub async fn remove(
    ctx: &Ctx,
    actor: &Actor,
    kind: &str,
    locale: Option<&str>,
) -> Result<EmailTemplateOut, DomainError> {
    may_change(actor)?;
    let kind = Kind::parse_field("kind", kind)?;
    let locale = signet_core::languages::locale("locale", locale)?;
    let gone = ctx
        .db
        .write(ctx.db.stmt(
            "DELETE FROM email_templates WHERE workspace_id = $1 AND kind = $2 AND locale = $3",
            [
                Value::from(actor.workspace_id.clone()),
                Value::from(kind.as_str()),
                Value::from(locale.clone()),
            ],
        ))
        .await?;
    if gone > 0 {
        signet_accounts::activity::record(
            &ctx.db.conn,
            ctx,
            actor,
            None,
            "email.wording_reset",
            kind.as_str(),
            &locale,
        )
        .await?;
    }
    Ok(template_out(kind, &locale, None))
}

/// Made-up values for a preview, in the preview's language where it matters.
pub fn sample_values(kind: Kind, locale: &str) -> (Values, Extras) {
    let day = |iso: &str| signet_documents::dates::localized(iso, locale).unwrap_or(iso.into());
    let mut v = Values::new();
    v.insert("document.title", "Consulting Agreement".into());
    v.insert("person.name", "Ada Lovelace".into());
    v.insert("sender.name", "Grace Hopper".into());
    v.insert("workspace.name", "Analytical Engines Ltd".into());
    v.insert("document.expiresAt", day("2026-12-31"));
    v.insert("document.completedAt", day("2026-12-01"));
    v.insert("decliner.name", "Charles Babbage".into());
    v.insert(
        "decline.reason",
        "The fee in section 4 is not what we agreed.".into(),
    );
    v.insert("void.reason", "A corrected version will follow.".into());
    v.insert("code.value", "482 913".into());
    v.insert("code.minutes", "10".into());
    v.insert("payment.amount", "USD 250.00".into());
    v.insert("payment.description", "Deposit".into());
    v.insert("payment.paidAt", day("2026-12-01"));
    let extras = Extras {
        test: false,
        action_url: kind
            .has_action()
            .then(|| "https://sign.example.com/s/EXAMPLE-LINK-NOT-REAL".to_string()),
        download_url: None,
        message: matches!(kind, Kind::Invitation | Kind::Reminder)
            .then(|| "Hi Ada, here is the agreement we discussed. Thank you!".to_string()),
    };
    (v, extras)
}

/// POST /email-templates/{kind}/preview: the saved wording with the body's fields over it,
/// rendered with made-up names. Nothing is saved.
pub async fn preview(
    ctx: &Ctx,
    actor: &Actor,
    kind: &str,
    body: EmailWordingIn,
) -> Result<EmailPreviewOut, DomainError> {
    actor.require(Scope::NotificationsRead)?;
    let kind = Kind::parse_field("kind", kind)?;
    let locale = signet_core::languages::locale("locale", body.locale.as_deref())?;
    let fields = parse_in(kind, &body)?;
    let base = effective(ctx, &actor.workspace_id, kind, &locale).await?;
    let w = merged(&base, &fields);
    let parsed = Parsed::new(kind, &w)?;
    let (values, extras) = sample_values(kind, &locale);
    let Composed {
        subject,
        preview,
        text,
        html,
    } = compose::compose(kind, &locale, &parsed, &values, &extras);
    Ok(EmailPreviewOut {
        kind: kind.as_str().into(),
        locale,
        subject,
        preview,
        body: text,
        html,
    })
}
