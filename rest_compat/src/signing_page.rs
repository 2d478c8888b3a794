//! The signing page: `GET /s/{token}` (a static page that changes nothing: mail scanners
//! follow links), its built files under `/assets/`, and the calls it makes under `/page/v1/`
//! with the link as its credential (`Authorization: Link <token>`, never in a URL). Every
//! answer carries a strict Content-Security-Policy without inline script, `nosniff`,
//! `Referrer-Policy: no-referrer` (the link must not leak through a Referer), and personal
//! answers are never cached. None of this is in the OpenAPI document: it is the person's
//! side, not the API.

use std::collections::HashMap;
use std::io::Write as _;
use std::sync::{LazyLock, Mutex};

use axum::body::Body;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get, post};
use axum::{Extension, Json};
use signet_core::DomainError;
use signet_documents::signing::{self, acts, identity};

use crate::door::auth::link_of;
use crate::door::client::ClientIp;
use crate::extract::{JsonIn, int, query, text};
use crate::routes::row::{Access, Route};
use crate::{ApiError, AppState};

/// The policy of every page answer: only this origin's scripts, styles, pictures and calls;
/// no inline script, no plugin, no form posting elsewhere, not framed (embedding has its own).
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; \
    connect-src 'self'; font-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The largest body a page call takes: a signature drawn on the pad is bounded far below it.
pub const PAGE_BODY_LIMIT: usize = 1024 * 1024;

/// The signing page's rows: the pages and files are public, the calls need the link.
pub static ROUTES: &[Route] = &[
    Route::get("/s/{token}", "page.sign", Access::Public, page).body_limit(PAGE_BODY_LIMIT),
    Route::get("/e/{token}", "page.embed", Access::Public, embed_page).body_limit(PAGE_BODY_LIMIT),
    Route::post(
        "/page/v1/embed/start",
        "page.embed_start",
        Access::Link,
        embed_start,
    )
    .body_limit(PAGE_BODY_LIMIT),
    Route::get("/embed/signing.js", "page.loader", Access::Public, loader)
        .body_limit(PAGE_BODY_LIMIT),
    Route::get("/assets/{file}", "page.asset", Access::Public, asset).body_limit(PAGE_BODY_LIMIT),
    Route::get("/page/v1/view", "page.view", Access::Link, view).body_limit(PAGE_BODY_LIMIT),
    Route::post("/page/v1/opened", "page.opened", Access::Link, opened).body_limit(PAGE_BODY_LIMIT),
    Route::post("/page/v1/consent", "page.consent", Access::Link, consent)
        .body_limit(PAGE_BODY_LIMIT),
    Route::post("/page/v1/sign", "page.sign_fields", Access::Link, sign)
        .body_limit(PAGE_BODY_LIMIT),
    Route::post("/page/v1/pay", "page.pay", Access::Link, pay).body_limit(PAGE_BODY_LIMIT),
    Route::post("/page/v1/decline", "page.decline", Access::Link, decline)
        .body_limit(PAGE_BODY_LIMIT),
    Route::post("/page/v1/code", "page.code", Access::Link, code).body_limit(PAGE_BODY_LIMIT),
    Route::post("/page/v1/verify", "page.verify", Access::Link, verify).body_limit(PAGE_BODY_LIMIT),
    Route::get(
        "/page/v1/images/{doc}/{page}/{width}",
        "page.image",
        Access::Public,
        image,
    )
    .body_limit(PAGE_BODY_LIMIT),
    Route::get(
        "/page/v1/signed.pdf",
        "page.signed_pdf",
        Access::Link,
        sealed,
    )
    .body_limit(PAGE_BODY_LIMIT),
];

/// The headers of every page answer; `cache` is its Cache-Control.
fn guarded(mut res: Response, cache: &'static str) -> Response {
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        "cross-origin-opener-policy",
        HeaderValue::from_static("same-origin"),
    );
    h.insert(
        "cross-origin-resource-policy",
        HeaderValue::from_static("same-origin"),
    );
    res
}

