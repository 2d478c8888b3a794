//! The framework's floor for the read path: a bare axum handler answering
//! `GET /api/v1/usage` with a fixed JSON body (the one Signet answered), no key, no budget, no
//! log. `bench/read-ratio.sh` measures Signet's authenticated read against it in the same run.
//!
//!   signet-bench-bare <listen address> <file holding the JSON body>

use axum::Router;
use axum::http::header;
use axum::routing::get;

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [listen, file] = args.as_slice() else {
        eprintln!("usage: bare <listen address> <file holding the JSON body>");
        std::process::exit(2);
    };
    let body: &'static [u8] = match std::fs::read(file) {
        Ok(b) => Box::leak(b.into_boxed_slice()),
        Err(e) => {
            eprintln!("bare: {file}: {e}");
            std::process::exit(1);
        }
    };
    let app = Router::new().route(
        "/api/v1/usage",
        get(move || async move { ([(header::CONTENT_TYPE, "application/json")], body) }),
    );
    let listener = match tokio::net::TcpListener::bind(listen).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("bare: {listen}: {e}");
            std::process::exit(1);
        }
    };
    if let Err(e) = axum::serve(listener, app).await {
        eprintln!("bare: {e}");
        std::process::exit(1);
    }
}
