//! Sign-in by an emailed link: 32 random bytes, stored only as a keyed hash, good for 15
//! minutes and once; a newer link voids the older ones. Asking answers the same whether or
//! not the address is anyone's, and is bounded per address and per client, an hour at a
//! time. Opening the link shows a page; only its button's POST redeems it (`redeem`), so a
//! mail scanner that follows links spends nothing.

use std::net::IpAddr;

use chrono::{TimeZone, Utc};
use sea_orm::{ConnectionTrait, TransactionTrait, Value};
use signet_core::{Ctx, DomainError, ids};

use super::{members, sessions};

/// How long a link works.
pub const LINK_MS: i64 = 15 * 60 * 1000;
/// How long an invitation's link works.
pub const INVITE_MS: i64 = 3 * 24 * 3600 * 1000;
/// Links asked for one address from one client in an hour.
pub const PER_ADDRESS_HOUR: u64 = 5;
/// Links asked for one address from all clients in an hour.
pub const PER_ADDRESS_ALL_HOUR: u64 = 20;
/// Links asked for from one client address in an hour.
pub const PER_CLIENT_HOUR: u64 = 30;

/// A link made for a person, to be emailed (or printed by `signet admin`).
#[derive(Debug)]
pub struct Issued {
    pub token: String,
    pub user_id: String,
    pub email: String,
    pub name: String,
    pub language: String,
    pub expires_at: i64,
}

fn keyed(ctx: &Ctx, what: &str) -> String {
    ids::hex(ring::hmac::sign(&ctx.key_hasher, what.as_bytes()).as_ref())
}

/// The keyed hash of a link's secret (apart from sessions' and signing links').
fn hash(ctx: &Ctx, token: &str) -> String {
    keyed(ctx, &format!("sign-in:{token}"))
}

/// Whom the per-client bound counts: an IPv4 address (IPv4-mapped IPv6 as IPv4), or an IPv6
/// address's /64, which one subscriber usually holds whole.
fn client_subject(ip: IpAddr) -> String {
    match crate::keys::canonical(ip) {
        IpAddr::V6(v6) => {
            let s = v6.segments();
            format!("client:{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
        }
        v4 => format!("client:{v4}"),
    }
}

/// Counts one request under `subject` in this hour if fewer than `limit` were counted.
async fn count(ctx: &Ctx, subject: &str, hour: &str, limit: u64) -> Result<bool, DomainError> {
    let row = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "INSERT INTO sign_in_counts (subject, hour, count) VALUES ($1, $2, 1) \
             ON CONFLICT (subject, hour) DO UPDATE SET count = sign_in_counts.count + 1 \
             WHERE sign_in_counts.count < $3 RETURNING count",
            [
                Value::from(subject),
                Value::from(hour),
                Value::from(limit as i64),
            ],
        ))
        .await?;
    Ok(row.is_some())
}

/// Counts one request for a link for `email` from `client_ip` against both bounds, known
/// address or not: `RateLimited` when either is reached. Answers the address as stored; the
/// link itself is made by a job (`issue_for_address`), so that the request takes the same
/// time whoever the address belongs to.
pub async fn ask(ctx: &Ctx, email: &str, client_ip: IpAddr) -> Result<String, DomainError> {
    let email = members::address(email)?;
    let now = ctx.now();
    let at = Utc
        .timestamp_millis_opt(now)
        .single()
        .unwrap_or_else(Utc::now);
    let hour = at.format("%Y-%m-%dT%H").to_string();
    let refused = || DomainError::RateLimited {
        message: "Too many sign-in links were asked for; try again within the hour.".into(),
        retry_after_secs: 3600 - (now / 1000).rem_euclid(3600) as u64,
    };
    let client = client_subject(client_ip);
    if !count(ctx, &client, &hour, PER_CLIENT_HOUR).await? {
        return Err(refused());
    }
    // An address is counted per client, so that a stranger asking for someone's address
    // spends that stranger's allowance, not theirs; and in all, well above what one person
    // asks for.
    let address = format!("address:{}", keyed(ctx, &format!("address:{email}")));
    if !count(ctx, &format!("{address}:{client}"), &hour, PER_ADDRESS_HOUR).await?
        || !count(ctx, &address, &hour, PER_ADDRESS_ALL_HOUR).await?
    {
        return Err(refused());
    }
    Ok(email)
}

