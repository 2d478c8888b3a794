//! Sessions of `/mcp` (clients of protocols before 2026-07-28 keep one; later ones are
//! stateless): rmcp's in-memory sessions, at most [`MAX_SESSIONS`] at once in a process. A
//! session idle for [`IDLE`] is closed. Each session's messages also spend its key's budget at
//! the door, so no key makes them faster than its per-minute budget.

use std::time::Duration;

use futures_util::Stream;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError,
};
use rmcp::transport::streamable_http_server::session::{
    ServerSseMessage, SessionId, SessionManager,
};

pub const MAX_SESSIONS: usize = 1024;
pub const IDLE: Duration = Duration::from_secs(5 * 60);

#[derive(Debug)]
pub enum SessionError {
    Full,
    Local(LocalSessionManagerError),
}

impl std::fmt::Display for SessionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SessionError::Full => write!(
                f,
                "{MAX_SESSIONS} MCP sessions are open on this server; retry later or use protocol 2026-07-28, which needs none"
            ),
            SessionError::Local(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SessionError {}

impl From<LocalSessionManagerError> for SessionError {
    fn from(e: LocalSessionManagerError) -> SessionError {
        SessionError::Local(e)
    }
}

/// rmcp's local sessions with a ceiling on how many are open.
pub struct Capped {
    inner: LocalSessionManager,
}

impl Default for Capped {
    fn default() -> Capped {
        let mut inner = LocalSessionManager::default();
        inner.session_config.keep_alive = Some(IDLE);
        Capped { inner }
    }
}

impl SessionManager for Capped {
    type Error = SessionError;
    type Transport = <LocalSessionManager as SessionManager>::Transport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), SessionError> {
        if self.inner.sessions.read().await.len() >= MAX_SESSIONS {
            tracing::warn!(
                max = MAX_SESSIONS,
                "mcp: session refused, the ceiling is reached"
            );
            return Err(SessionError::Full);
        }
        Ok(self.inner.create_session().await?)
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, SessionError> {
        Ok(self.inner.initialize_session(id, message).await?)
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, SessionError> {
        Ok(self.inner.has_session(id).await?)
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), SessionError> {
        Ok(self.inner.close_session(id).await?)
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, SessionError> {
        Ok(self.inner.create_stream(id, message).await?)
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), SessionError> {
        Ok(self.inner.accept_message(id, message).await?)
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, SessionError> {
        Ok(self.inner.create_standalone_stream(id).await?)
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, SessionError> {
        Ok(self.inner.resume(id, last_event_id).await?)
    }
}

impl Capped {
    /// Sessions open now.
    pub async fn open(&self) -> usize {
        self.inner.sessions.read().await.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn no_more_than_the_ceiling_are_open_and_a_closed_one_frees_its_place() {
        let sessions = Capped::default();
        let mut ids = Vec::new();
        for _ in 0..MAX_SESSIONS {
            let (id, _transport) = sessions.create_session().await.unwrap();
            ids.push(id);
        }
        assert_eq!(sessions.open().await, MAX_SESSIONS);
        assert!(matches!(
            sessions.create_session().await,
            Err(SessionError::Full)
        ));
        sessions.close_session(&ids[0]).await.unwrap();
        assert!(sessions.create_session().await.is_ok());
    }
}
