#![doc = include_str!("../README.md")]

pub mod accounts;
pub mod checkout;
pub mod events;
pub mod store;
pub mod stripe;
pub mod types;

pub use stripe::Stripe;
pub use types::*;

/// The service's fee on `amount` (minor units) at `percent`, rounded half up in the
/// currency's own minor unit: 2% of ¥1,234 is ¥25, of $10.25 is 21¢.
pub fn fee_of(amount: i64, percent: u32) -> i64 {
    (amount * percent as i64 + 50) / 100
}

#[cfg(test)]
mod tests {
    use super::fee_of;

    #[test]
    fn the_fee_is_rounded_in_the_minor_unit() {
        assert_eq!(fee_of(4999, 2), 100);
        assert_eq!(fee_of(1025, 2), 21);
        assert_eq!(fee_of(1234, 2), 25);
        assert_eq!(fee_of(24, 2), 0);
        assert_eq!(fee_of(25, 2), 1);
        assert_eq!(fee_of(100_000, 0), 0);
    }
}
