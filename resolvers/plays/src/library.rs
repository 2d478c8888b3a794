//! The workspace's plays beside the built-in ones: saving immutable versions, listing,
//! reading, publishing, archiving, duplicating, and the dry run.

use std::collections::BTreeMap;

use sea_orm::{ConnectionTrait, Value};
use signet_core::clock::time;
use signet_core::{Actor, Ctx, DomainError, Scope};
use signet_storage::Sql;

use crate::access::allow;
use crate::builtin;
use crate::header::{Header, Problem, Question};
use crate::play::{self, Play};
use crate::types::*;
use signet_documents::types::PersonIn;

/// Versions one play keeps.
pub const MAX_VERSIONS: i64 = 100;
/// Plays a workspace keeps (archived ones not counted).
pub const MAX_PLAYS: i64 = 200;

pub(crate) fn not_found(name: &str) -> DomainError {
    DomainError::NotFound(format!("no play named '{}'", clip(name)))
}

fn clip(s: &str) -> String {
    s.chars().take(64).collect()
}

/// The problems as one 400: the first with where it is, and how many more.
pub(crate) fn problems_error(field: &str, problems: &[Problem]) -> DomainError {
    let p = &problems[0];
    let more = match problems.len() {
        1 => String::new(),
        n => format!(
            " (and {} more; POST /api/v1/plays/test lists them all)",
            n - 1
        ),
    };
    DomainError::invalid(
        field,
        format!(
            "line {}, column {} ({}): {}; {}{more}",
            p.line, p.column, p.key, p.message, p.hint
        ),
    )
}

pub(crate) fn seats_out(h: &Header) -> Vec<PlaySeatOut> {
    h.seats
        .iter()
        .map(|s| PlaySeatOut {
            role: s.role.clone(),
            label: s.label.clone(),
            order: s.order.map(i64::from),
        })
        .collect()
}

pub(crate) fn question_out(q: &Question) -> PlayQuestionOut {
    PlayQuestionOut {
        id: q.id.clone(),
        ask: q.ask.clone(),
        options: q
            .options
            .iter()
            .map(|o| PlayOptionOut {
                value: o.value.clone(),
                label: o.label.clone(),
            })
            .collect(),
        default: q.default.clone(),
        when: q
            .when
            .iter()
            .map(|(q, v)| PlayConditionOut {
                question: q.clone(),
                values: v.clone(),
            })
            .collect(),
    }
}

fn problem_out(p: &Problem) -> PlayProblemOut {
    PlayProblemOut {
        key: p.key.clone(),
        line: p.line as i64,
        column: p.column as i64,
        message: p.message.clone(),
        hint: p.hint.clone(),
    }
}

/// Reads a play file off the request threads (a 256 KB file takes a few milliseconds).
async fn read_file(source: String) -> Result<(String, Result<Play, Vec<Problem>>), DomainError> {
    signet_core::blocking(move || {
        let out = play::read(&source);
        (source, out)
    })
    .await
    .map_err(|e| DomainError::Internal(format!("reading a play: {e}")))
}

/// A stored play's row.
struct Row {
    latest: i64,
    published: Option<i64>,
    archived: bool,
}

async fn row<C: ConnectionTrait>(
    conn: &C,
    ctx: &Ctx,
    workspace: &str,
    name: &str,
) -> Result<Option<Row>, DomainError> {
    let r = conn
        .query_one_raw(ctx.db.stmt(
            "SELECT latest, published, archived FROM plays WHERE workspace_id = $1 AND name = $2",
            [
                Value::from(workspace.to_string()),
                Value::from(name.to_string()),
            ],
        ))
        .await?;
    Ok(match r {
        None => None,
        Some(r) => Some(Row {
            latest: r.try_get::<i32>("", "latest")? as i64,
            published: r.try_get::<Option<i32>>("", "published")?.map(i64::from),
            archived: r.try_get("", "archived")?,
        }),
    })
}

