//! Who a person is, when the sender asks (`accessCode` and `emailCode` on a person): before
//! the page shows the document, the person gives the access code the sender told them, and/or
//! a one-time code emailed to their address. Passing gives the page a pass (in its memory,
//! sent back in `Signet-Pass`) that the view and every act require for that person.
//!
//! - An access code is kept only as a salted keyed hash (`hash_access_code`).
//! - An emailed code is 6 digits derived from the server's key and a random nonce that only
//!   its email job carries; the database keeps its keyed hash, the time it runs out (10
//!   minutes) and when it went out. A new code replaces the last; at most one each 30
//!   seconds and 10 a day per person.
//! - 5 wrong tries (either code) lock the person's links: 15 minutes the first time, twice as
//!   long each time after, at most a day, so guessing a short access code takes years. A lock
//!   throws the emailed code away. Tries while locked are refused unchecked. When both codes
//!   are asked, a wrong try does not say which was wrong.
//! - Each code sent, each try, its outcome and each lock is an audit row (with the address
//!   and browser); no code is in any answer, row or log line.

use base64::Engine as _;
use sea_orm::{ConnectionTrait, TransactionTrait, Value};
use serde::{Deserialize, Serialize};
use serde_json::json;

pub use super::codes::hash_access_code;
use super::codes::{
    access_code_is, email_code_hash, email_code_is, email_code_of, pass_for, pass_is_good, random,
};
use super::visit::{Seen, Stage, Visit, stage, visit, with};
use crate::store::PersonDbRow;
use crate::trail::Trail;
use signet_core::{Ctx, DomainError};

/// How long an emailed code works.
pub const CODE_MINUTES: i64 = 10;
/// Wrong tries before a lock.
pub const MAX_TRIES: i64 = 5;
/// How long the first lock lasts; each later one lasts twice as long, at most `MAX_LOCK_MINUTES`.
pub const LOCK_MINUTES: i64 = 15;
pub const MAX_LOCK_MINUTES: i64 = 24 * 60;
/// The shortest gap between two emailed codes.
pub const CODE_GAP_SECS: i64 = 30;
/// Emailed codes per person per day (UTC).
pub const CODES_PER_DAY: i64 = 10;
/// How long a pass lasts.
pub const PASS_HOURS: i64 = 8;

const MINUTE: i64 = 60_000;
const DAY: i64 = 86_400_000;

/// Whether the page may show this person nothing of the document but its title: they have
/// checks and `pass` is not theirs (whatever the document's state).
pub fn gated(ctx: &Ctx, person: &PersonDbRow, pass: Option<&str>) -> bool {
    !person.checks().is_empty() && !pass.is_some_and(|p| pass_is_good(ctx, &person.id, p))
}

/// Refuses an act of a person who has not passed their checks.
pub fn require(ctx: &Ctx, v: &Visit, pass: Option<&str>) -> Result<(), DomainError> {
    if !v.person.checks().is_empty() && !pass.is_some_and(|p| pass_is_good(ctx, &v.person.id, p)) {
        return Err(DomainError::Forbidden(
            "confirm who you are first: this document asks for a code before it opens".into(),
        ));
    }
    Ok(())
}

/// How long the lock after `locks` earlier ones lasts: 15 minutes, doubling, at most a day.
pub fn lock_minutes(locks: i64) -> i64 {
    (LOCK_MINUTES << locks.clamp(0, 10)).min(MAX_LOCK_MINUTES)
}

/// What the page's check screen shows.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Gate {
    pub access_code: bool,
    pub email_code: bool,
    /// Where emailed codes go, partly hidden (`j•••@example.com`).
    pub address: String,
    /// Whether an emailed code was sent that still works.
    pub code_sent: bool,
    /// Seconds until another code may be asked for (0: now).
    pub next_code_in: i64,
    /// Codes that may still be sent today.
    pub codes_left: i64,
    pub tries_left: i64,
    /// When a lock ends (milliseconds since the epoch), while locked.
    pub locked_until: Option<i64>,
    pub code_minutes: i64,
}

