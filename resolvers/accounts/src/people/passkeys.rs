//! Sign-in by passkey (WebAuthn level 2, attestation `none`), verified with ring: ES256,
//! RS256 and Ed25519 (docs/decisions/the-application.md). A signed-in person registers
//! passkeys (at most [`MAX_PER_PERSON`]), names and removes them; anyone may then sign in with
//! one, the browser choosing among the passkeys it holds for this site. Each ceremony uses a
//! challenge of 32 random bytes, stored until used once or [`CHALLENGE_MS`] runs out. The
//! relying party is the public URL's host, and the client's origin must be the public URL's.
//! A signature counter that does not grow (when the authenticator keeps one) refuses the
//! sign-in: the passkey may have been copied.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use ring::signature::{self, UnparsedPublicKey};
use sea_orm::{ConnectionTrait, TransactionTrait, Value};
use serde::Deserialize;
use serde_json::json;
use signet_core::{Actor, Ctx, DomainError, ids};

use super::cbor::{self, Cbor};
use super::links::{self, SignedIn};
use super::{members, sessions};

/// How long a ceremony's challenge works.
pub const CHALLENGE_MS: i64 = 5 * 60 * 1000;
/// Passkeys one person may hold.
pub const MAX_PER_PERSON: i64 = 20;
/// The largest encoded part of a credential taken (an RSA-4096 key's attestation fits).
const MAX_PART: usize = 16 * 1024;

const ES256: i64 = -7;
const EDDSA: i64 = -8;
const RS256: i64 = -257;

/// Who the passkeys are for: the public URL's host and origin.
pub struct RelyingParty {
    pub id: String,
    pub origin: String,
}

pub fn relying_party(ctx: &Ctx) -> Result<RelyingParty, DomainError> {
    let url = url::Url::parse(&ctx.public_url)
        .map_err(|e| DomainError::Internal(format!("public_url: {e}")))?;
    let id = url
        .host_str()
        .ok_or_else(|| DomainError::Internal("public_url has no host".into()))?
        .to_string();
    Ok(RelyingParty {
        id,
        origin: url.origin().ascii_serialization(),
    })
}

fn random_challenge() -> Result<String, DomainError> {
    // The same 32 random bytes, base64url, as a session's secret.
    sessions::secret()
}

async fn new_challenge(
    ctx: &Ctx,
    user_id: Option<&str>,
    purpose: &str,
) -> Result<String, DomainError> {
    let challenge = random_challenge()?;
    ctx.db
        .conn
        .execute_raw(ctx.db.stmt(
            "INSERT INTO passkey_challenges (challenge, user_id, purpose, expires_at) VALUES ($1, $2, $3, $4)",
            [
                Value::from(challenge.as_str()),
                Value::from(user_id),
                Value::from(purpose),
                Value::from(ctx.now() + CHALLENGE_MS),
            ],
        ))
        .await?;
    Ok(challenge)
}

/// Spends a challenge once: it must exist, be for `purpose` (and `user_id`, when one is
/// named) and not have run out.
async fn spend_challenge<C: ConnectionTrait>(
    conn: &C,
    ctx: &Ctx,
    challenge: &str,
    purpose: &str,
    user_id: Option<&str>,
) -> Result<bool, DomainError> {
    let row = conn
        .query_one_raw(ctx.db.stmt(
            "DELETE FROM passkey_challenges WHERE challenge = $1 AND purpose = $2 AND expires_at > $3 \
             RETURNING user_id",
            [
                Value::from(challenge),
                Value::from(purpose),
                Value::from(ctx.now()),
            ],
        ))
        .await?;
    Ok(match row {
        Some(r) => r.try_get::<Option<String>>("", "user_id")?.as_deref() == user_id,
        None => false,
    })
}

fn part(field: &str, b64: &str) -> Result<Vec<u8>, DomainError> {
    if b64.len() > MAX_PART * 4 / 3 + 4 {
        return Err(DomainError::invalid(field, "is too large"));
    }
    B64.decode(b64.trim_end_matches('='))
        .map_err(|_| DomainError::invalid(field, "must be base64url"))
}

/// What the client says it did: the ceremony, its challenge, its origin.
#[derive(Deserialize)]
struct ClientData {
    #[serde(rename = "type")]
    kind: String,
    challenge: String,
    origin: String,
    #[serde(rename = "crossOrigin", default)]
    cross_origin: bool,
}

