//! The eight kinds of email and the closed set of variables each accepts. A variable of
//! another kind, or one no kind has, is refused where wording is saved or previewed.

use signet_core::DomainError;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Invitation,
    Reminder,
    Completed,
    Declined,
    Voided,
    Expired,
    Code,
    Receipt,
}

const COMMON: [&str; 4] = [
    "document.title",
    "person.name",
    "sender.name",
    "workspace.name",
];

impl Kind {
    pub const ALL: [Kind; 8] = [
        Kind::Invitation,
        Kind::Reminder,
        Kind::Completed,
        Kind::Declined,
        Kind::Voided,
        Kind::Expired,
        Kind::Code,
        Kind::Receipt,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Invitation => "invitation",
            Kind::Reminder => "reminder",
            Kind::Completed => "completed",
            Kind::Declined => "declined",
            Kind::Voided => "voided",
            Kind::Expired => "expired",
            Kind::Code => "code",
            Kind::Receipt => "receipt",
        }
    }

    pub fn parse(s: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.as_str() == s)
    }

    /// `parse` for a request's `kind`, naming the field and the kinds there are.
    pub fn parse_field(field: &str, s: &str) -> Result<Kind, DomainError> {
        Kind::parse(s).ok_or_else(|| {
            DomainError::invalid(
                field,
                format!(
                    "unknown email kind '{s}'; one of {}",
                    Kind::ALL.map(Kind::as_str).join(", ")
                ),
            )
        })
    }

    /// The variables wording of this kind may use, common ones first.
    pub fn variables(self) -> Vec<&'static str> {
        let own: &[&str] = match self {
            Kind::Invitation | Kind::Reminder => {
                &["document.message", "document.expiresAt", "action.url"]
            }
            Kind::Completed => &["document.completedAt"],
            Kind::Declined => &["decliner.name", "decline.reason"],
            Kind::Voided => &["void.reason"],
            Kind::Expired => &[],
            Kind::Code => &["code.value", "code.minutes"],
            Kind::Receipt => &[
                "payment.amount",
                "payment.description",
                "payment.paidAt",
                "action.url",
            ],
        };
        COMMON.iter().chain(own).copied().collect()
    }

    /// The variable as this kind knows it (its `'static` name), if this kind accepts it.
    pub fn variable(self, name: &str) -> Option<&'static str> {
        self.variables().into_iter().find(|v| *v == name)
    }

    /// Whether the email asks its reader to act on a link of their own (the button).
    pub fn has_action(self) -> bool {
        matches!(self, Kind::Invitation | Kind::Reminder | Kind::Receipt)
    }

    /// What each variable holds, for the wording's documentation and the GraphQL answer.
    pub fn describe(variable: &str) -> &'static str {
        match variable {
            "document.title" => "The document's title.",
            "person.name" => "The name of the person the email goes to.",
            "sender.name" => {
                "Who sent the document: the document's senderName, else the workspace's name."
            }
            "workspace.name" => "The workspace's name.",
            "document.message" => {
                "The sender's message of the document (email.message or send.message)."
            }
            "document.expiresAt" => {
                "The last day to sign, written the way the email's language writes dates."
            }
            "action.url" => "The person's own link (signing link, or receipt).",
            "document.completedAt" => "The day everyone had signed.",
            "decliner.name" => "The name of the person who declined.",
            "decline.reason" => "The reason they gave.",
            "void.reason" => "The reason the sender gave for cancelling.",
            "code.value" => "The one-time code.",
            "code.minutes" => "How many minutes the code works for.",
            "payment.amount" => "The amount paid, with its currency.",
            "payment.description" => "What the payment was for.",
            "payment.paidAt" => "The day of the payment.",
            _ => "",
        }
    }
}
