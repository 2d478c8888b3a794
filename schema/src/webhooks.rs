//! Webhooks over GraphQL: the same resolvers as `/api/v1/webhooks`.

use async_graphql::{Context, ErrorExtensions, Object};
use signet_webhooks::{self as webhooks, types::*};

use crate::who::who;

#[derive(Default)]
pub struct WebhookEndpointsQuery;

#[Object]
impl WebhookEndpointsQuery {
    /// Webhook endpoints of the key's mode, newest first (webhooks:read).
    async fn webhooks(
        &self,
        ctx: &Context<'_>,
        limit: Option<i64>,
        cursor: Option<String>,
    ) -> async_graphql::Result<WebhookPageOut> {
        let (c, a) = who(ctx)?;
        webhooks::list(c, a, limit, cursor)
            .await
            .map_err(|e| e.extend())
    }

    /// The last 50 delivery attempts of an endpoint, newest first (webhooks:read).
    async fn webhook_deliveries(
        &self,
        ctx: &Context<'_>,
        id: String,
    ) -> async_graphql::Result<DeliveryAttemptsOut> {
        let (c, a) = who(ctx)?;
        webhooks::deliveries(c, a, &id)
            .await
            .map_err(|e| e.extend())
    }

    /// Stored deliveries of a relay endpoint, oldest first (webhooks:read); waits up to
    /// `wait` seconds (25 at most) when there is nothing after `after`.
    async fn webhook_relay(
        &self,
        ctx: &Context<'_>,
        id: String,
        after: Option<String>,
        wait: Option<i64>,
        limit: Option<i64>,
    ) -> async_graphql::Result<RelayOut> {
        let (c, a) = who(ctx)?;
        webhooks::relay(c, a, &id, after, wait, limit)
            .await
            .map_err(|e| e.extend())
    }
}

#[derive(Default)]
pub struct WebhooksMutation;

#[Object]
impl WebhooksMutation {
    /// Adds an endpoint (webhooks:write); `input` is the body of POST /api/v1/webhooks. The
    /// answer carries the secret, shown this once.
    async fn create_webhook(
        &self,
        ctx: &Context<'_>,
        input: signet_webhooks::types::WebhookCreateIn,
    ) -> async_graphql::Result<WebhookOut> {
        let (c, a) = who(ctx)?;
        let body = input;
        webhooks::create(c, a, body, None)
            .await
            .map(|m| m.out)
            .map_err(|e| e.extend())
    }

    /// Removes an endpoint (webhooks:write); its delivery log stays readable.
    async fn delete_webhook(
        &self,
        ctx: &Context<'_>,
        id: String,
    ) -> async_graphql::Result<WebhookOut> {
        let (c, a) = who(ctx)?;
        webhooks::delete(c, a, &id).await.map_err(|e| e.extend())
    }

    /// Sends a signed sample event at once (webhooks:write).
    async fn test_webhook(
        &self,
        ctx: &Context<'_>,
        id: String,
        topic: Option<String>,
    ) -> async_graphql::Result<WebhookTestOut> {
        let (c, a) = who(ctx)?;
        webhooks::test_send(c, a, &id, WebhookTestIn { topic })
            .await
            .map_err(|e| e.extend())
    }

    /// A new secret, shown once; the old one signs too for `windowHours` (default 24).
    async fn rotate_webhook_secret(
        &self,
        ctx: &Context<'_>,
        id: String,
        window_hours: Option<i64>,
    ) -> async_graphql::Result<WebhookOut> {
        let (c, a) = who(ctx)?;
        webhooks::rotate(c, a, &id, WebhookRotateIn { window_hours }, None)
            .await
            .map(|m| m.out)
            .map_err(|e| e.extend())
    }

    /// Delivers one event again with the same `webhook-id` (webhooks:write).
    async fn replay_webhook_delivery(
        &self,
        ctx: &Context<'_>,
        id: String,
        delivery_id: String,
    ) -> async_graphql::Result<DeliveryOut> {
        let (c, a) = who(ctx)?;
        webhooks::replay(c, a, &id, &delivery_id)
            .await
            .map_err(|e| e.extend())
    }
}
