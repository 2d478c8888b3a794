// Payments through Stripe Connect (docs/payments.md): each workspace's connected account per
// mode with its readiness, one row per Checkout opened for a payment field, and the Stripe
// events already applied.
const UP: &str = r#"
CREATE TABLE payment_accounts (
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    mode TEXT NOT NULL,
    account_id TEXT NOT NULL,
    details_submitted BOOLEAN NOT NULL,
    charges_enabled BOOLEAN NOT NULL,
    due TEXT NOT NULL,
    disabled_reason TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (workspace_id, mode)
);
CREATE INDEX payment_accounts_account ON payment_accounts (account_id, mode);
CREATE TABLE payments (
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL,
    document_id TEXT NOT NULL,
    person_id TEXT NOT NULL,
    field_id TEXT NOT NULL,
    seat TEXT NOT NULL,
    mode TEXT NOT NULL,
    account_id TEXT NOT NULL,
    checkout_id TEXT,
    checkout_url TEXT,
    amount BIGINT NOT NULL,
    currency TEXT NOT NULL,
    fee BIGINT NOT NULL,
    description TEXT,
    inputs TEXT,
    status TEXT NOT NULL,
    payment_intent TEXT,
    charge_id TEXT,
    receipt_url TEXT,
    receipt_number TEXT,
    refunded BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    paid_at BIGINT,
    updated_at BIGINT NOT NULL
);
CREATE INDEX payments_document ON payments (document_id);
CREATE INDEX payments_field ON payments (person_id, field_id);
CREATE UNIQUE INDEX payments_one_open ON payments (person_id, field_id) WHERE status = 'open';
CREATE INDEX payments_intent ON payments (payment_intent);
CREATE TABLE stripe_events (
    id TEXT NOT NULL,
    mode TEXT NOT NULL,
    received_at BIGINT NOT NULL,
    PRIMARY KEY (id, mode)
);
CREATE INDEX stripe_events_age ON stripe_events (received_at)
"#;

const DOWN: &str = r#"
DROP TABLE stripe_events;
DROP TABLE payments;
DROP TABLE payment_accounts
"#;

plain_sql!("m0023_payments", UP, DOWN);
