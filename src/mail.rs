//! The mail transports: SMTP through lettre (pooled connections, STARTTLS or implicit TLS, a
//! timeout), or, with no SMTP set, RFC 5322 `.eml` files in `<data_dir>/mail/`. Both build
//! the message with lettre from what the mail worker composed.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::message::{Attachment, Mailbox, MultiPart, SinglePart};
use lettre::transport::smtp::PoolConfig;
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use secrecy::ExposeSecret;
use signet_resolvers::email::{Outgoing, SendError, Transport};

use crate::Config;

/// The transport `config` asks for.
pub fn transport(config: &Config) -> anyhow::Result<Arc<dyn Transport>> {
    let from: Mailbox = config.mail_from().parse().with_context(|| {
        format!(
            "mail_from (SIGNET_MAIL_FROM): '{}' is not an address like 'Signet <sign@example.com>'",
            config.mail_from()
        )
    })?;
    Ok(match &config.smtp_url {
        Some(url) => Arc::new(Smtp::new(url.expose_secret(), from, config)?),
        None => Arc::new(Folder {
            dir: config.data_dir.join("mail"),
            from,
        }),
    })
}

fn domain_of(from: &Mailbox) -> String {
    from.email.domain().to_string()
}

/// Builds the RFC 5322 message.
fn message(from: &Mailbox, m: &Outgoing) -> Result<Message, SendError> {
    let bad = |what: &str, e: &dyn std::fmt::Display| SendError::Permanent(format!("{what}: {e}"));
    let to: Mailbox =
        m.to.parse()
            .map_err(|e| bad("the address cannot be written", &e))?;
    let from = Mailbox::new(Some(m.from_name.clone()), from.email.clone());
    let mut b = Message::builder()
        .message_id(Some(m.message_id.clone()))
        .from(from)
        .to(to)
        .subject(m.subject.clone())
        .date_now()
        .raw_header(HeaderValue::new(
            HeaderName::new_from_ascii_str("Auto-Submitted"),
            "auto-generated".into(),
        ))
        .raw_header(HeaderValue::new(
            HeaderName::new_from_ascii_str("Content-Language"),
            m.lang.clone(),
        ));
    if let Some(r) = &m.reply_to {
        b = b.reply_to(
            r.parse()
                .map_err(|e| bad("the reply-to address cannot be written", &e))?,
        );
    }
    let alternative = MultiPart::alternative()
        .singlepart(SinglePart::plain(m.text.clone()))
        .singlepart(SinglePart::html(m.html.clone()));
    let body = match &m.attachment {
        None => alternative,
        Some(a) => MultiPart::mixed().multipart(alternative).singlepart(
            Attachment::new(a.filename.clone()).body(
                a.data.clone(),
                ContentType::parse(&a.content_type)
                    .map_err(|e| bad("the attachment's type", &e))?,
            ),
        ),
    };
    b.multipart(body)
        .map_err(|e| bad("the message cannot be built", &e))
}

/// `.eml` files, one per email, named by its log id.
pub struct Folder {
    pub dir: PathBuf,
    pub from: Mailbox,
}

#[async_trait::async_trait]
impl Transport for Folder {
    async fn send(&self, mail: &Outgoing) -> Result<(), SendError> {
        let msg = message(&self.from, mail)?;
        let bytes = msg.formatted();
        let (dir, name) = (self.dir.clone(), format!("{}.eml", mail.email_id));
        tokio::task::spawn_blocking(move || -> std::io::Result<()> {
            use std::io::Write as _;
            std::fs::create_dir_all(&dir)?;
            // Whole or not at all: a file is written under a temporary name and renamed.
            let tmp = dir.join(format!(".{name}.tmp"));
            let mut f = std::fs::File::create(&tmp)?;
            f.write_all(&bytes)?;
            f.sync_all()?;
            std::fs::rename(&tmp, dir.join(&name))
        })
        .await
        .map_err(|e| SendError::Temporary(format!("writing the file: {e}")))?
        .map_err(|e| SendError::Temporary(format!("writing {}: {e}", self.dir.display())))
    }

    fn describe(&self) -> String {
        format!(
            "the folder {} (.eml files; set smtp_url to send)",
            self.dir.display()
        )
    }

    fn domain(&self) -> String {
        domain_of(&self.from)
    }
}

/// SMTP with a pool of connections.
pub struct Smtp {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    /// At most `smtp_connections` conversations at once: lettre's pool bounds the idle
    /// connections it keeps, not the ones it opens.
    slots: tokio::sync::Semaphore,
    from: Mailbox,
    shown: String,
}

