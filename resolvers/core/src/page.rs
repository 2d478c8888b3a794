//! Keyset pagination. Lists are ordered by id, newest first; ids sort by creation time, so a
//! cursor ("after this id") never skips or repeats an item while new ones arrive: new items
//! sort before the first page and never shift later pages. Cursors are opaque to callers.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::Serialize;

use crate::DomainError;

pub const MAX_LIMIT: i64 = 200;
pub const DEFAULT_LIMIT: i64 = 50;
const CURSOR_TAG: &str = "c1:";

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageRequest {
    pub limit: u64,
    /// Items strictly older (smaller id) than this one.
    pub before_id: Option<String>,
}

impl PageRequest {
    pub fn parse(limit: Option<i64>, cursor: Option<&str>) -> Result<PageRequest, DomainError> {
        let limit = limit.unwrap_or(DEFAULT_LIMIT);
        if !(1..=MAX_LIMIT).contains(&limit) {
            return Err(DomainError::invalid(
                "limit",
                format!("must be between 1 and {MAX_LIMIT}, got {limit}"),
            ));
        }
        let before_id = match cursor {
            None | Some("") => None,
            Some(c) => Some(decode(c).ok_or_else(|| {
                DomainError::invalid("cursor", "is not a cursor this API returned")
            })?),
        };
        Ok(PageRequest {
            limit: limit as u64,
            before_id,
        })
    }

    /// Fetch `limit + 1` rows and hand them here: the extra row only says a next page exists.
    pub fn finish<T>(&self, mut rows: Vec<T>, id_of: impl Fn(&T) -> &str) -> Page<T> {
        let more = rows.len() as u64 > self.limit;
        rows.truncate(self.limit as usize);
        let next_cursor = if more {
            rows.last().map(|r| encode(id_of(r)))
        } else {
            None
        };
        Page {
            data: rows,
            page: PageInfo { next_cursor },
        }
    }
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct PageInfo {
    /// Pass as `cursor` for the next page; null on the last page.
    pub next_cursor: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Page<T> {
    pub data: Vec<T>,
    pub page: PageInfo,
}

fn encode(id: &str) -> String {
    URL_SAFE_NO_PAD.encode(format!("{CURSOR_TAG}{id}"))
}

fn decode(cursor: &str) -> Option<String> {
    let raw = URL_SAFE_NO_PAD.decode(cursor).ok()?;
    let s = String::from_utf8(raw).ok()?;
    let id = s.strip_prefix(CURSOR_TAG)?;
    (!id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
        .then(|| id.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_outside_one_to_two_hundred_are_refused_by_name() {
        assert_eq!(PageRequest::parse(None, None).unwrap().limit, 50);
        assert_eq!(PageRequest::parse(Some(200), None).unwrap().limit, 200);
        for bad in [0, 201, -1] {
            let e = PageRequest::parse(Some(bad), None).unwrap_err().to_string();
            assert!(e.starts_with("limit: must be between 1 and 200"), "{e}");
        }
        assert!(
            PageRequest::parse(None, Some("not-a-cursor"))
                .unwrap_err()
                .to_string()
                .starts_with("cursor:")
        );
    }

    #[test]
    fn cursor_round_trips_and_last_page_has_none() {
        let req = PageRequest::parse(Some(2), None).unwrap();
        let page = req.finish(vec!["doc_3", "doc_2", "doc_1"], |s| s);
        assert_eq!(page.data, vec!["doc_3", "doc_2"]);
        let cursor = page.page.next_cursor.unwrap();
        let next = PageRequest::parse(Some(2), Some(&cursor)).unwrap();
        assert_eq!(next.before_id.as_deref(), Some("doc_2"));
        let last = next.finish(vec!["doc_1"], |s| s);
        assert_eq!(last.page.next_cursor, None);
    }
}