/// One version's file.
pub(crate) async fn version_source(
    ctx: &Ctx,
    workspace: &str,
    name: &str,
    version: i64,
) -> Result<Option<String>, DomainError> {
    let r = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT source FROM play_versions WHERE workspace_id = $1 AND name = $2 AND version = $3",
            [
                Value::from(workspace.to_string()),
                Value::from(name.to_string()),
                Value::from(version as i32),
            ],
        ))
        .await?;
    Ok(match r {
        Some(r) => Some(r.try_get("", "source")?),
        None => None,
    })
}

/// The play drafts use under `name`: a built-in one, or the workspace's published version
/// (not archived). Answers the play, its version and whether it is built in.
pub(crate) async fn for_drafting(
    ctx: &Ctx,
    actor: &Actor,
    name: &str,
) -> Result<(Play, i64, bool), DomainError> {
    if let Some(b) = builtin::get(name) {
        return Ok((b.play.clone(), 1, true));
    }
    let r = row(&ctx.db.conn, ctx, &actor.workspace_id, name)
        .await?
        .filter(|r| !r.archived)
        .ok_or_else(|| not_found(name))?;
    let Some(version) = r.published else {
        return Err(DomainError::conflict(format!(
            "play '{name}' has no published version; publish one first \
             (POST /api/v1/plays/{name}/publish)"
        )));
    };
    Ok((
        stored_play(ctx, &actor.workspace_id, name, version).await?,
        version,
        false,
    ))
}

/// A version of the workspace's play, read again (a version is never changed, so it reads
/// as it did when saved).
pub(crate) async fn stored_play(
    ctx: &Ctx,
    workspace: &str,
    name: &str,
    version: i64,
) -> Result<Play, DomainError> {
    let source = version_source(ctx, workspace, name, version)
        .await?
        .ok_or_else(|| not_found(name))?;
    let (_, read) = read_file(source).await?;
    read.map_err(|p| DomainError::Internal(format!("stored play {name} v{version}: {p:?}")))
}

/// Whether `name` is a play drafts could use: built in, or the workspace's and not archived.
pub(crate) async fn exists(ctx: &Ctx, workspace: &str, name: &str) -> Result<bool, DomainError> {
    if builtin::get(name).is_some() {
        return Ok(true);
    }
    Ok(row(&ctx.db.conn, ctx, workspace, name)
        .await?
        .is_some_and(|r| !r.archived))
}

/// POST /plays: saves the file as the next version of the play it names (the first save of
/// a name makes the play, unpublished; a save of an archived name brings it back).
pub async fn save(ctx: &Ctx, actor: &Actor, body: PlaySourceIn) -> Result<PlayOut, DomainError> {
    allow(actor, Scope::PlaysWrite)?;
    let (source, read) = read_file(body.source).await?;
    let play = read.map_err(|p| problems_error("source", &p))?;
    save_play(ctx, actor, source, play).await
}

