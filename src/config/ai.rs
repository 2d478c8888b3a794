//! The AI drafting settings: checked at start-up, and the service they make.

use std::time::Duration;

use super::Config;

impl Config {
    /// `ai_*`: a known provider with a model, an http(s) address, and bounds that hold.
    pub(super) fn validate_ai(&self) -> anyhow::Result<()> {
        if let Some(p) = &self.ai_provider {
            if signet_ai::provider::Kind::parse(p).is_none() {
                anyhow::bail!(
                    "ai_provider (SIGNET_AI_PROVIDER): must be openai or anthropic, got {p:?}"
                );
            }
            if self.ai_model.is_none() {
                anyhow::bail!("ai_model (SIGNET_AI_MODEL): is required with ai_provider");
            }
        } else if self.ai_base_url.is_some() || self.ai_model.is_some() {
            anyhow::bail!(
                "ai_provider (SIGNET_AI_PROVIDER): is required with ai_base_url and ai_model"
            );
        }
        if let Some(u) = &self.ai_base_url
            && !(u.starts_with("https://") || u.starts_with("http://"))
        {
            anyhow::bail!(
                "ai_base_url (SIGNET_AI_BASE_URL): must be an http:// or https:// URL, got {u:?}"
            );
        }
        if !(5..=3_600).contains(&self.ai_timeout_secs) {
            anyhow::bail!("ai_timeout_secs (SIGNET_AI_TIMEOUT_SECS): must be 5 to 3600");
        }
        if !(256..=64_000).contains(&self.ai_max_tokens) {
            anyhow::bail!("ai_max_tokens (SIGNET_AI_MAX_TOKENS): must be 256 to 64000");
        }
        if let Some(p) = self.ai_frequency_penalty
            && !(-2.0..=2.0).contains(&p)
        {
            anyhow::bail!("ai_frequency_penalty (SIGNET_AI_FREQUENCY_PENALTY): must be -2 to 2");
        }
        if self.ai_tokens_per_day == 0 {
            anyhow::bail!("ai_tokens_per_day (SIGNET_AI_TOKENS_PER_DAY): must be at least 1");
        }
        if !(1..=50).contains(&self.ai_jobs_at_once) {
            anyhow::bail!("ai_jobs_at_once (SIGNET_AI_JOBS_AT_ONCE): must be 1 to 50");
        }
        if !(1..=3_650).contains(&self.ai_keep_days) {
            anyhow::bail!("ai_keep_days (SIGNET_AI_KEEP_DAYS): must be 1 to 3650");
        }
        Ok(())
    }

    /// The AI drafting service these settings make: no model when `ai_provider` is unset.
    pub fn ai(&self) -> anyhow::Result<signet_ai::service::Ai> {
        use signet_ai::provider::{Kind, Provider, Settings};
        let provider = match self.ai_provider.as_deref().and_then(Kind::parse) {
            None => None,
            Some(kind) => {
                let base_url = self.ai_base_url.clone().unwrap_or_else(|| {
                    match kind {
                        Kind::OpenAi => "https://api.openai.com/v1",
                        Kind::Anthropic => "https://api.anthropic.com/v1",
                    }
                    .into()
                });
                let settings = Settings {
                    kind,
                    base_url,
                    model: self.ai_model.clone().unwrap_or_default(),
                    key: self.ai_api_key.clone(),
                    timeout: Duration::from_secs(self.ai_timeout_secs),
                    max_tokens: self.ai_max_tokens,
                    frequency_penalty: self.ai_frequency_penalty,
                };
                let p = Provider::new(settings).map_err(|e| anyhow::anyhow!("ai_provider: {e}"))?;
                Some(std::sync::Arc::new(p))
            }
        };
        Ok(signet_ai::service::Ai {
            provider,
            limits: signet_ai::service::Limits {
                tokens_per_day: self.ai_tokens_per_day,
                running_per_workspace: self.ai_jobs_at_once,
                keep: Duration::from_secs(self.ai_keep_days * 86_400),
                ..Default::default()
            },
        })
    }
}