impl Smtp {
    fn new(raw: &str, from: Mailbox, config: &Config) -> anyhow::Result<Smtp> {
        let setting = "smtp_url (SIGNET_SMTP_URL)";
        let url = url::Url::parse(raw).map_err(|e| anyhow::anyhow!("{setting}: {e}"))?;
        let host = url
            .host_str()
            .filter(|h| !h.is_empty())
            .ok_or_else(|| anyhow::anyhow!("{setting}: names no host"))?
            .trim_matches(|c| c == '[' || c == ']')
            .to_string();
        let implicit = match url.scheme() {
            "smtp" => false,
            "smtps" => true,
            s => anyhow::bail!("{setting}: the scheme must be smtp:// or smtps://, not {s}://"),
        };
        let mut tls_mode = if implicit { "implicit" } else { "none" };
        for (k, v) in url.query_pairs() {
            match (k.as_ref(), v.as_ref()) {
                ("tls", "starttls" | "required") if !implicit => tls_mode = "starttls",
                ("tls", "opportunistic") if !implicit => tls_mode = "opportunistic",
                ("tls", "none") if !implicit => tls_mode = "none",
                ("tls", other) => anyhow::bail!(
                    "{setting}: tls={other} is not one of starttls, opportunistic, none (smtps:// is always TLS)"
                ),
                (other, _) => anyhow::bail!("{setting}: unknown option {other}; only tls= is read"),
            }
        }
        let port = url.port().unwrap_or(match tls_mode {
            "implicit" => 465,
            "starttls" => 587,
            _ => 25,
        });
        let mut params = TlsParameters::builder(host.clone());
        if let Some(file) = &config.smtp_ca_file {
            let pem = std::fs::read(file).with_context(|| {
                format!(
                    "smtp_ca_file (SIGNET_SMTP_CA_FILE): cannot read {}",
                    file.display()
                )
            })?;
            let cert = Certificate::from_pem(&pem).with_context(|| {
                format!(
                    "smtp_ca_file (SIGNET_SMTP_CA_FILE): {} is not a PEM certificate",
                    file.display()
                )
            })?;
            params = params.add_root_certificate(cert);
        }
        let params = params
            .build_rustls()
            .map_err(|e| anyhow::anyhow!("{setting}: TLS for {host}: {e}"))?;
        let tls = match tls_mode {
            "implicit" => Tls::Wrapper(params),
            "starttls" => Tls::Required(params),
            "opportunistic" => Tls::Opportunistic(params),
            _ => Tls::None,
        };
        let mut b = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(host.clone())
            .port(port)
            .tls(tls)
            .timeout(Some(Duration::from_secs(config.smtp_timeout_secs)))
            .pool_config(PoolConfig::new().max_size(config.smtp_connections));
        if !url.username().is_empty() {
            let decode = |s: &str| {
                percent_encoding::percent_decode_str(s)
                    .decode_utf8_lossy()
                    .into_owned()
            };
            b = b.credentials(Credentials::new(
                decode(url.username()),
                decode(url.password().unwrap_or_default()),
            ));
        }
        Ok(Smtp {
            transport: b.build(),
            slots: tokio::sync::Semaphore::new(config.smtp_connections as usize),
            from,
            shown: format!(
                "smtp{}://{host}:{port} ({tls_mode} TLS)",
                if implicit { "s" } else { "" }
            ),
        })
    }
}

#[async_trait::async_trait]
impl Transport for Smtp {
    async fn send(&self, mail: &Outgoing) -> Result<(), SendError> {
        let msg = message(&self.from, mail)?;
        let _slot = self
            .slots
            .acquire()
            .await
            .map_err(|_| SendError::Temporary("the mail transport is shutting down".into()))?;
        match self.transport.send(msg).await {
            Ok(_) => Ok(()),
            Err(e) if e.is_permanent() => Err(SendError::Permanent(answer(&e))),
            // 4xx answers, refused or broken connections, timeouts, TLS trouble: later.
            Err(e) => Err(SendError::Temporary(answer(&e))),
        }
    }

    fn describe(&self) -> String {
        self.shown.clone()
    }

    fn domain(&self) -> String {
        domain_of(&self.from)
    }
}

/// The server's answer, or what broke, in one line without the credentials.
fn answer(e: &lettre::transport::smtp::Error) -> String {
    let s = match e.status() {
        Some(code) => format!("{code} {e}"),
        None => e.to_string(),
    };
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .take(300)
        .collect()
}