async fn save_play(
    ctx: &Ctx,
    actor: &Actor,
    source: String,
    play: Play,
) -> Result<PlayOut, DomainError> {
    let name = play.header.name.clone();
    if builtin::get(&name).is_some() {
        return Err(DomainError::invalid(
            "source",
            format!(
                "'{name}' is a built-in play's name; duplicate it under a new name \
                 (POST /api/v1/plays/{name}/duplicate) to make it yours"
            ),
        ));
    }
    let ws = actor.workspace_id.to_string();
    let now = ctx.now();
    let (c, by, title) = (
        ctx.clone(),
        actor.recorded().to_string(),
        play.header.title.clone(),
    );
    let (kind, category) = (play.header.kind.clone(), play.header.category.clone());
    let n = name.clone();
    let version = ctx
        .db
        .transaction(move |txn| async move {
            let t = &*txn;
            let existing = t
                .row(c.db.stmt(
                    "SELECT latest, archived FROM plays WHERE workspace_id = $1 AND name = $2",
                    [Value::from(ws.clone()), Value::from(n.clone())],
                ))
                .await?;
            let version = match existing {
                Some(r) => {
                    let latest = r.try_get::<i32>("", "latest")? as i64;
                    let archived: bool = r.try_get("", "archived")?;
                    if archived {
                        count_room(t, &c, &ws).await?;
                    }
                    if latest >= MAX_VERSIONS {
                        return Err(DomainError::Forbidden(format!(
                            "play '{n}' has {MAX_VERSIONS} versions, as many as a play keeps; \
                             duplicate it under a new name to go on"
                        )));
                    }
                    t.exec(c.db.stmt(
                        "UPDATE plays SET latest = $1, archived = FALSE, kind = $2, category = $3, \
                         updated_at = $4 WHERE workspace_id = $5 AND name = $6 AND latest = $7",
                        [
                            Value::from((latest + 1) as i32),
                            Value::from(kind),
                            Value::from(category),
                            Value::from(now),
                            Value::from(ws.clone()),
                            Value::from(n.clone()),
                            Value::from(latest as i32),
                        ],
                    ))
                    .await?;
                    latest + 1
                }
                None => {
                    count_room(t, &c, &ws).await?;
                    t.exec(c.db.stmt(
                        "INSERT INTO plays (workspace_id, name, latest, published, archived, kind, \
                         category, created_at, updated_at) VALUES ($1, $2, 1, NULL, FALSE, $3, $4, $5, $5)",
                        [
                            Value::from(ws.clone()),
                            Value::from(n.clone()),
                            Value::from(kind),
                            Value::from(category),
                            Value::from(now),
                        ],
                    ))
                    .await?;
                    1
                }
            };
            t.exec(c.db.stmt(
                "INSERT INTO play_versions (workspace_id, name, version, source, title, created_by, \
                 created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                [
                    Value::from(ws),
                    Value::from(n),
                    Value::from(version as i32),
                    Value::from(source),
                    Value::from(title),
                    Value::from(by),
                    Value::from(now),
                ],
            ))
            .await?;
            Ok::<_, DomainError>(version)
        })
        .await
        .map_err(|e| match e {
            DomainError::Internal(m) if m.to_lowercase().contains("unique") => DomainError::Conflict {
                message: format!("play '{name}' was saved by another request at the same moment; retry"),
                retryable: true,
            },
            e => e,
        })?;
    get_version(ctx, actor, &name, Some(version)).await
}

/// Refuses a play past [`MAX_PLAYS`] of the workspace.
async fn count_room(t: &dyn Sql, ctx: &Ctx, ws: &str) -> Result<(), DomainError> {
    let n = t
        .row(ctx.db.stmt(
            "SELECT COUNT(*) AS n FROM plays WHERE workspace_id = $1 AND archived = FALSE",
            [Value::from(ws.to_string())],
        ))
        .await?
        .map(|r| r.try_get::<i64>("", "n"))
        .transpose()?
        .unwrap_or(0);
    if n >= MAX_PLAYS {
        return Err(DomainError::Forbidden(format!(
            "a workspace has at most {MAX_PLAYS} plays; archive one first"
        )));
    }
    Ok(())
}

