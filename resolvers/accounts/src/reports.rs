//! Reports: how many real documents were sent and completed over a window of days in the
//! workspace's time zone, in all or by the team their sender belongs to. Test documents are
//! never counted, whichever key asks.

use std::collections::{BTreeMap, BTreeSet};

use chrono::{Days, NaiveDate, TimeZone, Utc};
use chrono_tz::Tz;
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Value};
use serde::Serialize;
use signet_storage::entities::{team, team_member};

use signet_core::{Actor, Ctx, DomainError, Scope};

/// The window when neither end is given: the last 30 days, today included.
pub const DEFAULT_DAYS: u64 = 30;
/// The longest window a report covers.
pub const MAX_DAYS: u64 = 366;

#[derive(Clone, Debug, Default, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct ReportDayOut {
    /// The day (YYYY-MM-DD) in the workspace's time zone.
    pub date: String,
    pub sent: i64,
    pub completed: i64,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct ReportOut {
    /// First day of the window (YYYY-MM-DD), in `timeZone`.
    pub from: String,
    /// Last day of the window, included.
    pub to: String,
    /// The workspace's time zone, in which the days begin and end.
    pub time_zone: String,
    /// The team the counts are narrowed to: documents whose sender is one of its members.
    pub team: Option<String>,
    /// Real documents sent in the window (voided or declined since or not).
    pub sent: i64,
    /// Real documents completed in the window: every seat signed and the record sealed.
    pub completed: i64,
    /// The same counts for each day of the window, oldest first.
    pub days: Vec<ReportDayOut>,
}

#[derive(Clone, Debug, Default)]
pub struct ReportIn {
    pub from: Option<String>,
    pub to: Option<String>,
    pub team: Option<String>,
}

fn day(field: &str, v: &str) -> Result<NaiveDate, DomainError> {
    use chrono::Datelike;
    NaiveDate::parse_from_str(v, "%Y-%m-%d")
        .ok()
        .filter(|d| (1970..=9999).contains(&d.year()))
        .ok_or_else(|| {
            DomainError::invalid(
                field,
                format!("must be a date from 1970 to 9999 such as 2026-11-23, not '{v}'"),
            )
        })
}

/// The first and last day of the window.
fn window(input: &ReportIn, today: NaiveDate) -> Result<(NaiveDate, NaiveDate), DomainError> {
    let span = Days::new(DEFAULT_DAYS - 1);
    let (from, to) = match (&input.from, &input.to) {
        (None, None) => (today - span, today),
        (Some(f), None) => {
            let f = day("from", f)?;
            (f, today.max(f))
        }
        (None, Some(t)) => {
            let t = day("to", t)?;
            (t - span, t)
        }
        (Some(f), Some(t)) => (day("from", f)?, day("to", t)?),
    };
    if from > to {
        return Err(DomainError::invalid(
            "to",
            format!("{to} is before from ({from})"),
        ));
    }
    if (to - from).num_days() as u64 >= MAX_DAYS {
        return Err(DomainError::invalid(
            "from",
            format!("a report covers at most {MAX_DAYS} days"),
        ));
    }
    Ok((from, to))
}

/// The instant (ms since the epoch) a local day begins.
fn start_of(tz: Tz, d: NaiveDate) -> i64 {
    let midnight = d.and_hms_opt(0, 0, 0).unwrap_or_default();
    // A day that begins in a clock change begins at the first instant that exists.
    (0..3)
        .find_map(|h| {
            tz.from_local_datetime(&(midnight + chrono::Duration::hours(h)))
                .earliest()
        })
        .map(|t| t.timestamp_millis())
        .unwrap_or_else(|| midnight.and_utc().timestamp_millis())
}

/// Lower-cased emails of a team's members; 404 for a team of another workspace.
async fn members(ctx: &Ctx, actor: &Actor, team_id: &str) -> Result<BTreeSet<String>, DomainError> {
    let found = team::Entity::find_by_id(team_id)
        .one(&ctx.db.conn)
        .await?
        .filter(|t| t.workspace_id == actor.workspace_id)
        .ok_or_else(|| DomainError::NotFound(format!("no team with id {team_id}")))?;
    Ok(team_member::Entity::find()
        .filter(team_member::Column::TeamId.eq(found.id))
        .all(&ctx.db.conn)
        .await?
        .into_iter()
        .map(|m| m.email.to_lowercase())
        .collect())
}

/// Who sent a document, for teams: the `sender.email` fact, else the send's `replyTo`.
fn sender(facts: &str, send: &str) -> Option<String> {
    let facts: BTreeMap<String, String> = serde_json::from_str(facts).unwrap_or_default();
    let send: serde_json::Value = serde_json::from_str(send).unwrap_or_default();
    facts
        .get("sender.email")
        .cloned()
        .or_else(|| send["replyTo"].as_str().map(str::to_string))
        .map(|e| e.trim().to_lowercase())
}

