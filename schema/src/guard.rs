//! The limits every GraphQL operation meets, over `POST /graphql` and the websocket alike.
//!
//! Before parsing, the text is measured: at most [`MAX_QUERY_BYTES`], and brackets, braces and
//! parentheses nested at most [`MAX_NESTING`] deep, because the parser recurses on nesting and
//! a few kilobytes of `[` would overflow the stack. After parsing, an operation may select at
//! most [`MAX_ROOT_FIELDS`] root fields (aliases included), and the schema limits depth and
//! complexity. Each root field stands for one REST request, so an operation spends as many
//! units of the key's per-minute budget as it has root fields (the door has spent one).
//!
//! On the websocket the key is checked again before every operation (revoked, expired, not
//! from an allowed address), each operation is written to the API log, and a socket and a key
//! hold a bounded number of operations at once.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use async_graphql::extensions::{
    Extension, ExtensionContext, ExtensionFactory, NextParseQuery, NextPrepareRequest,
    NextSubscribe,
};
use async_graphql::parser::types::{
    DocumentOperations, ExecutableDocument, Selection, SelectionSet,
};
use async_graphql::{
    ErrorExtensions, Pos, Request, Response, ServerError, ServerResult, Variables,
};
use futures_util::stream::{BoxStream, StreamExt};
use signet_accounts::keys;
use signet_core::actor::Mode;
use signet_core::api_log::ApiLogEntry;
use signet_core::{Actor, Ctx, DomainError, ids, limits};

pub const MAX_QUERY_BYTES: usize = 64 * 1024;
pub const MAX_NESTING: usize = 32;
pub const MAX_ROOT_FIELDS: usize = 20;
/// Deep enough for GraphiQL's introspection query (its type references nest 9 deep).
pub const MAX_DEPTH: usize = 16;
pub const MAX_COMPLEXITY: usize = 1_000;
/// Directives on one field.
pub const MAX_DIRECTIVES: usize = 20;
/// Operations one socket may hold open at once (live subscriptions, mostly).
pub const MAX_SOCKET_OPERATIONS: usize = 100;
/// Operations all sockets of one key may hold open at once, in this process.
pub const MAX_KEY_OPERATIONS: usize = 500;

/// What `prepare_request` measured of the operation, for `parse_query` to spend.
#[derive(Clone, Copy, Debug)]
struct Measured(Size);

/// Put in a `POST /graphql` request's data: the door has spent this much of the key's budget.
#[derive(Clone, Copy, Debug)]
pub struct DoorSpent(pub u64);

/// What a websocket authenticated with: an API key, or the application's session cookie
/// (sent with the upgrade from the application's own page).
pub enum Credential {
    Key(String),
    /// The session's secret and the mode the socket asked for at `connection_init`.
    Session(String, Mode),
}

/// One websocket, in its connection data: the credential it authenticated with and what it
/// holds.
pub struct Socket {
    pub ip: IpAddr,
    /// Set by `connection_init` once the credential is accepted.
    pub token: OnceLock<Credential>,
    /// The workspace the socket was opened in: a session that has since switched elsewhere
    /// (or whose person left) no longer reads it.
    pub workspace: OnceLock<String>,
    pub authenticated: AtomicBool,
    pub operations: AtomicUsize,
    /// The key's count of open sockets, given back when the socket ends.
    pub counted: OnceLock<Counted>,
}

impl std::fmt::Debug for Socket {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the key.
        f.debug_struct("Socket")
            .field("ip", &self.ip)
            .field("operations", &self.operations)
            .finish_non_exhaustive()
    }
}

impl Socket {
    pub fn new(ip: IpAddr) -> Arc<Socket> {
        Arc::new(Socket {
            ip,
            token: OnceLock::new(),
            workspace: OnceLock::new(),
            authenticated: AtomicBool::new(false),
            operations: AtomicUsize::new(0),
            counted: OnceLock::new(),
        })
    }

    /// The credential again, as the door checks it: a key revoked, expired or from an
    /// address it is not allowed from fails; so does a session ended, run out, or whose
    /// person is no longer a member.
    pub async fn recheck(&self, ctx: &Ctx) -> Result<Actor, DomainError> {
        let actor = match self.token.get() {
            Some(Credential::Key(t)) => keys::authenticate(ctx, t, self.ip).await,
            Some(Credential::Session(t, mode)) => {
                signet_accounts::people::sessions::authenticate(ctx, t)
                    .await
                    .map(|a| a.in_mode(*mode).from_client(self.ip))
            }
            None => Err(DomainError::Unauthenticated),
        }?;
        match self.workspace.get() {
            Some(w) if *w != *actor.workspace_id => Err(DomainError::Unauthenticated),
            _ => Ok(actor),
        }
    }
}