/// GET /plays: built-in plays and the workspace's published ones, filtered by `kind` and
/// `category`.
pub async fn list(
    ctx: &Ctx,
    actor: &Actor,
    kind: Option<&str>,
    category: Option<&str>,
) -> Result<PlayListOut, DomainError> {
    allow(actor, Scope::PlaysRead)?;
    if let Some(k) = kind
        && !matches!(k, "document" | "template")
    {
        return Err(DomainError::invalid("kind", "must be document or template"));
    }
    if let Some(c) = category
        && (c.is_empty() || c.len() > 40)
    {
        return Err(DomainError::invalid(
            "category",
            "must be 1 to 40 characters",
        ));
    }
    let fits =
        |h: &Header| kind.is_none_or(|k| h.kind == k) && category.is_none_or(|c| h.category == c);
    let mut data: Vec<PlaySummaryOut> = builtin::all()
        .iter()
        .filter(|b| fits(&b.play.header))
        .map(|b| summary(&b.play.header, true, 1))
        .collect();
    let rows = ctx
        .db
        .conn
        .query_all_raw(ctx.db.stmt(
            "SELECT p.name, p.published, v.source FROM plays p JOIN play_versions v \
             ON v.workspace_id = p.workspace_id AND v.name = p.name AND v.version = p.published \
             WHERE p.workspace_id = $1 AND p.archived = FALSE AND p.published IS NOT NULL \
             ORDER BY p.name",
            [Value::from(actor.workspace_id.to_string())],
        ))
        .await?;
    for r in rows {
        let source: String = r.try_get("", "source")?;
        let version = r.try_get::<i32>("", "published")? as i64;
        // The header is enough for the list; a stored version read before, so it reads now.
        if let Ok((h, _, _)) = crate::header::read(&source)
            && fits(&h)
        {
            data.push(summary(&h, false, version));
        }
    }
    Ok(PlayListOut { data })
}

fn summary(h: &Header, built_in: bool, version: i64) -> PlaySummaryOut {
    PlaySummaryOut {
        name: h.name.clone(),
        title: h.title.clone(),
        description: h.description.clone(),
        kind: h.kind.clone(),
        category: h.category.clone(),
        language: h.language.clone(),
        built_in,
        version,
    }
}

/// GET /plays/{name}: one play with its versions and which is published.
pub async fn get(ctx: &Ctx, actor: &Actor, name: &str) -> Result<PlayOut, DomainError> {
    allow(actor, Scope::PlaysRead)?;
    get_version(ctx, actor, name, None).await
}

/// Where a play stands: built in or the workspace's, archived, which version is published.
struct Standing {
    built_in: bool,
    archived: bool,
    published: Option<i64>,
}

fn out(
    name: &str,
    play: &Play,
    source: String,
    version: i64,
    standing: Standing,
    versions: Vec<PlayVersionOut>,
) -> PlayOut {
    let h = &play.header;
    let Standing {
        built_in,
        archived,
        published,
    } = standing;
    PlayOut {
        name: name.to_string(),
        built_in,
        archived,
        published,
        latest: versions.first().map_or(version, |v| v.version),
        versions,
        version,
        title: h.title.clone(),
        description: h.description.clone(),
        kind: h.kind.clone(),
        category: h.category.clone(),
        language: h.language.clone(),
        seats: seats_out(h),
        questions: h.questions.iter().map(question_out).collect(),
        source,
    }
}

async fn get_version(
    ctx: &Ctx,
    actor: &Actor,
    name: &str,
    version: Option<i64>,
) -> Result<PlayOut, DomainError> {
    if let Some(b) = builtin::get(name) {
        let v = PlayVersionOut {
            version: 1,
            title: b.play.header.title.clone(),
            created_at: time(0),
            created_by: "signet".into(),
        };
        return Ok(out(
            name,
            &b.play,
            b.source.to_string(),
            1,
            Standing {
                built_in: true,
                archived: false,
                published: Some(1),
            },
            vec![v],
        ));
    }
    if name.len() > 64 {
        return Err(not_found(name));
    }
    let ws = actor.workspace_id.to_string();
    let r = row(&ctx.db.conn, ctx, &ws, name)
        .await?
        .ok_or_else(|| not_found(name))?;
    let versions = ctx
        .db
        .conn
        .query_all_raw(ctx.db.stmt(
            "SELECT version, title, created_by, created_at FROM play_versions \
             WHERE workspace_id = $1 AND name = $2 ORDER BY version DESC",
            [Value::from(ws.clone()), Value::from(name.to_string())],
        ))
        .await?
        .into_iter()
        .map(|v| {
            Ok(PlayVersionOut {
                version: v.try_get::<i32>("", "version")? as i64,
                title: v.try_get("", "title")?,
                created_by: v.try_get("", "created_by")?,
                created_at: time(v.try_get("", "created_at")?),
            })
        })
        .collect::<Result<Vec<_>, DomainError>>()?;
    let shown = version.or(r.published).unwrap_or(r.latest);
    let source = version_source(ctx, &ws, name, shown)
        .await?
        .ok_or_else(|| not_found(name))?;
    let (source, read) = read_file(source).await?;
    let play = read.map_err(|p| DomainError::Internal(format!("stored play {name}: {p:?}")))?;
    Ok(out(
        name,
        &play,
        source,
        shown,
        Standing {
            built_in: false,
            archived: r.archived,
            published: r.published,
        },
        versions,
    ))
}

