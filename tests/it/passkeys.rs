//! Sign-in by passkey at the resolvers (issue 39), with credentials made here by ring the
//! way an authenticator makes them: ES256, Ed25519 and RS256 keys register and sign in; a
//! challenge serves once; an answer from another origin, for another site, signed by
//! another key, or with a counter that did not grow is refused; a person sees and removes
//! only their own passkeys. The browser's side (Chromium's virtual authenticator) is in
//! frontend/tests/app.test.mjs.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use ring::rand::SystemRandom;
use ring::signature::{self, KeyPair};
use signet_accounts::people::passkeys::{self, AssertionIn, PasskeyIn};
use signet_accounts::people::{links, members, sessions};
use signet_core::actor::Role;
use signet_core::plans::Plan;
use signet_core::{Actor, DomainError};

use crate::both;
use crate::harness::TestApp;

const IP: &str = "203.0.113.9";

/// Just enough CBOR to write what an authenticator writes.
fn head(major: u8, n: usize, out: &mut Vec<u8>) {
    match n {
        0..=23 => out.push(major << 5 | n as u8),
        24..=255 => out.extend([major << 5 | 24, n as u8]),
        _ => {
            out.push(major << 5 | 25);
            out.extend((n as u16).to_be_bytes());
        }
    }
}
fn int(i: i64, out: &mut Vec<u8>) {
    if i >= 0 {
        head(0, i as usize, out)
    } else {
        head(1, (-1 - i) as usize, out)
    }
}
fn bytes(b: &[u8], out: &mut Vec<u8>) {
    head(2, b.len(), out);
    out.extend_from_slice(b);
}
fn text(t: &str, out: &mut Vec<u8>) {
    head(3, t.len(), out);
    out.extend_from_slice(t.as_bytes());
}

/// How a credential signs a message.
type Signer = Box<dyn Fn(&[u8]) -> Vec<u8>>;

/// A credential: its id, its COSE public key, and how it signs.
struct Authenticator {
    id: Vec<u8>,
    cose: Vec<u8>,
    sign: Signer,
    count: std::cell::Cell<u32>,
}

fn es256() -> Authenticator {
    let rng = SystemRandom::new();
    let alg = &signature::ECDSA_P256_SHA256_ASN1_SIGNING;
    let pkcs8 = signature::EcdsaKeyPair::generate_pkcs8(alg, &rng).unwrap();
    let pair = signature::EcdsaKeyPair::from_pkcs8(alg, pkcs8.as_ref(), &rng).unwrap();
    let point = pair.public_key().as_ref().to_vec();
    let mut cose = vec![];
    head(5, 5, &mut cose);
    int(1, &mut cose);
    int(2, &mut cose);
    int(3, &mut cose);
    int(-7, &mut cose);
    int(-1, &mut cose);
    int(1, &mut cose);
    int(-2, &mut cose);
    bytes(&point[1..33], &mut cose);
    int(-3, &mut cose);
    bytes(&point[33..], &mut cose);
    Authenticator {
        id: signet_core::ids::new_id("cred").into_bytes(),
        cose,
        sign: Box::new(move |m| {
            pair.sign(&SystemRandom::new(), m)
                .unwrap()
                .as_ref()
                .to_vec()
        }),
        count: std::cell::Cell::new(0),
    }
}

fn ed25519() -> Authenticator {
    let pkcs8 = signature::Ed25519KeyPair::generate_pkcs8(&SystemRandom::new()).unwrap();
    let pair = signature::Ed25519KeyPair::from_pkcs8(pkcs8.as_ref()).unwrap();
    let mut cose = vec![];
    head(5, 4, &mut cose);
    int(1, &mut cose);
    int(1, &mut cose);
    int(3, &mut cose);
    int(-8, &mut cose);
    int(-1, &mut cose);
    int(6, &mut cose);
    int(-2, &mut cose);
    bytes(pair.public_key().as_ref(), &mut cose);
    Authenticator {
        id: signet_core::ids::new_id("cred").into_bytes(),
        cose,
        sign: Box::new(move |m| pair.sign(m).as_ref().to_vec()),
        count: std::cell::Cell::new(0),
    }
}

/// An RSA-2048 key made by openssl (ring signs with RSA but does not make keys).
fn rs256() -> Authenticator {
    let out = std::process::Command::new("openssl")
        .args([
            "genpkey",
            "-algorithm",
            "RSA",
            "-pkeyopt",
            "rsa_keygen_bits:2048",
            "-outform",
            "DER",
        ])
        .output()
        .expect("openssl makes an RSA key (installed by scripts/test)");
    assert!(out.status.success());
    // OpenSSL 3.0 writes `genpkey`'s RSA DER as PKCS#1 (RSAPrivateKey); others as PKCS#8.
    let pair = signature::RsaKeyPair::from_der(&out.stdout)
        .or_else(|_| signature::RsaKeyPair::from_pkcs8(&out.stdout))
        .unwrap();
    let public: signature::RsaPublicKeyComponents<Vec<u8>> = pair.public().into();
    let (n, e) = (public.n, public.e);
    let mut cose = vec![];
    head(5, 4, &mut cose);
    int(1, &mut cose);
    int(3, &mut cose);
    int(3, &mut cose);
    int(-257, &mut cose);
    int(-1, &mut cose);
    bytes(&n, &mut cose);
    int(-2, &mut cose);
    bytes(&e, &mut cose);
    Authenticator {
        id: signet_core::ids::new_id("cred").into_bytes(),
        cose,
        sign: Box::new(move |m| {
            let mut sig = vec![0; pair.public().modulus_len()];
            pair.sign(
                &signature::RSA_PKCS1_SHA256,
                &SystemRandom::new(),
                m,
                &mut sig,
            )
            .unwrap();
            sig
        }),
        count: std::cell::Cell::new(0),
    }
}

