//! The Stripe stand-in (testkit/stripe/standin.py) speaks Stripe's wire format and not only
//! Signet's: the official `stripe` Python library, pointed at it, makes and reads accounts,
//! account links, prices, Checkout sessions (on a connected account, with the platform's fee),
//! payment intents and charges, and verifies its webhook signatures with its own helper
//! (a tampered or old event refused). Payments' tests rely on the stand-in; this keeps it
//! honest.

use std::process::Command;

#[test]
fn the_official_stripe_library_agrees_with_the_stand_in() {
    let ok = Command::new("python3")
        .args(["-c", "import stripe"])
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    if !signet_testkit::part(
        "stripe",
        (!ok).then(|| "python3 with stripe is required (pip install 'stripe>=16,<17')".into()),
    ) {
        return;
    }
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/testkit/stripe/check_with_stripe.py"
    );
    let out = Command::new("python3")
        .arg(script)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("agrees with the stand-in"));
}