/// A count per key, each unit given back when its [`Counted`] is dropped.
#[derive(Default)]
pub struct Counter(Mutex<HashMap<String, usize>>);

/// One unit of a [`Counter`].
pub struct Counted {
    counter: Arc<Counter>,
    key: String,
}

impl Counter {
    /// One more for `key`, unless it holds `max` already.
    pub fn take(counter: &Arc<Counter>, key: &str, max: usize) -> Option<Counted> {
        let mut map = counter.0.lock().unwrap_or_else(|p| p.into_inner());
        let n = map.entry(key.to_string()).or_insert(0);
        if *n >= max {
            return None;
        }
        *n += 1;
        Some(Counted {
            counter: counter.clone(),
            key: key.to_string(),
        })
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        let mut map = self.counter.0.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = map.get_mut(&self.key) {
            *n -= 1;
            if *n == 0 {
                map.remove(&self.key);
            }
        }
    }
}

/// Open websocket operations per key, in this process.
#[derive(Clone, Default)]
pub struct KeyOperations(pub Arc<Counter>);

/// Open websockets per key, in this process.
#[derive(Clone, Default)]
pub struct KeySockets(pub Arc<Counter>);

/// Sockets one key may hold open at once, in this process.
pub const MAX_KEY_SOCKETS: usize = 100;