/// The workspace's own play, for a change: built-in plays are nobody's to change.
async fn own(ctx: &Ctx, actor: &Actor, name: &str, what: &str) -> Result<Row, DomainError> {
    if builtin::get(name).is_some() {
        return Err(DomainError::invalid(
            "name",
            format!(
                "'{name}' is a built-in play: it cannot be {what}; duplicate it to make it yours"
            ),
        ));
    }
    if name.len() > 64 {
        return Err(not_found(name));
    }
    row(&ctx.db.conn, ctx, &actor.workspace_id, name)
        .await?
        .ok_or_else(|| not_found(name))
}

/// POST /plays/{name}/publish: drafts use `version` from now on.
pub async fn publish(
    ctx: &Ctx,
    actor: &Actor,
    name: &str,
    body: PlayPublishIn,
) -> Result<PlayOut, DomainError> {
    allow(actor, Scope::PlaysWrite)?;
    let r = own(ctx, actor, name, "published").await?;
    if r.archived {
        return Err(DomainError::conflict(format!(
            "play '{name}' is archived; save a new version to bring it back"
        )));
    }
    if body.version < 1 || body.version > r.latest {
        return Err(DomainError::invalid(
            "version",
            format!("play '{name}' has versions 1 to {}", r.latest),
        ));
    }
    ctx.db
        .write(ctx.db.stmt(
            "UPDATE plays SET published = $1, updated_at = $2 WHERE workspace_id = $3 AND name = $4",
            [
                Value::from(body.version as i32),
                Value::from(ctx.now()),
                Value::from(actor.workspace_id.to_string()),
                Value::from(name.to_string()),
            ],
        ))
        .await?;
    get_version(ctx, actor, name, Some(body.version)).await
}

/// DELETE /plays/{name}: archives the play; drafts already made keep their words.
pub async fn archive(ctx: &Ctx, actor: &Actor, name: &str) -> Result<PlayOut, DomainError> {
    allow(actor, Scope::PlaysWrite)?;
    own(ctx, actor, name, "archived").await?;
    ctx.db
        .write(ctx.db.stmt(
            "UPDATE plays SET archived = TRUE, updated_at = $1 WHERE workspace_id = $2 AND name = $3",
            [
                Value::from(ctx.now()),
                Value::from(actor.workspace_id.to_string()),
                Value::from(name.to_string()),
            ],
        ))
        .await?;
    get_version(ctx, actor, name, None).await
}