#[derive(Clone, Debug, Default)]
struct State {
    code_hash: Option<String>,
    code_until: Option<i64>,
    code_sent_at: Option<i64>,
    codes_day: i64,
    codes_sent: i64,
    failures: i64,
    locks: i64,
    locked_until: Option<i64>,
}

async fn state<C: ConnectionTrait>(
    conn: &C,
    ctx: &Ctx,
    person_id: &str,
) -> Result<State, DomainError> {
    let row = conn
        .query_one_raw(ctx.db.stmt(
            "SELECT code_hash, code_until, code_sent_at, codes_day, codes_sent, failures, locks, locked_until \
             FROM identity_checks WHERE person_id = $1",
            [Value::from(person_id.to_string())],
        ))
        .await?;
    let Some(r) = row else {
        return Ok(State::default());
    };
    Ok(State {
        code_hash: r.try_get("", "code_hash")?,
        code_until: r.try_get("", "code_until")?,
        code_sent_at: r.try_get("", "code_sent_at")?,
        codes_day: r.try_get("", "codes_day")?,
        codes_sent: r.try_get::<i32>("", "codes_sent")? as i64,
        failures: r.try_get::<i32>("", "failures")? as i64,
        locks: r.try_get::<i32>("", "locks")? as i64,
        locked_until: r.try_get("", "locked_until")?,
    })
}

async fn save<C: ConnectionTrait>(
    conn: &C,
    ctx: &Ctx,
    person: &PersonDbRow,
    s: &State,
) -> Result<(), DomainError> {
    conn.execute_raw(ctx.db.stmt(
        "INSERT INTO identity_checks (person_id, document_id, code_hash, code_until, code_sent_at, \
         codes_day, codes_sent, failures, locked_until, updated_at, locks) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) \
         ON CONFLICT (person_id) DO UPDATE SET code_hash = $3, code_until = $4, code_sent_at = $5, \
         codes_day = $6, codes_sent = $7, failures = $8, locked_until = $9, updated_at = $10, locks = $11",
        [
            Value::from(person.id.clone()),
            Value::from(person.document_id.clone()),
            Value::from(s.code_hash.clone()),
            Value::from(s.code_until),
            Value::from(s.code_sent_at),
            Value::from(s.codes_day),
            Value::from(s.codes_sent as i32),
            Value::from(s.failures as i32),
            Value::from(s.locked_until),
            Value::from(ctx.now()),
            Value::from(s.locks as i32),
        ],
    ))
    .await?;
    Ok(())
}

/// Takes the document's row lock (PostgreSQL) or the write lock (SQLite) first, so checks of
/// one document, and its audit rows, follow one another.
pub(crate) async fn lock_document<C: ConnectionTrait>(
    conn: &C,
    ctx: &Ctx,
    doc_id: &str,
) -> Result<(), DomainError> {
    let doc = Value::from(doc_id.to_string());
    match ctx.db.backend {
        // A row lock without writing a row version.
        signet_storage::Backend::Postgres => {
            conn.query_one_raw(
                ctx.db
                    .stmt("SELECT id FROM documents WHERE id = $1 FOR UPDATE", [doc]),
            )
            .await?;
        }
        // SQLite has one writer: the first write of the transaction takes it.
        signet_storage::Backend::Sqlite => {
            conn.execute_raw(ctx.db.stmt(
                "UPDATE documents SET updated_at = updated_at WHERE id = $1",
                [doc],
            ))
            .await?;
        }
    }
    Ok(())
}

fn masked(address: &str) -> String {
    match address.split_once('@') {
        Some((local, domain)) => {
            let first: String = local.chars().take(1).collect();
            format!("{first}•••@{domain}")
        }
        None => "•••".into(),
    }
}

