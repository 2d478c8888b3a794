//! The route table's rows for webhook endpoints, their deliveries and the relay.

use super::row::*;
use crate::handlers::webhooks;
use signet_webhooks::types::{
    DeliveryAttemptsOut, DeliveryOut, RelayOut, WebhookCreateIn, WebhookOut, WebhookPageOut,
    WebhookRotateIn, WebhookTestIn, WebhookTestOut,
};

pub static ROUTES: &[Route] = &[
    Route::get("/webhooks/topics", "v1.webhooks.topics", Access::Scope(Scope::WebhooksRead), webhooks::webhook_topics)
        .summary("The event names a webhook endpoint can subscribe to")
        .response(schema_of::<signet_webhooks::TopicsOut>),
    Route::get("/webhooks", "v1.webhooks.list", Access::Scope(Scope::WebhooksRead), webhooks::list)
        .summary("Webhook endpoints of the key's mode, newest first")
        .query(&[LIMIT, CURSOR])
        .response(schema_of::<WebhookPageOut>),
    Route::post("/webhooks", "v1.webhooks.create", Access::Scope(Scope::WebhooksWrite), webhooks::create)
        .summary("Add an endpoint: a public https URL, or a relay for signet listen; the secret is shown once")
        .idempotency(Idem::Optional)
        .request(schema_of::<WebhookCreateIn>)
        .response(schema_of::<WebhookOut>)
        .success(201)
        .body_limit(64 * 1024),
    Route::delete("/webhooks/{id}", "v1.webhooks.delete", Access::Scope(Scope::WebhooksWrite), webhooks::remove)
        .summary("Remove an endpoint: nothing more is delivered; past deliveries stay in the log")
        .response(schema_of::<WebhookOut>)
        .statuses(&[HOOK_NOT_FOUND]),
    Route::post("/webhooks/{id}/test", "v1.webhooks.test", Access::Scope(Scope::WebhooksWrite), webhooks::test)
        .summary("Send a signed sample event (test: true) at once and answer what the receiver said")
        .idempotency(Idem::Optional)
        .request(schema_of::<WebhookTestIn>)
        .response(schema_of::<WebhookTestOut>)
        .statuses(&[HOOK_NOT_FOUND])
        .body_limit(64 * 1024)
        .optional_body(),
    Route::post("/webhooks/{id}/rotate", "v1.webhooks.rotate", Access::Scope(Scope::WebhooksWrite), webhooks::rotate)
        .summary("A new secret, shown once; both secrets sign during the window")
        .idempotency(Idem::Optional)
        .request(schema_of::<WebhookRotateIn>)
        .response(schema_of::<WebhookOut>)
        .statuses(&[
            HOOK_NOT_FOUND,
            (409, "Rotated by another request at the same moment; retry."),
        ])
        .body_limit(64 * 1024)
        .optional_body(),
    Route::get("/webhooks/{id}/deliveries", "v1.webhooks.deliveries", Access::Scope(Scope::WebhooksRead), webhooks::deliveries)
        .summary("The last 50 delivery attempts, newest first")
        .response(schema_of::<DeliveryAttemptsOut>)
        .statuses(&[HOOK_NOT_FOUND]),
    Route::post("/webhooks/{id}/deliveries/{deliveryId}/replay", "v1.webhooks.replay", Access::Scope(Scope::WebhooksWrite), webhooks::replay)
        .summary("Deliver one event again, with the same webhook-id and body")
        .idempotency(Idem::Optional)
        .response(schema_of::<DeliveryOut>)
        .success(201)
        .statuses(&[
            (
                404,
                "No such endpoint or delivery, or one of the other mode than the key's.",
            ),
            (409, "The endpoint is disabled."),
        ])
        .body_limit(0),
    Route::get("/webhooks/{id}/relay", "v1.webhooks.relay", Access::Scope(Scope::WebhooksRead), webhooks::relay)
        .summary("Stored deliveries of a relay endpoint, oldest first, each with the exact headers to forward")
        .query(&[
            QueryParam {
                name: "after",
                ty: "string",
                description: "The id of the last delivery already handled; omit for the newest few.",
                range: None,
            },
            QueryParam {
                name: "wait",
                ty: "integer",
                description: "Seconds to wait when there is nothing yet: 0 to 25.",
                range: Some((0, 25)),
            },
            QueryParam {
                name: "limit",
                ty: "integer",
                description: "1 to 100; default 20.",
                range: Some((1, 100)),
            },
        ])
        .response(schema_of::<RelayOut>)
        .statuses(&[HOOK_NOT_FOUND]),
];
