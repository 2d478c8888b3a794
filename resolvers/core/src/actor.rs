//! Who is asking: the principal (an API key today; a person signed into the application when
//! it comes), with the workspace, mode, scopes and limits it acts under, resolved once per
//! request.

use std::fmt;

use crate::plans::Plan;

#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    async_graphql::Enum,
)]
#[serde(rename_all = "lowercase")]
#[graphql(rename_items = "lowercase")]
pub enum Mode {
    Test,
    Live,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Test => "test",
            Mode::Live => "live",
        }
    }

    pub fn parse(s: &str) -> Option<Mode> {
        match s {
            "test" => Some(Mode::Test),
            "live" => Some(Mode::Live),
            _ => None,
        }
    }

    pub fn key_prefix(self) -> &'static str {
        match self {
            Mode::Test => "svc_test_",
            Mode::Live => "svc_live_",
        }
    }
}

macro_rules! scopes {
    ($($variant:ident = $name:literal,)*) => {
        /// The spec's scope names. A key holds a set of them.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr(u8)]
        pub enum Scope { $($variant,)* }

        impl Scope {
            pub const ALL: &'static [Scope] = &[$(Scope::$variant,)*];

            pub fn as_str(self) -> &'static str {
                match self { $(Scope::$variant => $name,)* }
            }

            pub fn parse(s: &str) -> Option<Scope> {
                match s { $($name => Some(Scope::$variant),)* _ => None }
            }
        }
    };
}

scopes! {
    AccountsRead = "accounts:read", AccountsWrite = "accounts:write",
    BookingRead = "booking:read", BookingWrite = "booking:write",
    DocumentsRead = "documents:read", DocumentsWrite = "documents:write",
    GrowthRead = "growth:read", GrowthWrite = "growth:write",
    ItemsRead = "items:read", ItemsWrite = "items:write",
    LeadWrite = "lead:write",
    MoneyRead = "money:read", MoneyWrite = "money:write",
    NetworkRead = "network:read", NetworkWrite = "network:write",
    NotificationsRead = "notifications:read", NotificationsWrite = "notifications:write",
    PeopleRead = "people:read", PeopleWrite = "people:write",
    PlatformRead = "platform:read", PlatformWrite = "platform:write",
    RecordsRead = "records:read", RecordsWrite = "records:write",
    SettingsRead = "settings:read", SettingsWrite = "settings:write",
    PlaysRead = "plays:read", PlaysWrite = "plays:write",
    DraftsWrite = "drafts:write",
    TemplatesRead = "templates:read", TemplatesWrite = "templates:write",
    WebhooksRead = "webhooks:read", WebhooksWrite = "webhooks:write",
    ReportsRead = "reports:read",
    AccountRead = "account:read",
    EmbeddedWrite = "embedded:write",
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A set of scopes as a bit set (there are fewer than 64).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Scopes(u64);

impl Scopes {
    pub fn all() -> Scopes {
        Scopes::from_iter(Scope::ALL.iter().copied())
    }

    pub fn contains(self, s: Scope) -> bool {
        self.0 & (1 << s as u8) != 0
    }

    pub fn iter(self) -> impl Iterator<Item = Scope> {
        Scope::ALL
            .iter()
            .copied()
            .filter(move |s| self.contains(*s))
    }

    /// Parses scope names; the error names the first unknown one.
    pub fn parse<'a>(names: impl IntoIterator<Item = &'a str>) -> Result<Scopes, String> {
        let mut out = Scopes::default();
        for n in names {
            let n = n.trim();
            if n.is_empty() {
                continue;
            }
            let s = Scope::parse(n).ok_or_else(|| format!("unknown scope '{n}'"))?;
            out.0 |= 1 << s as u8;
        }
        Ok(out)
    }
}

impl FromIterator<Scope> for Scopes {
    fn from_iter<I: IntoIterator<Item = Scope>>(iter: I) -> Self {
        Scopes(iter.into_iter().fold(0, |acc, s| acc | (1 << s as u8)))
    }
}

/// What a person may do in a workspace of the application (its issue gives each role's
/// powers). Carried by a session's principal; an API key has scopes instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Owner,
    Admin,
    Member,
    Viewer,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Owner => "owner",
            Role::Admin => "admin",
            Role::Member => "member",
            Role::Viewer => "viewer",
        }
    }
}

/// Who asks. Everything an actor does is recorded under [`Principal::recorded`], and its
/// budgets, daily limits, idempotency records and sockets are counted under
/// [`Principal::id`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Principal {
    /// An API key (`key_…`).
    Key { id: String },
    /// A person signed into the application (`usr_…`) through one session (`ses_…`), acting
    /// with their role in the workspace.
    Session {
        user_id: String,
        session_id: String,
        role: Role,
    },
    /// A person named by whoever asked, not signed in: the one an API key names when it
    /// decides an approval (`person:<name> via key_…`), or an operator names at the command
    /// line (`person:<name>`). Recorded as given.
    Named { recorded: String },
}