/// The client data, checked against the ceremony and this site; answers its challenge.
fn client_data(bytes: &[u8], kind: &str, rp: &RelyingParty) -> Result<String, String> {
    let c: ClientData =
        serde_json::from_slice(bytes).map_err(|_| "clientDataJSON is not the client's data")?;
    if c.kind != kind {
        return Err(format!(
            "clientDataJSON is a {} ceremony, not {kind}",
            c.kind
        ));
    }
    if c.origin != rp.origin || c.cross_origin {
        return Err(format!(
            "clientDataJSON comes from {}, not {}",
            c.origin, rp.origin
        ));
    }
    Ok(c.challenge)
}

/// The authenticator's data, checked for this site and the user's presence.
struct AuthData {
    sign_count: u32,
    /// The new credential, in a registration: its id and COSE public key.
    attested: Option<(Vec<u8>, Vec<u8>)>,
}

fn auth_data(bytes: &[u8], rp: &RelyingParty) -> Result<AuthData, String> {
    if bytes.len() < 37 {
        return Err("authenticatorData is too short".into());
    }
    let rp_hash = ring::digest::digest(&ring::digest::SHA256, rp.id.as_bytes());
    if &bytes[..32] != rp_hash.as_ref() {
        return Err(format!("the passkey is for another site than {}", rp.id));
    }
    let flags = bytes[32];
    if flags & 0x01 == 0 {
        return Err("the authenticator did not see the person (user presence)".into());
    }
    let sign_count = u32::from_be_bytes([bytes[33], bytes[34], bytes[35], bytes[36]]);
    let attested = if flags & 0x40 != 0 {
        let rest = &bytes[37..];
        if rest.len() < 18 {
            return Err("the attested credential is cut short".into());
        }
        let len = u16::from_be_bytes([rest[16], rest[17]]) as usize;
        let id = rest
            .get(18..18 + len)
            .ok_or("the credential id is cut short")?;
        let key_bytes = &rest[18 + len..];
        let (_, used) = cbor::decode(key_bytes)?;
        Some((id.to_vec(), key_bytes[..used].to_vec()))
    } else {
        None
    };
    Ok(AuthData {
        sign_count,
        attested,
    })
}

/// A COSE public key's algorithm, once the key is one ring verifies.
fn key_algorithm(cose: &[u8]) -> Result<i64, String> {
    let (key, _) = cbor::decode(cose)?;
    let alg = key
        .int_key(3)
        .and_then(Cbor::int)
        .ok_or("the key names no algorithm")?;
    let kty = key.int_key(1).and_then(Cbor::int);
    let len = |label: i128| key.int_key(label).and_then(Cbor::bytes).map(<[u8]>::len);
    let fits = match alg as i64 {
        ES256 => {
            kty == Some(2)
                && key.int_key(-1).and_then(Cbor::int) == Some(1)
                && len(-2) == Some(32)
                && len(-3) == Some(32)
        }
        EDDSA => {
            kty == Some(1) && key.int_key(-1).and_then(Cbor::int) == Some(6) && len(-2) == Some(32)
        }
        RS256 => {
            kty == Some(3) && len(-1).is_some_and(|n| (256..=512).contains(&n)) && len(-2).is_some()
        }
        other => {
            return Err(format!(
                "algorithm {other} is not one of ES256, RS256, Ed25519"
            ));
        }
    };
    if !fits {
        return Err("the public key does not match its algorithm".into());
    }
    Ok(alg as i64)
}

/// Whether `sig` is the key's signature of `message`.
fn verify(cose: &[u8], message: &[u8], sig: &[u8]) -> bool {
    let Ok((key, _)) = cbor::decode(cose) else {
        return false;
    };
    let b = |label: i128| key.int_key(label).and_then(Cbor::bytes).unwrap_or_default();
    match key.int_key(3).and_then(Cbor::int).map(|a| a as i64) {
        Some(ES256) => {
            let mut point = vec![0x04];
            point.extend_from_slice(b(-2));
            point.extend_from_slice(b(-3));
            UnparsedPublicKey::new(&signature::ECDSA_P256_SHA256_ASN1, point)
                .verify(message, sig)
                .is_ok()
        }
        Some(EDDSA) => UnparsedPublicKey::new(&signature::ED25519, b(-2))
            .verify(message, sig)
            .is_ok(),
        Some(RS256) => signature::RsaPublicKeyComponents { n: b(-1), e: b(-2) }
            .verify(&signature::RSA_PKCS1_2048_8192_SHA256, message, sig)
            .is_ok(),
        _ => false,
    }
}