/// The size and nesting of a query's text, before the parser sees it.
pub fn check_text(query: &str) -> Result<(), String> {
    if query.len() > MAX_QUERY_BYTES {
        return Err(format!(
            "query: is {} bytes; at most {MAX_QUERY_BYTES} (pass large values as variables)",
            query.len()
        ));
    }
    let b = query.as_bytes();
    let (mut depth, mut i) = (0usize, 0usize);
    while i < b.len() {
        match b[i] {
            b'#' => {
                while i < b.len() && b[i] != b'\n' && b[i] != b'\r' {
                    i += 1;
                }
            }
            b'"' if b[i..].starts_with(b"\"\"\"") => {
                i += 3;
                while i < b.len() && !b[i..].starts_with(b"\"\"\"") {
                    i += if b[i..].starts_with(b"\\\"\"\"") {
                        4
                    } else {
                        1
                    };
                }
                i += 2;
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'[' | b'{' | b'(' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(format!(
                        "query: brackets, braces and parentheses are nested more than \
                         {MAX_NESTING} deep"
                    ));
                }
            }
            b']' | b'}' | b')' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

/// Selections an operation may expand to once every fragment is followed. Fragments need no
/// nesting to multiply (`F1` spreads `F2` three times, `F2` spreads `F3` three times...), and
/// the library's own checks walk every spread, so 2 KB of them would keep a thread busy for
/// hours: the document is measured here first, each fragment once.
pub const MAX_EXPANDED: u64 = 5_000;

/// What one operation of a document comes to, every fragment followed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Size {
    /// Root fields, aliases included.
    pub root: u64,
    /// Every field selected at any depth.
    pub fields: u64,
}

/// The largest operation of `doc` (its root fields and the selections it expands to), or why
/// the document is refused: a fragment spread that is not defined or spreads itself, spreads
/// chained more than [`MAX_NESTING`] deep, or more than [`MAX_EXPANDED`] selections over every
/// operation and fragment definition together (the library's own checks walk all of them).
/// Each fragment is measured once.
pub fn measure(doc: &ExecutableDocument) -> Result<Size, String> {
    let mut memo: HashMap<String, Option<Size>> = HashMap::new();
    let ops: Vec<_> = match &doc.operations {
        DocumentOperations::Single(op) => vec![op],
        DocumentOperations::Multiple(ops) => ops.values().collect(),
    };
    let mut largest = Size::default();
    let mut total: u64 = 0;
    let over = || {
        format!("query: selects more than {MAX_EXPANDED} fields once its fragments are followed")
    };
    for op in ops {
        let s = set_size(doc, &op.node.selection_set.node, &mut memo, 0)?;
        largest.root = largest.root.max(s.root);
        largest.fields = largest.fields.max(s.fields);
        total = total.saturating_add(s.fields);
        if total > MAX_EXPANDED {
            return Err(over());
        }
    }
    for (name, def) in &doc.fragments {
        let s = match memo.get(name.as_str()) {
            Some(Some(s)) => *s,
            _ => set_size(doc, &def.node.selection_set.node, &mut memo, 0)?,
        };
        total = total.saturating_add(s.fields);
        if total > MAX_EXPANDED {
            return Err(over());
        }
    }
    Ok(largest)
}

fn set_size(
    doc: &ExecutableDocument,
    set: &SelectionSet,
    memo: &mut HashMap<String, Option<Size>>,
    hops: usize,
) -> Result<Size, String> {
    if hops > MAX_NESTING {
        return Err(format!(
            "query: selections and fragments are nested more than {MAX_NESTING} deep"
        ));
    }
    let mut total = Size::default();
    for item in &set.items {
        // Every selection counts, spreads and inline fragments too, so that a chain of
        // fragments that selects nothing in the end is measured as what walking it costs.
        let s = match &item.node {
            Selection::Field(f) => {
                let inner = set_size(doc, &f.node.selection_set.node, memo, hops + 1)?;
                Size {
                    root: 1,
                    fields: 1 + inner.fields,
                }
            }
            Selection::InlineFragment(f) => {
                let inner = set_size(doc, &f.node.selection_set.node, memo, hops + 1)?;
                Size {
                    root: inner.root,
                    fields: 1 + inner.fields,
                }
            }
            Selection::FragmentSpread(f) => {
                let name = f.node.fragment_name.node.to_string();
                let inner = match memo.get(&name) {
                    Some(Some(s)) => *s,
                    // Being measured further up: the fragment spreads itself.
                    Some(None) => return Err(format!("query: fragment {name} spreads itself")),
                    None => {
                        let Some(def) = doc.fragments.get(&f.node.fragment_name.node) else {
                            return Err(format!("query: fragment {name} is not defined"));
                        };
                        memo.insert(name.clone(), None);
                        let s = set_size(doc, &def.node.selection_set.node, memo, hops + 1)?;
                        memo.insert(name, Some(s));
                        s
                    }
                };
                Size {
                    root: inner.root,
                    fields: 1 + inner.fields,
                }
            }
        };
        total.root = total.root.saturating_add(s.root);
        total.fields = total.fields.saturating_add(s.fields);
        if total.fields > MAX_EXPANDED {
            return Err(format!(
                "query: selects more than {MAX_EXPANDED} fields once its fragments are followed"
            ));
        }
    }
    Ok(total)
}

/// Words (stored document sources) one operation may read, in bytes: the budget bounds how
/// often a key reads large words, this how much one operation parses and answers at once.
pub const MAX_WORDS_PER_OPERATION: u64 = 4 * 1024 * 1024;

/// The words an operation has read so far.
#[derive(Default)]
pub struct WordsRead(std::sync::atomic::AtomicU64);

/// Counts `bytes` of words against the operation's allowance, or refuses them.
pub fn read_words(ctx: &async_graphql::Context<'_>, bytes: u64) -> Result<(), DomainError> {
    let Some(read) = ctx.data_opt::<WordsRead>() else {
        return Ok(());
    };
    let before = read.0.fetch_add(bytes, Ordering::AcqRel);
    if before.saturating_add(bytes) > MAX_WORDS_PER_OPERATION && before > 0 {
        return Err(DomainError::Invalid(format!(
            "query: reads more than {} MiB of documents' words in one operation; ask for fewer \
             documents' words at once",
            MAX_WORDS_PER_OPERATION >> 20
        )));
    }
    Ok(())
}

fn refused(e: DomainError) -> ServerError {
    e.extend().into_server_error(Pos::default())
}

pub struct Guard;

impl ExtensionFactory for Guard {
    fn create(&self) -> Arc<dyn Extension> {
        Arc::new(GuardExtension)
    }
}

struct GuardExtension;

#[async_graphql::async_trait::async_trait]
impl Extension for GuardExtension {
    async fn prepare_request(
        &self,
        ctx: &ExtensionContext<'_>,
        mut request: Request,
        next: NextPrepareRequest<'_>,
    ) -> ServerResult<Request> {
        // Measured before the library parses, walks and validates it.
        check_text(&request.query).map_err(|m| refused(DomainError::Invalid(m)))?;
        let size =
            measure(request.parsed_query()?).map_err(|m| refused(DomainError::Invalid(m)))?;
        if size.root > MAX_ROOT_FIELDS as u64 {
            return Err(refused(DomainError::Invalid(format!(
                "query: selects {} root fields (aliases included); at most {MAX_ROOT_FIELDS} in \
                 one operation",
                size.root
            ))));
        }
        request.data.insert(Measured(size));
        request.data.insert(WordsRead::default());
        if let (Some(socket), Ok(services)) = (ctx.data_opt::<Arc<Socket>>(), ctx.data::<Ctx>()) {
            // A socket's operation: the key as it is now, not as it was at connection_init.
            let checked = socket.recheck(services).await;
            log_socket_operation(services, socket, checked.as_ref());
            let actor = checked.map_err(refused)?;
            request.data.insert(actor);
        }
        next.run(ctx, request).await
    }

    async fn parse_query(
        &self,
        ctx: &ExtensionContext<'_>,
        query: &str,
        variables: &Variables,
        next: NextParseQuery<'_>,
    ) -> ServerResult<ExecutableDocument> {
        let doc = next.run(ctx, query, variables).await?;
        let fields = ctx.data_opt::<Measured>().map_or(1, |m| m.0.root);
        let spent = ctx.data_opt::<DoorSpent>().map_or(0, |d| d.0);
        let due = fields.saturating_sub(spent);
        if let (Some(actor), Ok(services), true) =
            (ctx.data_opt::<Actor>(), ctx.data::<Ctx>(), due > 0)
        {
            let b = signet_core::limits::spend(services, actor, due)
                .await
                .map_err(refused)?;
            if !b.allowed {
                return Err(refused(DomainError::RateLimited {
                    message: format!(
                        "Over the budget of {} requests a minute: this operation's {fields} root \
                         fields count as {fields} requests; retry after {} seconds.",
                        b.limit, b.reset_secs
                    ),
                    retry_after_secs: b.reset_secs,
                }));
            }
        }
        Ok(doc)
    }

    fn subscribe<'s>(
        &self,
        ctx: &ExtensionContext<'_>,
        stream: BoxStream<'s, Response>,
        next: NextSubscribe<'_>,
    ) -> BoxStream<'s, Response> {
        let (Some(socket), Some(actor), Some(counts)) = (
            ctx.data_opt::<Arc<Socket>>(),
            ctx.data_opt::<Actor>(),
            ctx.data_opt::<KeyOperations>(),
        ) else {
            return next.run(ctx, stream);
        };
        let services = ctx.data_opt::<Ctx>().cloned();
        let payer = actor.clone();
        match Held::take(socket.clone(), &counts.0, actor.id()) {
            Ok(held) => next
                .run(ctx, stream)
                .then(move |r| {
                    let _ = &held;
                    let (services, payer) = (services.clone(), payer.clone());
                    async move {
                        // A socket's answers are charged by size, as the door charges REST's.
                        if let Some(services) = services {
                            let size = serde_json::to_vec(&r).map_or(0, |b| b.len());
                            limits::charge_size(&services, &payer, size as u64).await;
                        }
                        r
                    }
                })
                .boxed(),
            Err(e) => {
                futures_util::stream::once(async move { Response::from_errors(vec![refused(e)]) })
                    .boxed()
            }
        }
    }
}