fn sha256(b: &[u8]) -> Vec<u8> {
    ring::digest::digest(&ring::digest::SHA256, b)
        .as_ref()
        .to_vec()
}

fn client_data(kind: &str, challenge: &str, origin: &str) -> Vec<u8> {
    serde_json::json!({"type": kind, "challenge": challenge, "origin": origin})
        .to_string()
        .into_bytes()
}

impl Authenticator {
    fn register(&self, rp_id: &str, challenge: &str, origin: &str, name: &str) -> PasskeyIn {
        let mut data = sha256(rp_id.as_bytes());
        data.push(0x41);
        data.extend(0u32.to_be_bytes());
        data.extend([0u8; 16]);
        data.extend((self.id.len() as u16).to_be_bytes());
        data.extend(&self.id);
        data.extend(&self.cose);
        let mut object = vec![];
        head(5, 3, &mut object);
        text("fmt", &mut object);
        text("none", &mut object);
        text("attStmt", &mut object);
        head(5, 0, &mut object);
        text("authData", &mut object);
        bytes(&data, &mut object);
        PasskeyIn {
            name: name.into(),
            client_data_json: B64.encode(client_data("webauthn.create", challenge, origin)),
            attestation_object: B64.encode(object),
        }
    }

    fn answer(&self, rp_id: &str, challenge: &str, origin: &str) -> AssertionIn {
        self.count.set(self.count.get() + 1);
        let mut data = sha256(rp_id.as_bytes());
        data.push(0x05);
        data.extend(self.count.get().to_be_bytes());
        let client = client_data("webauthn.get", challenge, origin);
        let mut message = data.clone();
        message.extend(sha256(&client));
        AssertionIn {
            id: B64.encode(&self.id),
            client_data_json: B64.encode(&client),
            authenticator_data: B64.encode(&data),
            signature: B64.encode((self.sign)(&message)),
            user_handle: None,
        }
    }
}

async fn signed_in_person(app: &TestApp, email: &str) -> Actor {
    let ws = app.workspace(Plan::Pro).await;
    let id = members::ensure_person(app.ctx(), email, "Pat Key", "en")
        .await
        .unwrap();
    members::set_member(app.ctx(), &ws, &id, Role::Member, None)
        .await
        .unwrap();
    let link = links::issue_for_operator(app.ctx(), &id).await.unwrap();
    let signed = links::redeem(app.ctx(), &link.token, IP.parse().unwrap(), "t")
        .await
        .unwrap();
    sessions::authenticate(app.ctx(), &signed.token)
        .await
        .unwrap()
}

fn challenge_of(options: &serde_json::Value) -> String {
    options["challenge"].as_str().unwrap().to_string()
}

both!(
    passkeys_of_each_algorithm_register_and_sign_in_once_per_challenge,
    |app| {
        let ctx = app.ctx();
        let rp = passkeys::relying_party(ctx).unwrap();
        let actor = signed_in_person(&app, "pat@example.com").await;
        let ip = IP.parse().unwrap();
        for (auth, alg) in [
            (es256(), "ES256"),
            (ed25519(), "Ed25519"),
            (rs256(), "RS256"),
        ] {
            let options = passkeys::registration_options(ctx, &actor).await.unwrap();
            assert_eq!(options["rp"]["id"], rp.id.as_str());
            assert_eq!(options["attestation"], "none");
            let made = auth.register(&rp.id, &challenge_of(&options), &rp.origin, alg);
            let key = passkeys::register(ctx, &actor, None, made.clone())
                .await
                .unwrap();
            assert_eq!(key.algorithm, alg);
            // The registration's challenge served once.
            assert!(matches!(
                passkeys::register(ctx, &actor, None, made).await,
                Err(DomainError::Invalid(_))
            ));

            let options = passkeys::sign_in_options(ctx).await.unwrap();
            let answer = auth.answer(&rp.id, &challenge_of(&options), &rp.origin);
            let signed = passkeys::sign_in(ctx, answer.clone(), ip, "t")
                .await
                .unwrap();
            let me = sessions::authenticate(ctx, &signed.token).await.unwrap();
            assert_eq!(me.workspace_id, actor.workspace_id);
            // The same answer again: its challenge is spent.
            assert!(
                passkeys::sign_in(ctx, answer, ip, "t").await.is_err(),
                "{alg} replayed"
            );
        }
        let listed = passkeys::list(ctx, &actor).await.unwrap();
        assert_eq!(listed.len(), 3);
        assert!(listed.iter().all(|p| p.last_used_at.is_some()));
    }
);