/// What the page hands `navigator.credentials.create` to register a passkey.
pub async fn registration_options(
    ctx: &Ctx,
    actor: &Actor,
) -> Result<serde_json::Value, DomainError> {
    let (user_id, _) = sessions::person_of(actor)?;
    let rp = relying_party(ctx)?;
    let person = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT email, name FROM users WHERE id = $1",
            [Value::from(user_id)],
        ))
        .await?
        .ok_or(DomainError::Unauthenticated)?;
    let existing = ctx
        .db
        .conn
        .query_all_raw(ctx.db.stmt(
            &format!(
                "SELECT credential_id FROM passkeys WHERE user_id = $1 LIMIT {MAX_PER_PERSON}"
            ),
            [Value::from(user_id)],
        ))
        .await?;
    let exclude: Vec<serde_json::Value> = existing
        .iter()
        .filter_map(|r| r.try_get::<String>("", "credential_id").ok())
        .map(|id| json!({"type": "public-key", "id": id}))
        .collect();
    let challenge = new_challenge(ctx, Some(user_id), "register").await?;
    Ok(json!({
        "challenge": challenge,
        "rp": {"id": rp.id, "name": "Signet"},
        "user": {
            "id": B64.encode(user_id.as_bytes()),
            "name": person.try_get::<String>("", "email")?,
            "displayName": person.try_get::<String>("", "name")?,
        },
        "pubKeyCredParams": [
            {"type": "public-key", "alg": ES256},
            {"type": "public-key", "alg": EDDSA},
            {"type": "public-key", "alg": RS256},
        ],
        "timeout": CHALLENGE_MS,
        "attestation": "none",
        "authenticatorSelection": {"residentKey": "required", "userVerification": "preferred"},
        "excludeCredentials": exclude,
    }))
}

/// A new passkey as the browser made it (each part base64url).
#[derive(Clone, Debug, Deserialize, async_graphql::InputObject)]
#[serde(rename_all = "camelCase")]
pub struct PasskeyIn {
    /// What the person calls it ("Laptop", "Phone").
    pub name: String,
    pub client_data_json: String,
    pub attestation_object: String,
}

/// A passkey as its person sees it.
#[derive(Clone, Debug, serde::Serialize, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct PasskeyOut {
    pub id: String,
    pub name: String,
    /// ES256, RS256 or Ed25519.
    pub algorithm: String,
    /// Milliseconds since the epoch.
    pub created_at: i64,
    pub last_used_at: Option<i64>,
}

fn alg_name(alg: i64) -> &'static str {
    match alg {
        ES256 => "ES256",
        EDDSA => "Ed25519",
        _ => "RS256",
    }
}

fn name_field(name: &str) -> Result<String, DomainError> {
    let n = name.trim();
    if n.is_empty() || n.chars().count() > 100 {
        return Err(DomainError::invalid("name", "must be 1 to 100 characters"));
    }
    Ok(n.to_string())
}