pub(crate) fn personal(res: impl IntoResponse) -> Response {
    guarded(res.into_response(), "no-store")
}

/// A personal answer shown in a frame on `origin` (an embedded session's website, validated
/// when the workspace listed it): `frame-ancestors` names exactly that website.
pub(crate) fn framed(res: impl IntoResponse, origin: &str) -> Response {
    let mut res = personal(res);
    let csp = CSP.replace(
        "frame-ancestors 'none'",
        &format!("frame-ancestors {origin}"),
    );
    if let Ok(v) = HeaderValue::from_str(&csp) {
        res.headers_mut().insert(header::CONTENT_SECURITY_POLICY, v);
        res.headers_mut().remove(header::X_FRAME_OPTIONS);
    }
    res
}

/// The link a page call carries.
fn link(headers: &HeaderMap) -> Result<String, ApiError> {
    link_of(headers).map(str::to_string).ok_or_else(|| {
        ApiError(DomainError::NotFound(
            "this link does not open a document".into(),
        ))
    })
}

/// The pass a page holds once the person confirmed who they are (`Signet-Pass`).
fn pass(headers: &HeaderMap) -> Option<String> {
    headers
        .get("signet-pass")
        .and_then(|v| v.to_str().ok())
        .map(|p| p.trim().to_string())
}

fn seen(ip: &ClientIp, headers: &HeaderMap) -> signing::Seen {
    signing::Seen {
        origin: None,
        ip: ip.0.to_string(),
        user_agent: headers
            .get(header::USER_AGENT)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string(),
    }
}

/// The page itself: the same few bytes for every link (the page reads its link from the
/// address), so nothing about the document is in it and opening it changes nothing.
fn page() -> MethodRouter<AppState> {
    get(|Path(_token): Path<String>| async move {
        personal((
            [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
            shell(None),
        ))
    })
}

/// The embedded signing page (`/e/{token}`): the same page, framed only by the website its
/// link was made for. A link unknown or run out is not framed at all.
fn embed_page() -> MethodRouter<AppState> {
    get(
        |State(s): State<AppState>, Path(token): Path<String>| async move {
            let html = |origin: Option<&str>| {
                (
                    [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
                    shell(origin),
                )
            };
            Ok::<_, ApiError>(match signing::embed::origin_of(&s.ctx, &token).await? {
                Some(origin) => framed(html(Some(&origin)), &origin),
                None => personal((StatusCode::NOT_FOUND, html(None))),
            })
        },
    )
}

fn embed_start() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>, Extension(ip): Extension<ClientIp>, headers: HeaderMap| async move {
            let token = link(&headers)?;
            let out = signing::embed::start(&s.ctx, &token, &seen(&ip, &headers)).await?;
            Ok::<_, ApiError>(personal(Json(out)))
        },
    )
}

/// The `<signet-signing>` loader, for other websites' pages: a stable address, cached a few
/// minutes, loadable across origins.
fn loader() -> MethodRouter<AppState> {
    loader_of("signing_embed.js")
}

/// A loader for other websites' pages (`<signet-signing>`, `<signet-scribe>`): a stable
/// address, cached a few minutes, loadable across origins.
pub(crate) fn loader_of(file: &'static str) -> MethodRouter<AppState> {
    get(move || async move {
        let Some((_, ty, bytes)) = signet_frontend::built(file).and_then(signet_frontend::file)
        else {
            return Err(ApiError(DomainError::NotFound("no loader built".into())));
        };
        let mut res = guarded(
            ([(header::CONTENT_TYPE, ty)], bytes).into_response(),
            "public, max-age=300",
        );
        res.headers_mut().insert(
            "cross-origin-resource-policy",
            HeaderValue::from_static("cross-origin"),
        );
        Ok::<_, ApiError>(res)
    })
}

