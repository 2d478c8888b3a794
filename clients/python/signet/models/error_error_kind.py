from enum import StrEnum


class ErrorErrorKind(StrEnum):
    CONFLICT = "conflict"
    DEPENDENCY = "dependency"
    FORBIDDEN = "forbidden"
    INVALID = "invalid"
    NOT_FOUND = "not_found"
    RATE_LIMITED = "rate_limited"
    TIMEOUT = "timeout"
    UNAUTHENTICATED = "unauthenticated"

    def __str__(self) -> str:
        return str(self.value)