/// Makes the link asked for an address (already counted by `ask`): `None` when the address
/// is nobody's, or belongs to a person of no workspace.
pub async fn issue_for_address(ctx: &Ctx, email: &str) -> Result<Option<Issued>, DomainError> {
    let Some(row) = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT u.id, u.email, u.name, u.language FROM users u WHERE u.email = $1 \
             AND EXISTS (SELECT 1 FROM members m WHERE m.user_id = u.id)",
            [Value::from(email)],
        ))
        .await?
    else {
        return Ok(None);
    };
    let user_id: String = row.try_get("", "id")?;
    issued(ctx, &user_id, row, LINK_MS, None).await.map(Some)
}

/// `ask` and `issue_for_address` at once, for callers that send nothing (tests, tools).
pub async fn request(
    ctx: &Ctx,
    email: &str,
    client_ip: IpAddr,
) -> Result<Option<Issued>, DomainError> {
    let email = ask(ctx, email, client_ip).await?;
    issue_for_address(ctx, &email).await
}

/// The link of an invitation to a workspace: the same rules as a sign-in link, good for
/// [`INVITE_MS`] so that an invitation read the next day still works.
pub async fn issue_invitation(
    ctx: &Ctx,
    user_id: &str,
    workspace_id: &str,
) -> Result<Issued, DomainError> {
    let row = person_row(ctx, user_id).await?;
    issued(ctx, user_id, row, INVITE_MS, Some(workspace_id)).await
}

async fn person_row(ctx: &Ctx, user_id: &str) -> Result<sea_orm::QueryResult, DomainError> {
    ctx.db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT id, email, name, language FROM users WHERE id = $1",
            [Value::from(user_id)],
        ))
        .await?
        .ok_or_else(|| DomainError::NotFound(format!("no person {user_id}")))
}

async fn issued(
    ctx: &Ctx,
    user_id: &str,
    row: sea_orm::QueryResult,
    valid_ms: i64,
    workspace_id: Option<&str>,
) -> Result<Issued, DomainError> {
    let (token, expires_at) = store(ctx, user_id, valid_ms, workspace_id).await?;
    Ok(Issued {
        token,
        user_id: user_id.to_string(),
        email: row.try_get("", "email")?,
        name: row.try_get("", "name")?,
        language: row.try_get("", "language")?,
        expires_at,
    })
}

/// A link for a person `signet admin` names (the first owner of an installation, or anyone
/// locked out): no bounds, the same rules otherwise.
pub async fn issue_for_operator(ctx: &Ctx, user_id: &str) -> Result<Issued, DomainError> {
    let row = person_row(ctx, user_id).await?;
    issued(ctx, user_id, row, LINK_MS, None).await
}

