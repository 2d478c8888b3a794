//! The one clock of stored times.

/// Milliseconds since the Unix epoch: every timestamp column stores this, so SQLite and
/// PostgreSQL compare and sort times alike.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}