/// POST /plays/{name}/duplicate: the play (its published version, else its newest; a
/// built-in one as shipped) copied as version 1 of a new play named `as`, unpublished.
pub async fn duplicate(
    ctx: &Ctx,
    actor: &Actor,
    name: &str,
    body: PlayDuplicateIn,
) -> Result<PlayOut, DomainError> {
    allow(actor, Scope::PlaysWrite)?;
    let new = body.as_name.trim().to_string();
    if !crate::header::is_slug(&new, 64) {
        return Err(DomainError::invalid(
            "as",
            "must be 2 to 64 lower-case letters, digits, - and _, starting with a letter",
        ));
    }
    if builtin::get(&new).is_some()
        || row(&ctx.db.conn, ctx, &actor.workspace_id, &new)
            .await?
            .is_some()
    {
        return Err(DomainError::conflict(format!(
            "a play named '{new}' exists; choose another name"
        )));
    }
    let source = match builtin::get(name) {
        Some(b) => b.source.to_string(),
        None => {
            let r = row(&ctx.db.conn, ctx, &actor.workspace_id, name)
                .await?
                .ok_or_else(|| not_found(name))?;
            version_source(
                ctx,
                &actor.workspace_id,
                name,
                r.published.unwrap_or(r.latest),
            )
            .await?
            .ok_or_else(|| not_found(name))?
        }
    };
    let renamed = play::renamed(&source, &new)
        .ok_or_else(|| DomainError::Internal(format!("play {name} has no name line")))?;
    let (renamed, read) = read_file(renamed).await?;
    let play = read.map_err(|p| problems_error("as", &p))?;
    save_play(ctx, actor, renamed, play).await
}

/// POST /plays/test: every problem of the file at once, the words checked as a document's
/// would be (drafted with every default, people in each seat), the questions as a person
/// meets them. Nothing is saved.
pub async fn test(
    ctx: &Ctx,
    actor: &Actor,
    body: PlaySourceIn,
) -> Result<PlayTestOut, DomainError> {
    allow(actor, Scope::PlaysRead)?;
    let source = body.source;
    let (play, problems) = signet_core::blocking(move || play::read_all(&source))
        .await
        .map_err(|e| DomainError::Internal(format!("reading a play: {e}")))?;
    let mut problems: Vec<PlayProblemOut> = problems.iter().map(problem_out).collect();
    let mut warnings = Vec::new();
    let Some(play) = play else {
        return Ok(PlayTestOut {
            ok: false,
            problems,
            warnings,
            name: String::new(),
            title: String::new(),
            seats: vec![],
            rounds: vec![],
            answers: BTreeMap::new(),
            preview: None,
        });
    };
    let (rounds, answers) = play.walk_defaults();
    let rounds: Vec<Vec<PlayQuestionOut>> = rounds
        .iter()
        .map(|r| r.iter().map(|q| question_out(q)).collect())
        .collect();
    let (doc, used) = crate::body::assemble(&play.blocks, &play.header, &answers);
    let readable = problems.is_empty();
    if readable {
        // The document check, exactly as POST /documents runs it.
        let labels = play.labels(&answers);
        let values: serde_json::Map<String, serde_json::Value> = used
            .iter()
            .filter_map(|q| Some((q.clone(), serde_json::Value::from(labels.get(q)?.clone()))))
            .collect();
        let people = stand_ins(&play.header);
        let check = signet_documents::check(
            ctx,
            &crate::access::as_drafter(actor),
            signet_documents::types::DocumentCheckIn {
                source: doc.clone(),
                facts: None,
                people: Some(people),
                variable_values: Some(serde_json::Value::Object(values)),
                require_signature: Some(true),
                for_template: Some(false),
            },
        )
        .await?;
        let at = |i: &signet_documents::types::CheckItemOut| PlayProblemOut {
            key: "words".into(),
            line: 0,
            column: 0,
            message: format!(
                "{} (at {} of the words drafted with every default)",
                i.message, i.path
            ),
            hint: "mend the words so that a document made from them passes the check".into(),
        };
        problems.extend(check.problems.iter().map(at));
        warnings.extend(check.warnings.iter().map(at));
    }
    Ok(PlayTestOut {
        ok: problems.is_empty(),
        problems,
        warnings,
        name: play.header.name.clone(),
        title: play.header.title.clone(),
        seats: seats_out(&play.header),
        rounds,
        answers,
        preview: Some(async_graphql::Json(doc)),
    })
}

/// Someone in each seat, for the dry run's check.
fn stand_ins(h: &Header) -> Vec<PersonIn> {
    h.seats
        .iter()
        .map(|s| PersonIn::stand_in(&s.role, &s.label, s.order.map(i64::from)))
        .collect()
}