/// The page's few bytes, the same for every link; an embedded page also names the website
/// it is framed by (its own caller's, no secret), where it posts its events.
fn shell(origin: Option<&str>) -> String {
    shell_of(
        "sign",
        origin,
        "This signing page needs JavaScript. Turn it on, or ask the sender for another way to \
         sign.",
    )
}

/// A page's few bytes: its built script and styles (`entry`.js and .css), the website it is
/// framed by (when embedded), and what it says without JavaScript.
pub(crate) fn shell_of(entry: &str, origin: Option<&str>, noscript: &str) -> String {
    let origin = origin
        .map(|o| {
            format!(
                "<meta name=\"signet-origin\" content=\"{}\">",
                signet_email::compose::escape(o)
            )
        })
        .unwrap_or_default();
    let (js, css) = (format!("{entry}.js"), format!("{entry}.css"));
    let js = signet_frontend::built(&js).unwrap_or(&js);
    let css = signet_frontend::built(&css).unwrap_or(&css);
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"robots\" content=\"noindex, nofollow\">{origin}\
         <title>Signet</title><link rel=\"icon\" href=\"data:,\">\
         <link rel=\"stylesheet\" href=\"/assets/{css}\">\
         <link rel=\"modulepreload\" href=\"/assets/{js}\">\
         <script type=\"module\" src=\"/assets/{js}\"></script></head>\
         <body><div id=\"app\"><p class=\"loading\" role=\"status\">…</p></div>\
         <noscript><p>{}</p></noscript></body></html>\n",
        signet_email::compose::escape(noscript)
    )
}

/// Built files, gzipped once when the browser takes gzip. Their names carry their content's
/// hash, so they are cached for good.
fn asset() -> MethodRouter<AppState> {
    static GZIPPED: LazyLock<Mutex<HashMap<&'static str, &'static [u8]>>> =
        LazyLock::new(Default::default);
    get(|Path(file): Path<String>, headers: HeaderMap| async move {
        let Some((name, ty, bytes)) = signet_frontend::file(&file) else {
            return Err(ApiError(DomainError::NotFound(format!("no file {file}"))));
        };
        let gzip = headers
            .get(header::ACCEPT_ENCODING)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.split(',').any(|e| e.trim().starts_with("gzip")));
        let mut res = if gzip {
            let packed = {
                let mut cache = GZIPPED.lock().unwrap_or_else(|e| e.into_inner());
                *cache.entry(name).or_insert_with(|| {
                    let mut enc =
                        flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
                    let _ = enc.write_all(bytes);
                    Box::leak(enc.finish().unwrap_or_default().into_boxed_slice())
                })
            };
            let mut r = Response::new(Body::from(packed));
            r.headers_mut()
                .insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
            r
        } else {
            Response::new(Body::from(bytes))
        };
        res.headers_mut()
            .insert(header::CONTENT_TYPE, HeaderValue::from_static(ty));
        res.headers_mut()
            .insert(header::VARY, HeaderValue::from_static("accept-encoding"));
        Ok::<_, ApiError>(guarded(res, "public, max-age=31536000, immutable"))
    })
}

/// The longest a view waits for a change (`?wait=`).
const MAX_WAIT_SECS: i64 = 25;

fn view() -> MethodRouter<AppState> {
    get(
        |State(s): State<AppState>, headers: HeaderMap, RawQuery(q): RawQuery| async move {
            let token = link(&headers)?;
            let p = query(q.as_deref(), &["wait", "version"])?;
            let wait = int(&p, "wait")?.unwrap_or(0).clamp(0, MAX_WAIT_SECS);
            let pass = pass(&headers);
            let out = match text(&p, "version") {
                Some(version) if wait > 0 => {
                    signing::view_waiting(
                        &s.ctx,
                        &token,
                        pass.as_deref(),
                        &version,
                        std::time::Duration::from_secs(wait as u64),
                    )
                    .await?
                }
                _ => signing::view(&s.ctx, &token, pass.as_deref()).await?,
            };
            Ok::<_, ApiError>(personal(Json(out)))
        },
    )
}