both!(a_passkey_answer_that_does_not_check_out_is_refused, |app| {
    let ctx = app.ctx();
    let rp = passkeys::relying_party(ctx).unwrap();
    let actor = signed_in_person(&app, "sam@example.com").await;
    let ip = IP.parse().unwrap();
    let auth = es256();
    let options = passkeys::registration_options(ctx, &actor).await.unwrap();
    // Registered from another origin, or for another site: refused.
    let c = challenge_of(&options);
    assert!(
        passkeys::register(
            ctx,
            &actor,
            None,
            auth.register(&rp.id, &c, "https://evil.example", "x")
        )
        .await
        .is_err()
    );
    let options = passkeys::registration_options(ctx, &actor).await.unwrap();
    assert!(
        passkeys::register(
            ctx,
            &actor,
            None,
            auth.register("evil.example", &challenge_of(&options), &rp.origin, "x")
        )
        .await
        .is_err()
    );
    let options = passkeys::registration_options(ctx, &actor).await.unwrap();
    passkeys::register(
        ctx,
        &actor,
        None,
        auth.register(&rp.id, &challenge_of(&options), &rp.origin, "Laptop"),
    )
    .await
    .unwrap();

    let refused =
        async |answer: AssertionIn| passkeys::sign_in(ctx, answer, ip, "t").await.is_err();
    let fresh = async || challenge_of(&passkeys::sign_in_options(ctx).await.unwrap());
    // Another origin; another site; a made-up challenge.
    assert!(refused(auth.answer(&rp.id, &fresh().await, "https://evil.example")).await);
    assert!(refused(auth.answer("evil.example", &fresh().await, &rp.origin)).await);
    assert!(refused(auth.answer(&rp.id, &sessions::secret().unwrap(), &rp.origin)).await);
    // Signed by another key under this credential's id.
    let mut other = es256();
    other.id = auth.id.clone();
    assert!(refused(other.answer(&rp.id, &fresh().await, &rp.origin)).await);
    // An unknown credential.
    assert!(refused(es256().answer(&rp.id, &fresh().await, &rp.origin)).await);
    // A good answer signs in; a copy whose counter did not grow does not.
    assert!(!refused(auth.answer(&rp.id, &fresh().await, &rp.origin)).await);
    auth.count.set(auth.count.get() - 1);
    assert!(
        refused(auth.answer(&rp.id, &fresh().await, &rp.origin)).await,
        "counter went back"
    );
    // A challenge runs out.
    let late = fresh().await;
    app.advance(std::time::Duration::from_secs(5 * 60 + 1));
    assert!(refused(auth.answer(&rp.id, &late, &rp.origin)).await);
});

both!(a_person_sees_and_removes_only_their_own_passkeys, |app| {
    let ctx = app.ctx();
    let rp = passkeys::relying_party(ctx).unwrap();
    let ana = signed_in_person(&app, "ana@example.com").await;
    let bob = signed_in_person(&app, "bob@example.com").await;
    let options = passkeys::registration_options(ctx, &ana).await.unwrap();
    let key = passkeys::register(
        ctx,
        &ana,
        None,
        es256().register(&rp.id, &challenge_of(&options), &rp.origin, "Phone"),
    )
    .await
    .unwrap();
    // Bob's challenge does not register a passkey for Ana, nor Ana's for Bob.
    let theirs = passkeys::registration_options(ctx, &bob).await.unwrap();
    assert!(
        passkeys::register(
            ctx,
            &ana,
            None,
            es256().register(&rp.id, &challenge_of(&theirs), &rp.origin, "x")
        )
        .await
        .is_err()
    );
    assert!(passkeys::list(ctx, &bob).await.unwrap().is_empty());
    assert!(matches!(
        passkeys::change(ctx, &bob, &key.id, None).await,
        Err(DomainError::NotFound(_))
    ));
    assert!(matches!(
        passkeys::change(ctx, &bob, &key.id, Some("Mine")).await,
        Err(DomainError::NotFound(_))
    ));
    passkeys::change(ctx, &ana, &key.id, Some("Work phone"))
        .await
        .unwrap();
    assert_eq!(
        passkeys::list(ctx, &ana).await.unwrap()[0].name,
        "Work phone"
    );
    passkeys::change(ctx, &ana, &key.id, None).await.unwrap();
    assert!(passkeys::list(ctx, &ana).await.unwrap().is_empty());
    // A key is no person.
    let (_, api_key) = app.owner().await;
    let key_actor = app.actor(&api_key).await;
    assert!(matches!(
        passkeys::registration_options(ctx, &key_actor).await,
        Err(DomainError::Forbidden(_))
    ));
});