/// Makes a person's new link, voiding their older unused ones in the same transaction.
/// Answers its secret (in the clear only here) and when it runs out.
async fn store(
    ctx: &Ctx,
    user_id: &str,
    valid_ms: i64,
    workspace_id: Option<&str>,
) -> Result<(String, i64), DomainError> {
    let now = ctx.now();
    let token = sessions::secret()?;
    let txn = ctx.db.conn.begin().await?;
    // The person's row written first, as a lock: two links made at once are made one after
    // the other, so the second voids the first (PostgreSQL's reads would not see it otherwise).
    txn.execute_raw(ctx.db.stmt(
        "UPDATE users SET name = name WHERE id = $1",
        [Value::from(user_id)],
    ))
    .await?;
    // A newer link voids the older ones of its kind: a sign-in link the sign-in links, an
    // invitation the earlier invitations to the same workspace (so that asking for a sign-in
    // link, or being invited elsewhere, leaves a pending invitation alone).
    txn.execute_raw(ctx.db.stmt(
        "UPDATE sign_in_links SET voided_at = $1 WHERE user_id = $2 AND used_at IS NULL AND voided_at IS NULL \
         AND COALESCE(workspace_id, '') = $3",
        [
            Value::from(now),
            Value::from(user_id),
            Value::from(workspace_id.unwrap_or("")),
        ],
    ))
    .await?;
    txn.execute_raw(ctx.db.stmt(
        "INSERT INTO sign_in_links (token_hash, user_id, created_at, expires_at, workspace_id) VALUES ($1, $2, $3, $4, $5)",
        [
            Value::from(hash(ctx, &token)),
            Value::from(user_id),
            Value::from(now),
            Value::from(now + valid_ms),
            Value::from(workspace_id),
        ],
    ))
    .await?;
    txn.commit().await?;
    Ok((token, now + valid_ms))
}

/// A session opened by a link.
#[derive(Debug)]
pub struct SignedIn {
    pub session_id: String,
    /// The cookie's secret: in the clear only here.
    pub token: String,
    pub user_id: String,
    pub workspace_id: String,
}

/// Redeems a link: once, within its time, unless a newer one voided it; opens a session in
/// the person's first workspace. Every failure is the same `NotFound`, which says nothing of
/// why.
pub async fn redeem(
    ctx: &Ctx,
    token: &str,
    client_ip: IpAddr,
    user_agent: &str,
) -> Result<SignedIn, DomainError> {
    let gone = || {
        DomainError::NotFound(
            "This sign-in link does not work: it was used, ran out, or a newer one was sent. Ask for a new one."
                .into(),
        )
    };
    if token.len() != 43 {
        return Err(gone());
    }
    let now = ctx.now();
    let txn = ctx.db.conn.begin().await?;
    // Spent and read in one statement: of two tries at once, one alone gets the row.
    let row = txn
        .query_one_raw(ctx.db.stmt(
            "UPDATE sign_in_links SET used_at = $1 WHERE token_hash = $2 AND used_at IS NULL \
             AND voided_at IS NULL AND expires_at > $1 RETURNING user_id, workspace_id",
            [Value::from(now), Value::from(hash(ctx, token))],
        ))
        .await?
        .ok_or_else(gone)?;
    let user_id: String = row.try_get("", "user_id")?;
    // Signed in: the person's other links, of every kind, are spent too.
    txn.execute_raw(ctx.db.stmt(
        "UPDATE sign_in_links SET voided_at = $1 WHERE user_id = $2 AND used_at IS NULL AND voided_at IS NULL",
        [Value::from(now), Value::from(user_id.as_str())],
    ))
    .await?;
    // An invitation's link opens the workspace it invited to, while the person is still a
    // member there; otherwise their first workspace.
    let named: Option<String> = row.try_get("", "workspace_id")?;
    let invited = match named {
        Some(w) => members::role_in(&txn, ctx, &w, &user_id).await?.map(|_| w),
        None => None,
    };
    let workspace_id = match invited {
        Some(w) => w,
        None => members::first_workspace(&txn, ctx, &user_id)
            .await?
            .ok_or_else(gone)?,
    };
    open_session(txn, ctx, user_id, workspace_id, client_ip, user_agent).await
}

/// Opens a sign-in's session in `workspace_id` and commits the sign-in's transaction.
pub(super) async fn open_session(
    txn: sea_orm::DatabaseTransaction,
    ctx: &Ctx,
    user_id: String,
    workspace_id: String,
    client_ip: IpAddr,
    user_agent: &str,
) -> Result<SignedIn, DomainError> {
    let (session_id, token) =
        sessions::open(&txn, ctx, &user_id, &workspace_id, client_ip, user_agent).await?;
    txn.commit().await?;
    Ok(SignedIn {
        session_id,
        token,
        user_id,
        workspace_id,
    })
}