fn opened() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>, Extension(ip): Extension<ClientIp>, headers: HeaderMap| async move {
            let token = link(&headers)?;
            acts::opened(
                &s.ctx,
                &token,
                pass(&headers).as_deref(),
                &seen(&ip, &headers),
            )
            .await?;
            Ok::<_, ApiError>(personal(StatusCode::NO_CONTENT))
        },
    )
}

fn consent() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>,
         Extension(ip): Extension<ClientIp>,
         headers: HeaderMap,
         JsonIn(body): JsonIn<acts::ConsentIn>| async move {
            let token = link(&headers)?;
            let out = acts::consent(
                &s.ctx,
                &token,
                pass(&headers).as_deref(),
                body,
                &seen(&ip, &headers),
            )
            .await?;
            Ok::<_, ApiError>(personal(Json(out)))
        },
    )
}

fn sign() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>,
         Extension(ip): Extension<ClientIp>,
         headers: HeaderMap,
         JsonIn(body): JsonIn<acts::SignIn>| async move {
            let token = link(&headers)?;
            let out = acts::sign(
                &s.ctx,
                &token,
                pass(&headers).as_deref(),
                body,
                &seen(&ip, &headers),
            )
            .await?;
            Ok::<_, ApiError>(personal(Json(out)))
        },
    )
}

fn pay() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>,
         headers: HeaderMap,
         JsonIn(body): JsonIn<signing::pay::PayIn>| async move {
            let token = link(&headers)?;
            let out = signing::pay::pay(&s.ctx, &token, pass(&headers).as_deref(), body).await?;
            Ok::<_, ApiError>(personal(Json(out)))
        },
    )
}

fn decline() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>,
         Extension(ip): Extension<ClientIp>,
         headers: HeaderMap,
         JsonIn(body): JsonIn<acts::DeclineIn>| async move {
            let token = link(&headers)?;
            let out = acts::decline(
                &s.ctx,
                &token,
                pass(&headers).as_deref(),
                body,
                &seen(&ip, &headers),
            )
            .await?;
            Ok::<_, ApiError>(personal(Json(out)))
        },
    )
}

fn code() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>, Extension(ip): Extension<ClientIp>, headers: HeaderMap| async move {
            let token = link(&headers)?;
            let out = identity::send_code(&s.ctx, &token, &seen(&ip, &headers)).await?;
            Ok::<_, ApiError>(personal(Json(out)))
        },
    )
}

fn verify() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>,
         Extension(ip): Extension<ClientIp>,
         headers: HeaderMap,
         JsonIn(body): JsonIn<identity::VerifyIn>| async move {
            let token = link(&headers)?;
            let out = identity::verify(&s.ctx, &token, body, &seen(&ip, &headers)).await?;
            Ok::<_, ApiError>(personal(Json(out)))
        },
    )
}

fn image() -> MethodRouter<AppState> {
    get(
        |State(s): State<AppState>,
         Path((doc, page, width)): Path<(String, usize, u32)>,
         RawQuery(q): RawQuery| async move {
            let p = query(q.as_deref(), &["until", "tag"])?;
            let until = int(&p, "until")?.unwrap_or(0);
            let tag = text(&p, "tag").unwrap_or_default();
            let png = signing::image(&s.ctx, &doc, page, width, until, &tag).await?;
            Ok::<_, ApiError>(personal(([(header::CONTENT_TYPE, "image/png")], png)))
        },
    )
}

fn sealed() -> MethodRouter<AppState> {
    get(|State(s): State<AppState>, headers: HeaderMap| async move {
        let token = link(&headers)?;
        let file = signing::sealed(&s.ctx, &token, pass(&headers).as_deref()).await?;
        let disposition = format!("attachment; filename=\"{}\"", file.file_name);
        Ok::<_, ApiError>(personal((
            [
                (header::CONTENT_TYPE, "application/pdf".to_string()),
                (header::CONTENT_DISPOSITION, disposition),
            ],
            file.bytes,
        )))
    })
}
