"""Signet's Python client: the generated API (`signet.api`, `signet.models`) with a thin layer
that makes it pleasant. See README.md."""

from . import api, models
from ._client import Signet
from ._errors import (
    Conflict,
    DependencyError,
    Forbidden,
    InvalidRequest,
    NotFound,
    RateLimited,
    SignetError,
    Timeout,
    Unauthenticated,
)
from ._paging import aeach, each, metadata
from ._version import SERVICE_VERSION, __version__
from ._webhooks import WebhookEvent, WebhookVerificationError, verify_webhook
from .client import AuthenticatedClient, Client
from .types import UNSET, Unset

__all__ = [
    "SERVICE_VERSION",
    "UNSET",
    "AuthenticatedClient",
    "Client",
    "Conflict",
    "DependencyError",
    "Forbidden",
    "InvalidRequest",
    "NotFound",
    "RateLimited",
    "Signet",
    "SignetError",
    "Timeout",
    "Unauthenticated",
    "Unset",
    "WebhookEvent",
    "WebhookVerificationError",
    "__version__",
    "aeach",
    "api",
    "each",
    "metadata",
    "models",
    "verify_webhook",
]
