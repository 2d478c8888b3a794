from enum import StrEnum


class PaymentReadiness(StrEnum):
    CONNECTED = "connected"
    NEEDS_ATTENTION = "needs_attention"
    NOT_CONNECTED = "not_connected"

    def __str__(self) -> str:
        return str(self.value)