fn gate_of(person: &PersonDbRow, s: &State, now: i64) -> Gate {
    let locked_until = s.locked_until.filter(|&t| t > now);
    // A lock run out gives the tries back.
    let failures = if s.locked_until.is_some() && locked_until.is_none() {
        0
    } else {
        s.failures
    };
    let today = now / DAY;
    let sent_today = if s.codes_day == today {
        s.codes_sent
    } else {
        0
    };
    Gate {
        access_code: person.access_code_hash.is_some(),
        email_code: person.email_code,
        address: masked(&person.email),
        code_sent: s.code_hash.is_some() && s.code_until.is_some_and(|t| t > now),
        next_code_in: s
            .code_sent_at
            .map(|t| ((t + CODE_GAP_SECS * 1000 - now) / 1000).max(0))
            .unwrap_or(0),
        codes_left: (CODES_PER_DAY - sent_today).max(0),
        tries_left: if locked_until.is_some() {
            0
        } else {
            (MAX_TRIES - failures).max(0)
        },
        locked_until,
        code_minutes: CODE_MINUTES,
    }
}

/// The check screen's state for a visit.
pub async fn gate(ctx: &Ctx, v: &Visit) -> Result<Gate, DomainError> {
    let s = state(&ctx.db.conn, ctx, &v.person.id).await?;
    Ok(gate_of(&v.person, &s, ctx.now()))
}

/// Whether a person at `stage` may still be asked who they are: only while they are to sign
/// (now or after others). Once they signed, declined or the document ended, a check has
/// nothing left to open, and an answer to one must not add to their record.
pub fn checks_open(stage: Stage) -> bool {
    matches!(stage, Stage::Sign | Stage::Waiting)
}

fn not_open(v: &Visit) -> Option<DomainError> {
    match stage(&v.doc, &v.person) {
        s if checks_open(s) => None,
        Stage::Signed | Stage::Executed => Some(DomainError::conflict(
            "you have already signed; there is nothing left to check",
        )),
        _ => Some(DomainError::conflict(format!(
            "the document is {}; there is nothing to open",
            v.doc.state
        ))),
    }
}

fn who(p: &PersonDbRow) -> String {
    format!("{} ({})", p.name, p.email)
}

/// What asking for an emailed code did.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CodeOut {
    /// Whether a code went out now (`false`: too soon, today's codes are used, or locked).
    pub sent: bool,
    pub gate: Gate,
}

/// POST /page/v1/code: emails the person a new one-time code (the last one stops working).
pub async fn send_code(ctx: &Ctx, token: &str, seen: &Seen) -> Result<CodeOut, DomainError> {
    let v = visit(ctx, token).await?;
    let seen = &seen.of(&v);
    if let Some(e) = not_open(&v) {
        return Err(e);
    }
    if !v.person.email_code {
        return Err(DomainError::conflict(
            "this document does not ask you for an emailed code",
        ));
    }
    let txn = ctx.db.conn.begin().await?;
    lock_document(&txn, ctx, &v.doc.id).await?;
    let mut s = state(&txn, ctx, &v.person.id).await?;
    let now = ctx.now();
    let today = now / DAY;
    if s.codes_day != today {
        s.codes_day = today;
        s.codes_sent = 0;
    }
    let before = gate_of(&v.person, &s, now);
    if before.locked_until.is_some() || before.next_code_in > 0 || before.codes_left == 0 {
        txn.rollback().await?;
        return Ok(CodeOut {
            sent: false,
            gate: before,
        });
    }
    let nonce = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(random(16)?);
    let code = email_code_of(ctx, &v.person.id, &nonce);
    s.code_hash = Some(email_code_hash(ctx, &v.person.id, &code));
    s.code_until = Some(now + CODE_MINUTES * MINUTE);
    s.code_sent_at = Some(now);
    s.codes_sent += 1;
    save(&txn, ctx, &v.person, &s).await?;
    let locale = super::visit::language(&v.doc, &v.person);
    let mut trail = Trail::new(&v.doc.id, ctx.now());
    trail
        .audit(
            "code_sent",
            &format!("A one-time code was emailed to {}", who(&v.person)),
            Some(&v.person.seat),
            &v.person.name,
            seen.detail(),
        )
        .job(
            &crate::jobs::EmailJob {
                kind: "code".into(),
                document_id: v.doc.id.to_string(),
                person_id: Some(v.person.id.to_string()),
                seat: Some(v.person.seat.clone()),
                locale: locale.to_string(),
                test: v.doc.test,
                nonce: Some(nonce.clone()),
                payment_id: None,
            },
            &v.doc,
            now,
        );
    let queued = trail.write(&txn, &ctx.db).await?;
    txn.commit().await?;
    ctx.queued(queued).await;
    Ok(CodeOut {
        sent: true,
        gate: gate_of(&v.person, &s, now),
    })
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct VerifyIn {
    #[serde(default)]
    pub access_code: Option<String>,
    #[serde(default)]
    pub email_code: Option<String>,
}

/// What a try came to.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VerifyOut {
    /// The pass for `Signet-Pass`, when every check passed.
    pub pass: Option<String>,
    /// The checks that failed: `accessCode`, `emailCode`.
    pub wrong: Vec<&'static str>,
    pub gate: Gate,
}