pub async fn get(ctx: &Ctx, actor: &Actor, input: ReportIn) -> Result<ReportOut, DomainError> {
    actor.require(Scope::ReportsRead)?;
    let ws = crate::workspaces::get(ctx, &actor.workspace_id).await?;
    let tz: Tz = ws.time_zone.parse().unwrap_or(Tz::UTC);
    let today = Utc::now().with_timezone(&tz).date_naive();
    let (from, to) = window(&input, today)?;
    let team = match &input.team {
        Some(t) => Some(members(ctx, actor, t).await?),
        None => None,
    };
    let (start, end) = (start_of(tz, from), start_of(tz, to + Days::new(1)));
    let rows = ctx
        .db
        .conn
        .query_all_raw(ctx.db.stmt(
            &format!(
                "SELECT sent_at, completed_at, state{} FROM documents \
                 WHERE workspace_id = $1 AND test = $2 AND ((sent_at >= $3 AND sent_at < $4) \
                 OR (state = 'executed' AND completed_at >= $3 AND completed_at < $4))",
                // Who sent each document matters only for a team.
                if team.is_some() {
                    ", facts, send_options"
                } else {
                    ""
                }
            ),
            [
                Value::from(actor.workspace_id.clone()),
                Value::from(false),
                Value::from(start),
                Value::from(end),
            ],
        ))
        .await?;
    let mut days: Vec<ReportDayOut> = from
        .iter_days()
        .take_while(|d| *d <= to)
        .map(|d| ReportDayOut {
            date: d.format("%Y-%m-%d").to_string(),
            ..Default::default()
        })
        .collect();
    let index = |ms: i64| -> Option<usize> {
        let local = Utc.timestamp_millis_opt(ms).single()?.with_timezone(&tz);
        usize::try_from((local.date_naive() - from).num_days()).ok()
    };
    for r in &rows {
        if let Some(members) = &team {
            let facts: Option<String> = r.try_get("", "facts")?;
            let send: Option<String> = r.try_get("", "send_options")?;
            let who = sender(
                facts.as_deref().unwrap_or("{}"),
                send.as_deref().unwrap_or("{}"),
            );
            if !who.is_some_and(|w| members.contains(&w)) {
                continue;
            }
        }
        let sent_at: Option<i64> = r.try_get("", "sent_at")?;
        let completed_at: Option<i64> = r.try_get("", "completed_at")?;
        let state: String = r.try_get("", "state")?;
        let within = |t: &i64| (start..end).contains(t);
        if let Some(i) = sent_at.filter(within).and_then(index)
            && let Some(d) = days.get_mut(i)
        {
            d.sent += 1;
        }
        if state == "executed"
            && let Some(i) = completed_at.filter(within).and_then(index)
            && let Some(d) = days.get_mut(i)
        {
            d.completed += 1;
        }
    }
    Ok(ReportOut {
        from: from.format("%Y-%m-%d").to_string(),
        to: to.format("%Y-%m-%d").to_string(),
        time_zone: tz.name().to_string(),
        team: input.team,
        sent: days.iter().map(|d| d.sent).sum(),
        completed: days.iter().map(|d| d.completed).sum(),
        days,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> NaiveDate {
        day("x", s).unwrap()
    }

    #[test]
    fn the_window_defaults_to_the_last_thirty_days_and_is_checked() {
        let today = d("2026-11-23");
        let w = |from: Option<&str>, to: Option<&str>| {
            window(
                &ReportIn {
                    from: from.map(str::to_string),
                    to: to.map(str::to_string),
                    team: None,
                },
                today,
            )
        };
        assert_eq!(w(None, None).unwrap(), (d("2026-10-25"), today));
        assert_eq!(
            w(Some("2026-11-01"), None).unwrap(),
            (d("2026-11-01"), today)
        );
        assert_eq!(
            w(None, Some("2026-01-30")).unwrap(),
            (d("2026-01-01"), d("2026-01-30"))
        );
        assert_eq!(
            w(Some("2026-11-01"), Some("2026-11-01")).unwrap(),
            (d("2026-11-01"), d("2026-11-01"))
        );
        assert!(w(Some("2026-11-02"), Some("2026-11-01")).is_err());
        assert!(w(Some("2025-01-01"), Some("2026-01-02")).is_err());
        assert!(w(Some("2025-01-02"), Some("2026-01-02")).is_ok());
        let e = w(Some("23/11/2026"), None).unwrap_err().to_string();
        assert!(e.starts_with("from: must be a date"), "{e}");
        // Years chrono can parse but not step a day past are refused, not a panic.
        assert!(w(None, Some("+262142-12-31")).is_err());
        assert!(w(Some("-262143-01-01"), None).is_err());
    }

    #[test]
    fn a_day_begins_at_local_midnight_even_across_a_clock_change() {
        let paris: Tz = "Europe/Paris".parse().unwrap();
        // Summer time: UTC+2.
        assert_eq!(
            start_of(paris, d("2026-07-01")),
            Utc.with_ymd_and_hms(2026, 6, 30, 22, 0, 0)
                .unwrap()
                .timestamp_millis()
        );
        // Havana skips from midnight to 01:00 when summer time starts (8 March 2026).
        let havana: Tz = "America/Havana".parse().unwrap();
        let start = start_of(havana, d("2026-03-08"));
        assert_eq!(
            start,
            Utc.with_ymd_and_hms(2026, 3, 8, 5, 0, 0)
                .unwrap()
                .timestamp_millis()
        );
    }

    #[test]
    fn the_sender_is_the_sender_email_fact_else_the_reply_to() {
        assert_eq!(
            sender(
                r#"{"sender.email": " Ann@Example.com "}"#,
                r#"{"replyTo": "b@x.io"}"#
            ),
            Some("ann@example.com".into())
        );
        assert_eq!(
            sender("{}", r#"{"replyTo": "B@x.io"}"#),
            Some("b@x.io".into())
        );
        assert_eq!(sender("{}", "{}"), None);
    }
}
