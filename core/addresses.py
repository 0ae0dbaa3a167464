"""Addresses: this laptop's on the hall's network (`lan_address`, `hall_address`: what phones
and a standby desk open), and who sent a request: the address the login lockout counts (axes'
AXES_CLIENT_IP_CALLABLE on the federation server, config/settings.py).

On the federation server every request comes through the host's proxy (the app processes
listen on loopback only), which appends the address it was reached from to X-Forwarded-For: the
right-most entry is that one. Those to its left are whatever the client sent and prove nothing.
Without the header (a request on loopback, as scripts/federation serves): the socket's own.
"""

import socket

from django.http.request import split_domain_port


def client_address(request) -> str | None:
    """The address the host's proxy was reached from, else the socket's."""
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "").rsplit(",", 1)[-1].strip()
    return forwarded or request.META.get("REMOTE_ADDR")


def lan_address() -> str:
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the LAN interface
            return s.getsockname()[0]
    except OSError:
        return "127.0.0.1"


def hall_address(request) -> str:
    """The desk's address for the phones in the hall: as this request reached it, unless that
    is the laptop's own loopback (a director browsing http://localhost:8000, which no phone
    can open); then the LAN address `serve` announces, on the same port."""
    domain, port = split_domain_port(request.get_host())
    if domain in ("localhost", "[::1]") or domain.startswith("127."):
        return f"{request.scheme}://{lan_address()}" + (f":{port}" if port else "")
    return request.build_absolute_uri("/").rstrip("/")
