//! The settings' checks, run once at start-up (`Config::load`): the secrets, the storage,
//! the services and every bound.

use secrecy::ExposeSecret;

use super::Config;

impl Config {
    /// Every setting checked: each message names the setting and its variable.
    pub(super) fn validate(&self) -> anyhow::Result<()> {
        self.validate_secrets()?;
        self.validate_storage()?;
        self.validate_services()?;
        self.validate_ai()?;
        self.validate_payments()?;
        self.validate_bounds()
    }

    /// The database and Redis addresses, and the secrets' lengths.
    fn validate_secrets(&self) -> anyhow::Result<()> {
        if let Some(url) = &self.database_url
            && !(url.starts_with("sqlite:")
                || url.starts_with("postgres://")
                || url.starts_with("postgresql://"))
        {
            anyhow::bail!(
                "database_url (DATABASE_URL): must start with sqlite: or postgres://, got {url:?}"
            );
        }
        if let Some(url) = &self.redis_url
            && !(url.starts_with("redis://")
                || url.starts_with("rediss://")
                || url.starts_with("unix://"))
        {
            anyhow::bail!("redis_url (REDIS_URL): must start with redis://, got {url:?}");
        }
        if let Some(s) = &self.secret_key
            && s.expose_secret().len() < 32
        {
            anyhow::bail!("secret_key (SIGNET_SECRET_KEY): must be at least 32 characters");
        }
        if !(1..=600).contains(&self.shutdown_timeout_secs) {
            anyhow::bail!("shutdown_timeout_secs (SIGNET_SHUTDOWN_TIMEOUT_SECS): must be 1 to 600");
        }
        if let Some(s) = &self.metrics_token
            && s.expose_secret().len() < 24
        {
            anyhow::bail!("metrics_token (SIGNET_METRICS_TOKEN): must be at least 24 characters");
        }
        if let Some(s) = &self.email_feedback_secret
            && s.expose_secret().len() < 24
        {
            anyhow::bail!(
                "email_feedback_secret (SIGNET_EMAIL_FEEDBACK_SECRET): must be at least 24 characters"
            );
        }
        Ok(())
    }

    /// The file store's settings.
    fn validate_storage(&self) -> anyhow::Result<()> {
        if self.blob_url.is_none()
            && (self.blob_endpoint.is_some()
                || self.blob_region.is_some()
                || self.blob_access_key_id.is_some())
        {
            anyhow::bail!(
                "blob_endpoint, blob_region and blob_access_key_id (SIGNET_BLOB_*) need \
                 blob_url (SIGNET_BLOB_URL), such as s3://bucket"
            );
        }
        if let Some(endpoint) = &self.blob_endpoint
            && !(endpoint.starts_with("https://") || endpoint.starts_with("http://"))
        {
            anyhow::bail!(
                "blob_endpoint (SIGNET_BLOB_ENDPOINT): must be an http:// or https:// address, got {endpoint:?}"
            );
        }
        if self.blob_access_key_id.is_some() != self.blob_secret_access_key.is_some() {
            anyhow::bail!(
                "blob_access_key_id and blob_secret_access_key (SIGNET_BLOB_ACCESS_KEY_ID, \
                 SIGNET_BLOB_SECRET_ACCESS_KEY): set both or neither"
            );
        }
        if let Err(e) = self.blobs() {
            anyhow::bail!("blob_url (SIGNET_BLOB_URL): {e}");
        }
        if self.is_postgres() && self.secret_key.is_none() {
            anyhow::bail!(
                "secret_key (SIGNET_SECRET_KEY): required with a PostgreSQL database, so that every \
                 process hashes API keys alike; set 32 or more random characters"
            );
        }
        Ok(())
    }

    /// Logging, leases, budgets and the time-stamp authorities.
    fn validate_services(&self) -> anyhow::Result<()> {
        if !matches!(self.log_format.as_str(), "text" | "json") {
            anyhow::bail!(
                "log_format (SIGNET_LOG_FORMAT): must be text or json, got {:?}",
                self.log_format
            );
        }
        if self.webhook_lease_secs < 20 {
            anyhow::bail!(
                "webhook_lease_secs (SIGNET_WEBHOOK_LEASE_SECS): must be at least 20, longer than the 15-second receiver timeout"
            );
        }
        if self.anonymous_per_minute == 0 {
            anyhow::bail!("anonymous_per_minute (SIGNET_ANONYMOUS_PER_MINUTE): must be at least 1");
        }
        for (name, var, url) in [
            ("tsa_url", "SIGNET_TSA_URL", &self.tsa_url),
            (
                "tsa_fallback_url",
                "SIGNET_TSA_FALLBACK_URL",
                &self.tsa_fallback_url,
            ),
        ] {
            if let Some(u) = url
                && !(u.starts_with("https://") || u.starts_with("http://"))
            {
                anyhow::bail!("{name} ({var}): must be an http:// or https:// URL, got {u:?}");
            }
        }
        if self.tsa_fallback_url.is_some() && self.tsa_url.is_none() {
            anyhow::bail!(
                "tsa_fallback_url (SIGNET_TSA_FALLBACK_URL): needs tsa_url (SIGNET_TSA_URL) as well"
            );
        }
        Ok(())
    }

    /// The settings that take a number within bounds.
    fn validate_bounds(&self) -> anyhow::Result<()> {
        for (name, var, v, range) in [
            (
                "max_connections",
                "SIGNET_MAX_CONNECTIONS",
                self.max_connections as u64,
                16..=1_000_000,
            ),
            (
                "header_timeout_secs",
                "SIGNET_HEADER_TIMEOUT_SECS",
                self.header_timeout_secs,
                1..=300,
            ),
            (
                "body_timeout_secs",
                "SIGNET_BODY_TIMEOUT_SECS",
                self.body_timeout_secs,
                1..=3600,
            ),
            (
                "socket_init_timeout_secs",
                "SIGNET_SOCKET_INIT_TIMEOUT_SECS",
                self.socket_init_timeout_secs,
                1..=300,
            ),
            (
                "socket_lifetime_secs",
                "SIGNET_SOCKET_LIFETIME_SECS",
                self.socket_lifetime_secs,
                10..=604_800,
            ),
            (
                "api_log_days",
                "SIGNET_API_LOG_DAYS",
                self.api_log_days,
                1..=3650,
            ),
            (
                "max_pages",
                "SIGNET_MAX_PAGES",
                self.max_pages as u64,
                1..=10_000,
            ),
            (
                "smtp_timeout_secs",
                "SIGNET_SMTP_TIMEOUT_SECS",
                self.smtp_timeout_secs,
                1..=600,
            ),
            (
                "mail_lease_secs",
                "SIGNET_MAIL_LEASE_SECS",
                self.mail_lease_secs,
                20..=3600,
            ),
            (
                "smtp_connections",
                "SIGNET_SMTP_CONNECTIONS",
                u64::from(self.smtp_connections),
                1..=256,
            ),
        ] {
            if !range.contains(&v) {
                anyhow::bail!(
                    "{name} ({var}): must be {} to {}, got {v}",
                    range.start(),
                    range.end()
                );
            }
        }
        if !(1..=120).contains(&self.tsa_timeout_secs) {
            anyhow::bail!(
                "tsa_timeout_secs (SIGNET_TSA_TIMEOUT_SECS): must be 1 to 120, got {}",
                self.tsa_timeout_secs
            );
        }
        Ok(())
    }
}
