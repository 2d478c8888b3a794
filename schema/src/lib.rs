#![doc = include_str!("../README.md")]

mod ai;
mod developers;
mod documents;
mod email;
mod embedded;
pub mod guard;
mod people;
mod plays;
mod settings;
mod templates;
#[path = "webhooks.rs"]
mod webhooks_gql;
mod who;

use async_graphql::{Context, ErrorExtensions, MergedObject, MergedSubscription, Object, Schema};
use signet_accounts::teams::TeamsOut;
use signet_accounts::usage::UsageOut;
use signet_accounts::{reports, teams, usage};
use signet_core::Ctx;
use signet_payments::accounts as payments;
use signet_payments::{PaymentsConnectOut, PaymentsStatusOut};
use signet_webhooks as webhooks;
use signet_webhooks::TopicsOut;

use who::who;

pub type SignetSchema = Schema<Query, Mutation, Subscription>;

pub fn build(ctx: Ctx) -> SignetSchema {
    Schema::build(
        Query::default(),
        Mutation::default(),
        Subscription::default(),
    )
    .data(ctx)
    .data(guard::KeyOperations::default())
    .data(guard::KeySockets::default())
    .extension(guard::Guard)
    .limit_depth(guard::MAX_DEPTH)
    .limit_complexity(guard::MAX_COMPLEXITY)
    .limit_recursive_depth(guard::MAX_NESTING)
    .limit_directives(guard::MAX_DIRECTIVES)
    .finish()
}

/// The SDL, as committed in `schema.graphql`.
pub fn sdl() -> String {
    Schema::build(
        Query::default(),
        Mutation::default(),
        Subscription::default(),
    )
    .finish()
    .sdl()
}

#[derive(MergedObject, Default)]
pub struct Query(
    AccountQuery,
    WebhooksQuery,
    documents::DocumentsQuery,
    webhooks_gql::WebhookEndpointsQuery,
    email::EmailQuery,
    templates::TemplatesQuery,
    people::PeopleQuery,
    developers::DevelopersQuery,
    settings::SettingsQuery,
    plays::PlaysQuery,
    ai::AiQuery,
);

#[derive(MergedObject, Default)]
pub struct Mutation(
    documents::DocumentsMutation,
    webhooks_gql::WebhooksMutation,
    email::EmailMutation,
    templates::TemplatesMutation,
    people::PeopleMutation,
    developers::DevelopersMutation,
    settings::SettingsMutation,
    settings::TeamsMutation,
    plays::PlaysMutation,
    ai::AiMutation,
    embedded::EmbeddedMutation,
    PaymentsMutation,
);

#[derive(MergedSubscription, Default)]
pub struct Subscription(documents::DocumentsSubscription);

#[derive(Default)]
pub struct AccountQuery;

#[Object]
impl AccountQuery {
    /// Documents sent this month and emails sent today, with the plan's allowances (account:read).
    async fn usage(&self, ctx: &Context<'_>) -> async_graphql::Result<UsageOut> {
        let (c, a) = who(ctx)?;
        usage::get(c, a).await.map_err(|e| e.extend())
    }

    /// Real documents sent and completed over a window of days in the workspace's time zone,
    /// in all or by team (reports:read). Dates are YYYY-MM-DD; `to` is included; the default
    /// window is the last 30 days.
    async fn report(
        &self,
        ctx: &Context<'_>,
        from: Option<String>,
        to: Option<String>,
        team: Option<String>,
    ) -> async_graphql::Result<reports::ReportOut> {
        let (c, a) = who(ctx)?;
        reports::get(c, a, reports::ReportIn { from, to, team })
            .await
            .map_err(|e| e.extend())
    }

    /// Teams of the workspace and their members (people:read).
    async fn teams(&self, ctx: &Context<'_>) -> async_graphql::Result<TeamsOut> {
        let (c, a) = who(ctx)?;
        teams::list(c, a).await.map_err(|e| e.extend())
    }

    /// Whether the workspace can collect payments (money:read).
    async fn payments_status(&self, ctx: &Context<'_>) -> async_graphql::Result<PaymentsStatusOut> {
        let (c, a) = who(ctx)?;
        payments::status(c, a).await.map_err(|e| e.extend())
    }
}

#[derive(Default)]
pub struct PaymentsMutation;

#[Object]
impl PaymentsMutation {
    /// A link to the processor's onboarding for the workspace's own account of this mode,
    /// made on first use (money:write: owners and admins).
    async fn connect_payments(
        &self,
        ctx: &Context<'_>,
    ) -> async_graphql::Result<PaymentsConnectOut> {
        let (c, a) = who(ctx)?;
        payments::connect(c, a).await.map_err(|e| e.extend())
    }

    /// The workspace forgets its account of this mode (money:write); the account stays its
    /// own at the processor.
    async fn disconnect_payments(
        &self,
        ctx: &Context<'_>,
    ) -> async_graphql::Result<PaymentsStatusOut> {
        let (c, a) = who(ctx)?;
        payments::disconnect(c, a).await.map_err(|e| e.extend())
    }
}

#[derive(Default)]
pub struct WebhooksQuery;

#[Object]
impl WebhooksQuery {
    /// The event names a webhook endpoint can subscribe to (webhooks:read).
    async fn webhook_topics(&self, ctx: &Context<'_>) -> async_graphql::Result<TopicsOut> {
        let (_, a) = who(ctx)?;
        webhooks::topics(a).map_err(|e| e.extend())
    }
}