/// POST /page/v1/verify: the person gives the codes they were asked for, all at once.
pub async fn verify(
    ctx: &Ctx,
    token: &str,
    body: VerifyIn,
    seen: &Seen,
) -> Result<VerifyOut, DomainError> {
    let v = visit(ctx, token).await?;
    let seen = &seen.of(&v);
    if let Some(e) = not_open(&v) {
        return Err(e);
    }
    let person = &v.person;
    let until = ctx.now() + PASS_HOURS * 3_600_000;
    if person.checks().is_empty() {
        return Ok(VerifyOut {
            pass: Some(pass_for(ctx, &person.id, until)),
            wrong: vec![],
            gate: gate(ctx, &v).await?,
        });
    }
    // A code is at most 64 characters; a longer answer is wrong without being looked at.
    let given = |c: &Option<String>| {
        c.as_deref()
            .map(str::trim)
            .filter(|c| c.chars().count() <= 64)
            .map(str::to_string)
    };
    let (access, emailed) = (given(&body.access_code), given(&body.email_code));
    let txn = ctx.db.conn.begin().await?;
    lock_document(&txn, ctx, &v.doc.id).await?;
    let mut s = state(&txn, ctx, &person.id).await?;
    let now = ctx.now();
    if s.locked_until.is_some_and(|t| t > now) {
        txn.rollback().await?;
        return Ok(VerifyOut {
            pass: None,
            wrong: vec![],
            gate: gate_of(person, &s, now),
        });
    }
    if s.locked_until.is_some() {
        // The lock ran out: the tries are back (the count of locks stays).
        s.locked_until = None;
        s.failures = 0;
    }
    let wrong = wrong_answers(ctx, person, &s, access.as_deref(), emailed.as_deref(), now);
    let mut trail = Trail::new(&v.doc.id, ctx.now());
    let pass = if wrong.is_empty() {
        confirmed(&mut trail, person, &mut s, seen);
        Some(pass_for(ctx, &person.id, until))
    } else {
        failed(&mut trail, person, &mut s, &wrong, seen, now);
        None
    };
    // Both asked: a wrong try does not say which, so the access code cannot be guessed alone
    // by someone without the mailbox (the trail keeps which).
    let wrong = if person.access_code_hash.is_some() && person.email_code && !wrong.is_empty() {
        vec!["accessCode", "emailCode"]
    } else {
        wrong
    };
    save(&txn, ctx, person, &s).await?;
    let queued = trail.write(&txn, &ctx.db).await?;
    txn.commit().await?;
    ctx.queued(queued).await;
    Ok(VerifyOut {
        pass,
        wrong,
        gate: gate_of(person, &s, now),
    })
}

