"""Who sent a request: the address the login lockout counts (axes' AXES_CLIENT_IP_CALLABLE on
the federation server, config/settings.py).

On the federation server every request comes through the host's proxy (the app processes
listen on loopback only), which appends the address it was reached from to X-Forwarded-For: the
right-most entry is that one. Those to its left are whatever the client sent and prove nothing.
Without the header (a request on loopback, as scripts/federation serves): the socket's own.
"""


def client_address(request) -> str | None:
    """The address the host's proxy was reached from, else the socket's."""
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "").rsplit(",", 1)[-1].strip()
    return forwarded or request.META.get("REMOTE_ADDR")
