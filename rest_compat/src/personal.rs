//! What people reach through the links in their emails, without a key: today the download
//! link of a completed email too large to attach (`GET /d/{token}`). Each answer is personal:
//! never stored by a cache, never named to another site. They pass through the door like
//! every route: budgeted per client address and logged (the log keeps the route's pattern,
//! never the token).

use axum::extract::{Path, State};
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::{MethodRouter, get};

use crate::routes::row::{Access, Route};
use crate::{ApiError, AppState};

/// The rows of what people reach through their emails' links.
pub static ROUTES: &[Route] = &[Route::get(
    "/d/{token}",
    "personal.download",
    Access::Public,
    download,
)];

fn download() -> MethodRouter<AppState> {
    get(
        |State(s): State<AppState>, Path(token): Path<String>| async move {
            let file = signet_documents::signing::links::download(&s.ctx, &token).await?;
            let disposition = format!("attachment; filename=\"{}\"", file.file_name);
            Ok::<_, ApiError>(
                (
                    [
                        (header::CONTENT_TYPE, "application/pdf".to_string()),
                        (header::CONTENT_DISPOSITION, disposition),
                        (header::CACHE_CONTROL, "no-store".to_string()),
                        (header::REFERRER_POLICY, "no-referrer".to_string()),
                    ],
                    file.bytes,
                )
                    .into_response(),
            )
        },
    )
}