/// The checks a try got wrong: `accessCode`, `emailCode`.
fn wrong_answers(
    ctx: &Ctx,
    person: &PersonDbRow,
    s: &State,
    access: Option<&str>,
    emailed: Option<&str>,
    now: i64,
) -> Vec<&'static str> {
    let mut wrong = Vec::new();
    if let Some(stored) = &person.access_code_hash
        && !access.is_some_and(|a| access_code_is(ctx, stored, a))
    {
        wrong.push("accessCode");
    }
    if person.email_code {
        let live = s.code_until.is_some_and(|t| t > now);
        let ok = live
            && matches!((&s.code_hash, emailed), (Some(stored), Some(e)) if email_code_is(ctx, &person.id, stored, e));
        if !ok {
            wrong.push("emailCode");
        }
    }
    wrong
}

/// The checks as a person reads them: "access code and emailed code".
fn check_names(list: &[&str]) -> String {
    list.iter()
        .map(|c| {
            if *c == "accessCode" {
                "access code"
            } else {
                "emailed code"
            }
        })
        .collect::<Vec<_>>()
        .join(" and ")
}

/// A right try: the tries start again, an emailed code is used up, and the trail says so.
fn confirmed(trail: &mut Trail, person: &PersonDbRow, s: &mut State, seen: &Seen) {
    s.failures = 0;
    // An emailed code works once.
    s.code_hash = None;
    s.code_until = None;
    let checks = person.checks();
    let list: Vec<&str> = checks.iter().map(String::as_str).collect();
    trail.audit(
        "identity_confirmed",
        &format!(
            "{} confirmed who they are with the {}",
            who(person),
            check_names(&list)
        ),
        Some(&person.seat),
        &person.name,
        with(json!({"checks": checks}), seen),
    );
}

/// A wrong try: counted, and after [`MAX_TRIES`] the person's links are locked for a while
/// that grows with each lock.
fn failed(
    trail: &mut Trail,
    person: &PersonDbRow,
    s: &mut State,
    wrong: &[&str],
    seen: &Seen,
    now: i64,
) {
    s.failures += 1;
    trail.audit(
        "identity_failed",
        &format!(
            "A wrong {} was given for {} (try {} of {MAX_TRIES})",
            check_names(wrong),
            who(person),
            s.failures
        ),
        Some(&person.seat),
        &person.name,
        with(json!({"wrong": wrong, "try": s.failures}), seen),
    );
    if s.failures < MAX_TRIES {
        return;
    }
    let minutes = lock_minutes(s.locks);
    s.locks += 1;
    s.locked_until = Some(now + minutes * MINUTE);
    s.code_hash = None;
    s.code_until = None;
    trail.audit(
        "identity_locked",
        &format!(
            "The links of {} were locked for {minutes} minutes after {MAX_TRIES} wrong tries",
            who(person)
        ),
        Some(&person.seat),
        &person.name,
        json!({"minutes": minutes, "lock": s.locks}),
    );
}

/// For the mail worker: the code a `code` job stands for, while it is the person's current
/// code and still works; `None` when a newer one replaced it, it ran out, or it was used.
pub async fn code_to_send(
    ctx: &Ctx,
    person_id: &str,
    nonce: &str,
) -> Result<Option<String>, DomainError> {
    let s = state(&ctx.db.conn, ctx, person_id).await?;
    let code = email_code_of(ctx, person_id, nonce);
    let current = s.code_until.is_some_and(|t| t > ctx.now())
        && s.code_hash
            .as_deref()
            .is_some_and(|h| email_code_is(ctx, person_id, h, &code));
    Ok(current.then_some(code))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_lock_lasts_twice_the_last_up_to_a_day() {
        let minutes: Vec<i64> = (0..9).map(lock_minutes).collect();
        assert_eq!(minutes, [15, 30, 60, 120, 240, 480, 960, 1440, 1440]);
        assert_eq!(lock_minutes(1000), 1440);
    }

    #[test]
    fn an_address_is_shown_with_its_first_letter_and_domain() {
        assert_eq!(masked("jane@example.com"), "j•••@example.com");
        assert_eq!(masked("nobody"), "•••");
    }
}