/// Registers the passkey the browser made for the signed-in person.
pub async fn register(
    ctx: &Ctx,
    actor: &Actor,
    from: Option<std::net::IpAddr>,
    input: PasskeyIn,
) -> Result<PasskeyOut, DomainError> {
    let (user_id, _) = sessions::person_of(actor)?;
    let name = name_field(&input.name)?;
    let rp = relying_party(ctx)?;
    let refuse = |why: String| DomainError::invalid("credential", why);
    let client = part("clientDataJson", &input.client_data_json)?;
    let challenge = client_data(&client, "webauthn.create", &rp).map_err(refuse)?;
    let object = part("attestationObject", &input.attestation_object)?;
    let (attestation, _) = cbor::decode(&object).map_err(refuse)?;
    // Attestation `none` was asked for: the statement, if any, is not relied on.
    let data = attestation
        .text_key("authData")
        .and_then(Cbor::bytes)
        .ok_or_else(|| refuse("the attestation has no authData".into()))?;
    let parsed = auth_data(data, &rp).map_err(refuse)?;
    let (credential, cose) = parsed
        .attested
        .ok_or_else(|| refuse("no new credential in authData".into()))?;
    let alg = key_algorithm(&cose).map_err(refuse)?;
    let credential_id = B64.encode(&credential);
    // Spent on its own, first: whatever follows, a challenge serves once.
    if !spend_challenge(&ctx.db.conn, ctx, &challenge, "register", Some(user_id)).await? {
        return Err(refuse(
            "its challenge is unknown, used or run out; try again".into(),
        ));
    }
    let txn = ctx.db.conn.begin().await?;
    let held: i64 = txn
        .query_one_raw(ctx.db.stmt(
            "SELECT COUNT(*) AS n FROM passkeys WHERE user_id = $1",
            [Value::from(user_id)],
        ))
        .await?
        .map(|r| r.try_get("", "n"))
        .transpose()?
        .unwrap_or(0);
    if held >= MAX_PER_PERSON {
        return Err(DomainError::conflict(format!(
            "a person holds at most {MAX_PER_PERSON} passkeys; remove one first"
        )));
    }
    let id = ids::new_id("pky");
    let now = ctx.now();
    let inserted = txn
        .execute_raw(ctx.db.stmt(
            "INSERT INTO passkeys (id, user_id, credential_id, public_key, algorithm, sign_count, name, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (credential_id) DO NOTHING",
            [
                Value::from(id.as_str()),
                Value::from(user_id),
                Value::from(credential_id.as_str()),
                Value::from(B64.encode(&cose)),
                Value::from(alg as i32),
                Value::from(parsed.sign_count as i64),
                Value::from(name.as_str()),
                Value::from(now),
            ],
        ))
        .await?
        .rows_affected();
    if inserted == 0 {
        return Err(DomainError::conflict("this passkey is registered already"));
    }
    crate::activity::record(
        &txn,
        ctx,
        actor,
        from,
        "passkey.added",
        &name,
        alg_name(alg),
    )
    .await?;
    txn.commit().await?;
    Ok(PasskeyOut {
        id,
        name,
        algorithm: alg_name(alg).into(),
        created_at: now,
        last_used_at: None,
    })
}

/// The signed-in person's passkeys, oldest first.
pub async fn list(ctx: &Ctx, actor: &Actor) -> Result<Vec<PasskeyOut>, DomainError> {
    let (user_id, _) = sessions::person_of(actor)?;
    let rows = ctx
        .db
        .conn
        .query_all_raw(ctx.db.stmt(
            &format!(
                "SELECT id, name, algorithm, created_at, last_used_at FROM passkeys WHERE user_id = $1 \
                 ORDER BY created_at, id LIMIT {MAX_PER_PERSON}"
            ),
            [Value::from(user_id)],
        ))
        .await?;
    rows.iter()
        .map(|r| {
            Ok(PasskeyOut {
                id: r.try_get("", "id")?,
                name: r.try_get("", "name")?,
                algorithm: alg_name(r.try_get::<i32>("", "algorithm")? as i64).into(),
                created_at: r.try_get("", "created_at")?,
                last_used_at: r.try_get("", "last_used_at")?,
            })
        })
        .collect()
}

/// Renames (`name` given) or removes one of the signed-in person's passkeys; another
/// person's is not found. An address always remains a way in, so the last may go.
pub async fn change(
    ctx: &Ctx,
    actor: &Actor,
    id: &str,
    name: Option<&str>,
) -> Result<(), DomainError> {
    let (user_id, _) = sessions::person_of(actor)?;
    let stmt = match name {
        Some(n) => ctx.db.stmt(
            "UPDATE passkeys SET name = $1 WHERE id = $2 AND user_id = $3",
            [
                Value::from(name_field(n)?),
                Value::from(id),
                Value::from(user_id),
            ],
        ),
        None => ctx.db.stmt(
            "DELETE FROM passkeys WHERE id = $1 AND user_id = $2",
            [Value::from(id), Value::from(user_id)],
        ),
    };
    if ctx.db.conn.execute_raw(stmt).await?.rows_affected() == 0 {
        return Err(DomainError::NotFound(format!("no passkey {id} of yours")));
    }
    Ok(())
}

/// What the sign-in page hands `navigator.credentials.get`: any passkey of this site.
pub async fn sign_in_options(ctx: &Ctx) -> Result<serde_json::Value, DomainError> {
    let rp = relying_party(ctx)?;
    let challenge = new_challenge(ctx, None, "sign_in").await?;
    Ok(json!({
        "challenge": challenge,
        "rpId": rp.id,
        "timeout": CHALLENGE_MS,
        "userVerification": "preferred",
        "allowCredentials": [],
    }))
}

/// A passkey's answer to a sign-in challenge (each part base64url).
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AssertionIn {
    pub id: String,
    pub client_data_json: String,
    pub authenticator_data: String,
    pub signature: String,
    #[serde(default)]
    pub user_handle: Option<String>,
}