/// One open operation of a socket and its key; given back when the operation's stream ends.
struct Held {
    socket: Arc<Socket>,
    _key: Counted,
}

impl Held {
    fn take(socket: Arc<Socket>, counts: &Arc<Counter>, key: &str) -> Result<Held, DomainError> {
        if socket.operations.fetch_add(1, Ordering::AcqRel) >= MAX_SOCKET_OPERATIONS {
            socket.operations.fetch_sub(1, Ordering::AcqRel);
            return Err(DomainError::RateLimited {
                message: format!(
                    "this socket holds {MAX_SOCKET_OPERATIONS} operations, the most one socket \
                     may; complete one first"
                ),
                retry_after_secs: 1,
            });
        }
        let Some(counted) = Counter::take(counts, key, MAX_KEY_OPERATIONS) else {
            socket.operations.fetch_sub(1, Ordering::AcqRel);
            return Err(DomainError::RateLimited {
                message: format!(
                    "this key's sockets hold {MAX_KEY_OPERATIONS} operations, the most one key \
                     may; complete one first"
                ),
                retry_after_secs: 1,
            });
        };
        Ok(Held {
            socket,
            _key: counted,
        })
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        self.socket.operations.fetch_sub(1, Ordering::AcqRel);
    }
}

fn log_socket_operation(ctx: &Ctx, socket: &Socket, checked: Result<&Actor, &DomainError>) {
    let (status, kind) = match checked {
        Ok(_) => (200, None),
        Err(e) => (401, Some(e.kind().to_string())),
    };
    let request_id = ids::new_id("req");
    tracing::debug!(request_id = %request_id, route = "graphql.ws.operation", status, "socket operation");
    ctx.api_log.record(ApiLogEntry {
        request_id,
        key_id: checked
            .ok()
            .and_then(|a| a.principal.key_id().map(str::to_string)),
        workspace_id: checked.ok().map(|a| a.workspace_id.to_string()),
        method: "WS".into(),
        route: "graphql.ws.operation".into(),
        status,
        error_kind: kind,
        duration_us: 0,
        client_ip: socket.ip.to_string(),
        created_at: ctx.now(),
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deep_nesting_and_long_text_are_refused_before_parsing() {
        let deep = format!(
            "{{ documents(metadata: {}) {{ page {{ nextCursor }} }} }}",
            "[".repeat(2000)
        );
        assert!(
            check_text(&deep)
                .unwrap_err()
                .contains("nested more than 32")
        );
        let fine = format!("{{ a(x: {}1{}) }}", "[".repeat(20), "]".repeat(20));
        assert!(check_text(&fine).is_ok());
        // Brackets inside strings, block strings and comments do not count.
        let quoted = format!(
            "{{ a(x: \"{0}\", y: \"\"\"{0}\"\"\") # {0}\n }}",
            "[".repeat(100)
        );
        assert!(check_text(&quoted).is_ok(), "{quoted}");
        let long = format!("{{ a }}{}", " ".repeat(MAX_QUERY_BYTES));
        assert!(check_text(&long).unwrap_err().contains("bytes"));
    }

    #[test]
    fn root_fields_count_aliases_and_fragments() {
        let doc = async_graphql::parser::parse_query(
            "query { a: usage { plan } b: usage { plan } ...F ... on Query { c: usage { plan } } } \
             fragment F on Query { d: usage { plan } e: usage { plan } }",
        )
        .unwrap();
        // Ten fields, a spread and an inline fragment: twelve selections.
        assert_eq!(
            measure(&doc).unwrap(),
            Size {
                root: 5,
                fields: 12
            }
        );
    }

    /// Thirty fragments, each spreading the next three times, the last selecting `last`.
    fn chain(last: &str) -> String {
        let mut q = String::from("{ ...F1 ...F1 ...F1 }");
        for i in 1..30 {
            q.push_str(&format!(
                " fragment F{i} on Query {{ ...F{0} ...F{0} ...F{0} }}",
                i + 1
            ));
        }
        q.push_str(&format!(" fragment F30 on Query {{ {last} }}"));
        q
    }

    #[test]
    fn fragments_that_multiply_or_spread_themselves_are_refused() {
        // 3^30 selections from a few hundred bytes.
        let doc = async_graphql::parser::parse_query(chain("usage { plan }")).unwrap();
        let started = std::time::Instant::now();
        assert!(measure(&doc).unwrap_err().contains("more than 5000 fields"));
        assert!(started.elapsed() < std::time::Duration::from_millis(100));
        let doc = async_graphql::parser::parse_query(
            "{ ...A } fragment A on Query { ...B } fragment B on Query { ...A }",
        )
        .unwrap();
        assert!(measure(&doc).unwrap_err().contains("spreads itself"));
        // A chain that selects nothing in the end still costs its spreads.
        let doc = async_graphql::parser::parse_query(chain("...Nope")).unwrap();
        assert!(measure(&doc).is_err());
        let doc = async_graphql::parser::parse_query("{ ...Nope }").unwrap();
        assert!(measure(&doc).unwrap_err().contains("not defined"));
        // Many operations, each within the limit, are measured together.
        let fields: Vec<String> = (0..50).map(|i| format!("a{i}: __typename")).collect();
        let ops: Vec<String> = (0..200)
            .map(|i| format!("query q{i} {{ {} }}", fields.join(" ")))
            .collect();
        let doc = async_graphql::parser::parse_query(ops.join(" ")).unwrap();
        assert!(measure(&doc).unwrap_err().contains("more than 5000"));
    }
}
