//! The payment settings: checked at start-up, and the Stripe service they make.

use secrecy::ExposeSecret;

use super::Config;

impl Config {
    /// `stripe_*`: each mode's secret key comes with its webhook secret, of the right mode.
    pub(super) fn validate_payments(&self) -> anyhow::Result<()> {
        let pairs = [
            (
                "stripe_secret_key (SIGNET_STRIPE_SECRET_KEY)",
                "stripe_webhook_secret (SIGNET_STRIPE_WEBHOOK_SECRET)",
                &self.stripe_secret_key,
                &self.stripe_webhook_secret,
                ["sk_live_", "rk_live_"],
            ),
            (
                "stripe_test_secret_key (SIGNET_STRIPE_TEST_SECRET_KEY)",
                "stripe_test_webhook_secret (SIGNET_STRIPE_TEST_WEBHOOK_SECRET)",
                &self.stripe_test_secret_key,
                &self.stripe_test_webhook_secret,
                ["sk_test_", "rk_test_"],
            ),
        ];
        for (key_name, hook_name, key, hook, prefixes) in pairs {
            match (key, hook) {
                (Some(k), Some(h)) => {
                    let k = k.expose_secret();
                    if !prefixes.iter().any(|p| k.starts_with(p)) {
                        anyhow::bail!("{key_name}: must start with {}", prefixes.join(" or "));
                    }
                    if !h.expose_secret().starts_with("whsec_") {
                        anyhow::bail!("{hook_name}: must start with whsec_");
                    }
                }
                (Some(_), None) => anyhow::bail!(
                    "{hook_name}: is required with {key_name}: payments are confirmed only by \
                     Stripe's signed events"
                ),
                (None, Some(_)) => anyhow::bail!("{key_name}: is required with {hook_name}"),
                (None, None) => {}
            }
        }
        let base = &self.stripe_api_base;
        if !(base.starts_with("https://") || base.starts_with("http://")) {
            anyhow::bail!(
                "stripe_api_base (SIGNET_STRIPE_API_BASE): must be an http:// or https:// URL"
            );
        }
        Ok(())
    }

    /// The Stripe service these settings make (no keys: payments are refused with a reason).
    pub fn stripe(&self) -> anyhow::Result<signet_payments::Stripe> {
        use signet_payments::stripe::Keys;
        let keys = |k: &Option<secrecy::SecretString>, h: &Option<secrecy::SecretString>| {
            Some(Keys {
                secret: k.clone()?,
                webhook: h.clone()?,
            })
        };
        signet_payments::Stripe::new(
            &self.stripe_api_base,
            keys(&self.stripe_secret_key, &self.stripe_webhook_secret),
            keys(
                &self.stripe_test_secret_key,
                &self.stripe_test_webhook_secret,
            ),
        )
        .map_err(|e| anyhow::anyhow!("stripe: {e}"))
    }
}