impl Principal {
    /// What its budgets and limits are counted under: the key's id, the person's id, or the
    /// name recorded.
    pub fn id(&self) -> &str {
        match self {
            Principal::Key { id } => id,
            Principal::Session { user_id, .. } => user_id,
            Principal::Named { recorded } => recorded,
        }
    }

    /// The actor written in audit rows, approvals' `decided_by` and a document's creator.
    pub fn recorded(&self) -> &str {
        self.id()
    }

    /// The API key, when it is one (the API log's `keyId`).
    pub fn key_id(&self) -> Option<&str> {
        match self {
            Principal::Key { id } => Some(id),
            _ => None,
        }
    }
}

/// The client address a request came from, as the door worked it out (behind trusted
/// proxies, the forwarded one): put beside the actor where a record says "from where".
#[derive(Clone, Copy, Debug)]
pub struct ClientAddr(pub std::net::IpAddr);

#[derive(Clone, Debug)]
pub struct Actor {
    pub workspace_id: signet_storage::ids::WorkspaceId,
    /// The workspace's name as the key was last read (at most a minute old: the key cache's
    /// time), the default of a document's `org.name` and `sender.name`.
    pub workspace_name: String,
    pub principal: Principal,
    pub mode: Mode,
    pub scopes: Scopes,
    pub plan: Plan,
    pub draft_only: bool,
    /// Drafts and sends a day, when the key has such a limit.
    pub daily_limit: Option<u64>,
    /// Requests a minute: the key's own budget or its plan's.
    pub per_minute: u64,
    /// The client address the request came from, as the door worked it out: where the
    /// activity record says a change came from. `None` for work that no request started
    /// (a worker, an operator's command).
    pub client: Option<std::net::IpAddr>,
    /// The workspace's test mode is on: the actor works on test documents whatever its key
    /// or the application's switch says.
    pub workspace_test: bool,
    /// The credential's own mode before the workspace's test mode pinned it: a key's prefix,
    /// a person's switch.
    pub own_mode: Mode,
}

impl Actor {
    /// The actor as it asks from `ip` (set by the door on every request and socket
    /// operation).
    pub fn from_client(mut self, ip: std::net::IpAddr) -> Actor {
        self.client = Some(ip);
        self
    }

    /// A person's session working on `mode`'s documents (the application's test/live
    /// switch). A key's mode is the key's own and never changes.
    pub fn in_mode(mut self, mode: Mode) -> Actor {
        if matches!(self.principal, Principal::Session { .. }) {
            self.own_mode = mode;
            self.mode = if self.workspace_test {
                Mode::Test
            } else {
                mode
            };
        }
        self
    }

    /// A test key (`svc_test_…`), whether or not the workspace's test mode pins the others:
    /// it acts only on test documents and never changes what live documents depend on.
    pub fn is_test_key(&self) -> bool {
        matches!(self.principal, Principal::Key { .. }) && self.own_mode == Mode::Test
    }

    /// What the actor's budgets and limits are counted under (see [`Principal::id`]).
    pub fn id(&self) -> &str {
        self.principal.id()
    }

    /// The actor written in the records (see [`Principal::recorded`]).
    pub fn recorded(&self) -> &str {
        self.principal.recorded()
    }

    /// How the actor reached Signet, in an audit trail's words: a person signed in acts "in
    /// the application", anything else "through the API".
    pub fn via(&self) -> &'static str {
        match self.principal {
            Principal::Session { .. } => "in the application",
            _ => "through the API",
        }
    }

    /// Under-scoped requests with a key get the same answer as any other credential failure;
    /// a person signed in is told that their role cannot (they know who they are).
    pub fn require(&self, scope: Scope) -> Result<(), crate::DomainError> {
        if self.scopes.contains(scope) {
            return Ok(());
        }
        match &self.principal {
            Principal::Session { role, .. } => Err(crate::DomainError::Forbidden(format!(
                "a {} of this workspace cannot do this (it takes {scope}); ask an owner or an admin",
                role.as_str()
            ))),
            _ => Err(crate::DomainError::Unauthenticated),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scope_names_round_trip_and_unknown_ones_are_named() {
        assert_eq!(Scope::ALL.len(), 35);
        for s in Scope::ALL {
            assert_eq!(Scope::parse(s.as_str()), Some(*s));
        }
        let set = Scopes::parse(["documents:read", "account:read"]).unwrap();
        assert!(set.contains(Scope::AccountRead) && !set.contains(Scope::DocumentsWrite));
        assert_eq!(set.iter().count(), 2);
        assert_eq!(
            Scopes::parse(["documents:read", "documents:delete"]).unwrap_err(),
            "unknown scope 'documents:delete'"
        );
    }
}
