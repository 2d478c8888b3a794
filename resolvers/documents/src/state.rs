//! The document state machine, in one place. Every transition is a conditional UPDATE whose
//! WHERE clause is the set of states it may leave from, so two requests racing on one document
//! cannot both win; the loser is told what state the document is in.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DocState {
    Draft,
    Sent,
    Opened,
    /// Some, or all (waiting for the sealed copy), have signed.
    Signed,
    Executed,
    Declined,
    Expired,
    Voided,
}

impl DocState {
    pub const NAMES: &'static [&'static str] = &[
        "draft", "sent", "opened", "signed", "executed", "declined", "expired", "voided",
    ];

    pub fn parse(s: &str) -> Option<DocState> {
        Some(match s {
            "draft" => DocState::Draft,
            "sent" => DocState::Sent,
            "opened" => DocState::Opened,
            "signed" => DocState::Signed,
            "executed" => DocState::Executed,
            "declined" => DocState::Declined,
            "expired" => DocState::Expired,
            "voided" => DocState::Voided,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// `sent`, `opened` or `signed`.
    pub fn out_for_signature(self) -> bool {
        matches!(self, DocState::Sent | DocState::Opened | DocState::Signed)
    }

    /// `declined`, `voided` or `expired`: ended without being executed.
    pub fn ended_unsigned(self) -> bool {
        matches!(
            self,
            DocState::Declined | DocState::Voided | DocState::Expired
        )
    }
}

impl std::fmt::Display for DocState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl serde::Serialize for DocState {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// SQL list of the states a document is out for signature in.
pub const OUT_FOR_SIGNATURE: &str = "('sent', 'opened', 'signed')";

/// Where a person is on a document: `waiting` (not their turn), `invited`, `opened`,
/// `signed` or `declined`. Stored by name in `people.status`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PersonStatus {
    Waiting,
    Invited,
    Opened,
    Signed,
    Declined,
}

impl PersonStatus {
    pub const NAMES: &'static [&'static str] =
        &["waiting", "invited", "opened", "signed", "declined"];

    pub fn parse(s: &str) -> Option<PersonStatus> {
        Some(match s {
            "waiting" => PersonStatus::Waiting,
            "invited" => PersonStatus::Invited,
            "opened" => PersonStatus::Opened,
            "signed" => PersonStatus::Signed,
            "declined" => PersonStatus::Declined,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// `invited` or `opened`: it is their turn and they have not finished.
    pub fn is_up(self) -> bool {
        matches!(self, PersonStatus::Invited | PersonStatus::Opened)
    }
}

impl std::fmt::Display for PersonStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// SQL list of the person statuses that are up (`PersonStatus::is_up`).
pub const UP: &str = "('invited', 'opened')";

/// The seats to invite next: with a signing order, every participant of the lowest `order`
/// among those not yet done; without one, every participant. `people` is (seat, order, status,
/// participates).
pub fn next_to_invite<'a>(
    signing_order: bool,
    people: &[(&'a str, i64, PersonStatus, bool)],
) -> Vec<&'a str> {
    let pending: Vec<_> = people
        .iter()
        .filter(|(_, _, status, participates)| *participates && *status != PersonStatus::Signed)
        .collect();
    if pending
        .iter()
        .any(|(_, _, status, _)| *status == PersonStatus::Declined)
    {
        return vec![];
    }
    let lowest = if signing_order {
        pending.iter().map(|(_, o, _, _)| *o).min()
    } else {
        None
    };
    pending
        .iter()
        .filter(|(_, o, status, _)| {
            *status == PersonStatus::Waiting && lowest.is_none_or(|l| *o == l)
        })
        .map(|(seat, _, _, _)| *seat)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signing_order_invites_the_lowest_group_then_the_next() {
        use PersonStatus::{Declined as D, Opened as O, Signed as S, Waiting as W};
        let p = [
            ("a", 2, W, true),
            ("b", 1, W, true),
            ("c", 1, W, true),
            ("d", 1, W, false),
        ];
        assert_eq!(next_to_invite(true, &p), ["b", "c"]);
        assert_eq!(next_to_invite(false, &p), ["a", "b", "c"]);
        let p = [("a", 2, W, true), ("b", 1, S, true), ("c", 1, O, true)];
        assert!(
            next_to_invite(true, &p).is_empty(),
            "c of order 1 is still up"
        );
        let p = [("a", 2, W, true), ("b", 1, S, true), ("c", 1, S, true)];
        assert_eq!(next_to_invite(true, &p), ["a"]);
        let p = [("a", 2, W, true), ("b", 1, D, true)];
        assert!(next_to_invite(true, &p).is_empty());
        assert_eq!(
            DocState::parse("voided").map(DocState::as_str),
            Some("voided")
        );
        assert!(DocState::Opened.out_for_signature() && !DocState::Draft.out_for_signature());
    }
}