/// Signs in with a passkey: its challenge spent once, the site, the person's presence, the
/// signature and the counter checked; a session opened in the person's first workspace.
/// Every failure is the same `Unauthenticated`-like answer, which says nothing of why.
pub async fn sign_in(
    ctx: &Ctx,
    input: AssertionIn,
    client_ip: std::net::IpAddr,
    user_agent: &str,
) -> Result<SignedIn, DomainError> {
    let refused = || {
        DomainError::Forbidden(
            "This passkey does not sign in here: it is not registered, or its answer did not check out. Sign in with an emailed link instead."
                .into(),
        )
    };
    let rp = relying_party(ctx)?;
    let client = part("clientDataJson", &input.client_data_json)?;
    let data = part("authenticatorData", &input.authenticator_data)?;
    let sig = part("signature", &input.signature)?;
    let challenge = client_data(&client, "webauthn.get", &rp).map_err(|why| {
        tracing::debug!(why, "a passkey sign-in was refused");
        refused()
    })?;
    // Spent on its own, first: whatever follows, a challenge serves once.
    if !spend_challenge(&ctx.db.conn, ctx, &challenge, "sign_in", None).await? {
        return Err(refused());
    }
    let txn = ctx.db.conn.begin().await?;
    let row = txn
        .query_one_raw(ctx.db.stmt(
            "SELECT id, user_id, public_key, sign_count FROM passkeys WHERE credential_id = $1",
            [Value::from(input.id.trim_end_matches('='))],
        ))
        .await?
        .ok_or_else(refused)?;
    let parsed = auth_data(&data, &rp).map_err(|_| refused())?;
    let cose = B64
        .decode(row.try_get::<String>("", "public_key")?)
        .map_err(|_| DomainError::Internal("a stored passkey does not decode".into()))?;
    let mut message = data.clone();
    message.extend_from_slice(ring::digest::digest(&ring::digest::SHA256, &client).as_ref());
    if !verify(&cose, &message, &sig) {
        return Err(refused());
    }
    let key_id: String = row.try_get("", "id")?;
    let user_id: String = row.try_get("", "user_id")?;
    let stored: i64 = row.try_get("", "sign_count")?;
    let count = parsed.sign_count as i64;
    if (stored > 0 || count > 0) && count <= stored {
        tracing::warn!(passkey = %key_id, stored, count, "a passkey's counter went backwards: it may have been copied; sign-in refused");
        return Err(refused());
    }
    txn.execute_raw(ctx.db.stmt(
        "UPDATE passkeys SET sign_count = $1, last_used_at = $2 WHERE id = $3",
        [
            Value::from(count),
            Value::from(ctx.now()),
            Value::from(key_id.as_str()),
        ],
    ))
    .await?;
    let workspace_id = members::first_workspace(&txn, ctx, &user_id)
        .await?
        .ok_or_else(refused)?;
    links::open_session(txn, ctx, user_id, workspace_id, client_ip, user_agent).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rp() -> RelyingParty {
        RelyingParty {
            id: "sign.example.com".into(),
            origin: "https://sign.example.com".into(),
        }
    }

    #[test]
    fn client_data_must_be_this_ceremony_from_this_origin() {
        let cd = |t: &str, o: &str| {
            format!(r#"{{"type":"{t}","challenge":"abc","origin":"{o}"}}"#).into_bytes()
        };
        assert_eq!(
            client_data(
                &cd("webauthn.get", "https://sign.example.com"),
                "webauthn.get",
                &rp()
            )
            .unwrap(),
            "abc"
        );
        assert!(
            client_data(
                &cd("webauthn.create", "https://sign.example.com"),
                "webauthn.get",
                &rp()
            )
            .is_err()
        );
        assert!(
            client_data(
                &cd("webauthn.get", "https://evil.example"),
                "webauthn.get",
                &rp()
            )
            .is_err()
        );
    }

    #[test]
    fn authenticator_data_must_be_for_this_site_with_the_person_present() {
        let mut data = ring::digest::digest(&ring::digest::SHA256, b"sign.example.com")
            .as_ref()
            .to_vec();
        data.extend_from_slice(&[0x01, 0, 0, 0, 7]);
        assert_eq!(auth_data(&data, &rp()).unwrap().sign_count, 7);
        data[32] = 0;
        assert!(auth_data(&data, &rp()).is_err(), "no user presence");
        data[0] ^= 1;
        assert!(auth_data(&data, &rp()).is_err(), "another site");
        assert!(auth_data(&data[..20], &rp()).is_err());
    }
}
