//! The field rules of the webhook request types (`types.rs` names them on each field).

use signet_core::rules::{ValidationError, at_item, fails};

use super::topics::{TOPICS, is_topic};

/// The most characters of an endpoint's name.
pub const MAX_NAME: usize = 200;

/// At least one topic, each one of GET /webhooks/topics.
pub fn event_types(raw: &[String]) -> Result<(), ValidationError> {
    if raw.is_empty() {
        return Err(fails(
            "event_types",
            "name at least one topic from GET /api/v1/webhooks/topics",
        ));
    }
    match raw.iter().position(|t| !is_topic(t)) {
        None => Ok(()),
        Some(i) => {
            let known: Vec<&str> = TOPICS.iter().map(|(n, _)| *n).collect();
            let why = format!(
                "unknown topic '{}'; the topics are {}",
                raw[i],
                known.join(", ")
            );
            Err(at_item(fails("topic", why), i))
        }
    }
}

/// One line of at most `MAX_NAME` characters once trimmed; blank means no name.
pub fn endpoint_name(name: &str) -> Result<(), ValidationError> {
    let n = name.trim();
    if n.chars().count() > MAX_NAME {
        return Err(fails(
            "name",
            format!("is longer than {MAX_NAME} characters"),
        ));
    }
    if n.chars()
        .any(|c| c.is_control() || signet_core::fields::is_disguising(c))
    {
        return Err(fails(
            "name",
            "must be one line of text, without control, bidirectional override or line separator characters",
        ));
    }
    Ok(())
}

/// Hours of a rotation's window: 0 to 720.
pub fn window_hours(hours: i64) -> Result<(), ValidationError> {
    if (0..=720).contains(&hours) {
        Ok(())
    } else {
        Err(fails(
            "window_hours",
            format!("must be between 0 and 720, got {hours}"),
        ))
    }
}

/// A topic of GET /webhooks/topics.
pub fn topic(t: &str) -> Result<(), ValidationError> {
    if is_topic(t) {
        Ok(())
    } else {
        Err(fails("topic", format!("unknown topic '{t}'")))
    }
}
