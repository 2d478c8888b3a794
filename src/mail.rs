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
use lettre::transport::smtp::authentication::{Credentials, Mechanism};
use lettre::transport::smtp::client::{AsyncSmtpConnection, Certificate, Tls, TlsParameters};
use lettre::transport::smtp::extension::ClientId;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use secrecy::ExposeSecret;
use signet_email::{Outgoing, SendError, Transport};

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
            slots: tokio::sync::Semaphore::new(4),
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
                a.data.as_ref().clone(),
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
    /// Files written at once: each is synced to the disk, and a pass of 64 emails would
    /// otherwise hold 64 blocking threads.
    pub slots: tokio::sync::Semaphore,
}

#[async_trait::async_trait]
impl Transport for Folder {
    async fn send(&self, mail: &Outgoing) -> Result<(), SendError> {
        let _slot = self
            .slots
            .acquire()
            .await
            .map_err(|_| SendError::Temporary("the mail folder is shutting down".into()))?;
        let msg = message(&self.from, mail)?;
        let bytes = msg.formatted();
        let (dir, name) = (self.dir.clone(), format!("{}.eml", mail.email_id));
        tokio::task::spawn_blocking(move || -> std::io::Result<()> {
            use std::io::Write as _;
            std::fs::create_dir_all(&dir)?;
            // Whole or not at all: a file is written under a temporary name and renamed.
            // A name of this try's own: two workers sending the same email after a lease ran
            // out never write into one file.
            let tmp = dir.join(format!(
                ".{name}.{}.{:?}.tmp",
                std::process::id(),
                std::thread::current().id()
            ));
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

/// How a connection is encrypted.
#[derive(Clone, Copy, PartialEq, Eq)]
enum TlsMode {
    None,
    Opportunistic,
    StartTls,
    Implicit,
}

/// An idle connection and when it was last used.
struct Idle {
    conn: AsyncSmtpConnection,
    since: std::time::Instant,
}

/// Where a conversation broke: a refusal of the recipient or of the message is about this
/// email; anything before it (connecting, TLS, AUTH, the sender address) is about the
/// installation or the server, and waits for a later try rather than failing the email.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    Setup,
    Recipient,
    Content,
}

/// SMTP over connections of our own, kept for the next message. Each socket has Nagle's
/// algorithm off: lettre writes a message and its closing `.` in two writes, and with Nagle
/// on, the second waits for the server's delayed ACK, 40 ms a message (bench/RESULTS.md).
/// Implicit TLS (`smtps://`) goes through lettre's own transport.
pub struct Smtp {
    host: String,
    port: u16,
    mode: TlsMode,
    params: TlsParameters,
    credentials: Option<Credentials>,
    timeout: Duration,
    hello: ClientId,
    idle: std::sync::Mutex<Vec<Idle>>,
    /// At most `smtp_connections` conversations at once.
    slots: tokio::sync::Semaphore,
    keep: usize,
    wrapped: Option<AsyncSmtpTransport<Tokio1Executor>>,
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
        let (mode, said_none) = tls_mode(&url, implicit)?;
        let credentials = (!url.username().is_empty()).then(|| {
            let decode = |s: &str| {
                percent_encoding::percent_decode_str(s)
                    .decode_utf8_lossy()
                    .into_owned()
            };
            Credentials::new(
                decode(url.username()),
                decode(url.password().unwrap_or_default()),
            )
        });
        // A password is not sent in the clear unless the URL says so.
        if credentials.is_some() && mode == TlsMode::None && !said_none {
            anyhow::bail!(
                "{setting}: a user and password without TLS would be sent in the clear; use \
                 ?tls=starttls or smtps://, or say ?tls=none to send them anyway"
            );
        }
        let port = url.port().unwrap_or(match mode {
            TlsMode::Implicit => 465,
            TlsMode::StartTls => 587,
            _ => 25,
        });
        let params = tls_params(&host, config)?;
        let timeout = Duration::from_secs(config.smtp_timeout_secs);
        let wrapped = (mode == TlsMode::Implicit).then(|| {
            let mut b = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(host.clone())
                .port(port)
                .tls(Tls::Wrapper(params.clone()))
                .timeout(Some(timeout))
                .pool_config(PoolConfig::new().max_size(config.smtp_connections));
            if let Some(c) = &credentials {
                b = b.credentials(c.clone());
            }
            b.build()
        });
        let shown_mode = match mode {
            TlsMode::None => "no TLS",
            TlsMode::Opportunistic => "STARTTLS when offered",
            TlsMode::StartTls => "STARTTLS",
            TlsMode::Implicit => "implicit TLS",
        };
        Ok(Smtp {
            shown: format!(
                "smtp{}://{host}:{port} ({shown_mode})",
                if implicit { "s" } else { "" }
            ),
            host,
            port,
            mode,
            params,
            credentials,
            timeout,
            hello: ClientId::default(),
            idle: std::sync::Mutex::new(Vec::new()),
            slots: tokio::sync::Semaphore::new(config.smtp_connections as usize),
            keep: config.smtp_connections as usize,
            wrapped,
            from,
        })
    }

    /// A connection ready for a message: an idle one that still answers, or a new one. The
    /// error says what failed (connecting, TLS, AUTH), never with the credentials.
    async fn open(&self) -> Result<AsyncSmtpConnection, String> {
        loop {
            let idle = self.idle.lock().map(|mut v| v.pop()).unwrap_or(None);
            let Some(Idle { mut conn, since }) = idle else {
                break;
            };
            // A connection idle for a while may have been closed by the server.
            if since.elapsed() < Duration::from_secs(10) || conn.test_connected().await {
                return Ok(conn);
            }
            conn.abort().await;
        }
        let tcp = tokio::net::TcpStream::connect((self.host.as_str(), self.port))
            .await
            .map_err(|e| format!("connecting to {}:{}: {e}", self.host, self.port))?;
        tcp.set_nodelay(true)
            .map_err(|e| format!("connecting to {}:{}: {e}", self.host, self.port))?;
        let mut conn = AsyncSmtpConnection::connect_with_transport(Box::new(tcp), &self.hello)
            .await
            .map_err(|e| answer(&e))?;
        match self.mode {
            TlsMode::StartTls => conn
                .starttls(self.params.clone(), &self.hello)
                .await
                .map_err(|e| format!("STARTTLS: {}", answer(&e)))?,
            TlsMode::Opportunistic if conn.can_starttls() => conn
                .starttls(self.params.clone(), &self.hello)
                .await
                .map_err(|e| format!("STARTTLS: {}", answer(&e)))?,
            _ => {}
        }
        if let Some(c) = &self.credentials {
            conn.auth(&[Mechanism::Plain, Mechanism::Login], c)
                .await
                .map_err(|e| format!("AUTH: {}", answer(&e)))?;
        }
        Ok(conn)
    }

    /// MAIL, RCPT, DATA and the message, each phase told apart.
    async fn converse(
        conn: &mut AsyncSmtpConnection,
        envelope: &lettre::address::Envelope,
        bytes: &[u8],
    ) -> Result<(), (Phase, lettre::transport::smtp::Error)> {
        use lettre::transport::smtp::commands::{Data, Mail, Rcpt};
        use lettre::transport::smtp::extension::{Extension, MailBodyParameter, MailParameter};
        let mut options = vec![];
        if !bytes.is_ascii() && conn.server_info().supports_feature(Extension::EightBitMime) {
            options.push(MailParameter::Body(MailBodyParameter::EightBitMime));
        }
        conn.command(Mail::new(envelope.from().cloned(), options))
            .await
            .map_err(|e| (Phase::Setup, e))?;
        for to in envelope.to() {
            conn.command(Rcpt::new(to.clone(), vec![]))
                .await
                .map_err(|e| (Phase::Recipient, e))?;
        }
        conn.command(Data).await.map_err(|e| (Phase::Content, e))?;
        conn.message(bytes).await.map_err(|e| (Phase::Content, e))?;
        Ok(())
    }
}

#[async_trait::async_trait]
impl Transport for Smtp {
    async fn send(&self, mail: &Outgoing) -> Result<(), SendError> {
        // The slot first: a message (and its attachment) is built only when it can go.
        let _slot = self
            .slots
            .acquire()
            .await
            .map_err(|_| SendError::Temporary("the mail transport is shutting down".into()))?;
        let msg = message(&self.from, mail)?;
        if let Some(t) = &self.wrapped {
            return match tokio::time::timeout(self.timeout, t.send(msg)).await {
                Ok(Ok(_)) => Ok(()),
                Ok(Err(e))
                    if e.is_permanent()
                        && matches!(e.status().map(|c| c.to_string()), Some(c) if c.starts_with("55")) =>
                {
                    Err(SendError::Permanent(answer(&e)))
                }
                Ok(Err(e)) => Err(SendError::Temporary(answer(&e))),
                Err(_) => Err(SendError::Temporary(
                    "the SMTP server did not answer in time".into(),
                )),
            };
        }
        let (envelope, bytes) = (msg.envelope().clone(), msg.formatted());
        let mut conn = match tokio::time::timeout(self.timeout, self.open()).await {
            Ok(Ok(c)) => c,
            Ok(Err(why)) => {
                tracing::warn!(why, "cannot reach the SMTP server; emails wait");
                return Err(SendError::Temporary(why));
            }
            Err(_) => {
                return Err(SendError::Temporary(
                    "the SMTP server did not answer in time".into(),
                ));
            }
        };
        match tokio::time::timeout(self.timeout, Self::converse(&mut conn, &envelope, &bytes)).await
        {
            Ok(Ok(())) => {
                if let Ok(mut idle) = self.idle.lock()
                    && idle.len() < self.keep
                {
                    idle.push(Idle {
                        conn,
                        since: std::time::Instant::now(),
                    });
                }
                Ok(())
            }
            Ok(Err((phase, e))) => {
                conn.abort().await;
                if e.is_permanent() && phase != Phase::Setup {
                    Err(SendError::Permanent(answer(&e)))
                } else {
                    if e.is_permanent() {
                        tracing::error!(answer = %answer(&e), "the SMTP server refuses the sender: check mail_from and the server's settings");
                    }
                    Err(SendError::Temporary(answer(&e)))
                }
            }
            Err(_) => Err(SendError::Temporary(
                "the SMTP server did not answer in time".into(),
            )),
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

/// The TLS mode `url` asks for (`?tls=`), and whether it said `none` outright.
fn tls_mode(url: &url::Url, implicit: bool) -> anyhow::Result<(TlsMode, bool)> {
    let setting = "smtp_url (SIGNET_SMTP_URL)";
    let mut mode = if implicit {
        TlsMode::Implicit
    } else {
        TlsMode::None
    };
    let mut said_none = false;
    for (k, v) in url.query_pairs() {
        match (k.as_ref(), v.as_ref()) {
            ("tls", "starttls" | "required") if !implicit => mode = TlsMode::StartTls,
            ("tls", "opportunistic") if !implicit => mode = TlsMode::Opportunistic,
            ("tls", "none") if !implicit => {
                mode = TlsMode::None;
                said_none = true;
            }
            ("tls", other) => anyhow::bail!(
                "{setting}: tls={other} is not one of starttls, opportunistic, none (smtps:// is always TLS)"
            ),
            (other, _) => anyhow::bail!("{setting}: unknown option {other}; only tls= is read"),
        }
    }
    Ok((mode, said_none))
}

/// TLS towards `host`, trusting `smtp_ca_file` as well when it is set.
fn tls_params(host: &str, config: &Config) -> anyhow::Result<TlsParameters> {
    let mut params = TlsParameters::builder(host.to_string());
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
    params
        .build_rustls()
        .map_err(|e| anyhow::anyhow!("smtp_url (SIGNET_SMTP_URL): TLS for {host}: {e}"))
}
