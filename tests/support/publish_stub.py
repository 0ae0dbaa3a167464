"""A federation server's /api/publish/ as docs/features/federation.md says,
in a thread of this process
(the standard library's http.server), for the hall's sender to talk to: it checks the key and
the signature (core.signed), unpacks and reads the body, keeps the newest revision per key and
records every request it got. With `standby=True` it is a standby desk's /api/standby/
(docs/features/standby.md) instead: the slug signed with the kind, the body sealed, the newest
revision kept per key, kind and slug."""

import gzip
import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from core import signed


@dataclass
class Received:
    path: str
    headers: dict
    body: bytes  # as sent (gzip; sealed gzip to a standby), b"" for a heartbeat
    status: int  # what the stub answered
    packed: bytes = b""  # the gzip inside (the body itself but to a standby)

    @property
    def data(self):
        return json.loads(gzip.decompress(self.packed or self.body)) if self.body else None


@dataclass
class Stub:
    secrets: dict  # key id -> secret
    revoked: set = field(default_factory=set)  # key ids answered 403
    have: dict = field(default_factory=dict)  # key id -> newest revision held
    received: list = field(default_factory=list)
    refuse_with: int | None = None  # answer every request with this status (500, 400 …)
    down: bool = False  # hang up without an answer (the hall's internet is down)
    standby: bool = False  # a standby desk's /api/standby/
    server: ThreadingHTTPServer | None = None

    @property
    def url(self):
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def uploads(self):
        return [r for r in self.received if r.body]

    def answer(self, handler) -> tuple[int, dict]:
        headers = handler.headers
        length = int(headers.get("Content-Length") or 0)
        body = handler.rfile.read(length) if length else b""
        key_id = headers.get(signed.KEY, "")
        kind = headers.get(signed.KIND, "")
        try:
            revision = int(headers.get(signed.REVISION, ""))
        except ValueError:
            return 400, {"have": 0, "error": "X-Desk-Revision: not a number"}
        received = Received(handler.path, dict(headers), body, 0)
        status, answer = self._decide(key_id, kind, revision, received, headers)
        received.status = status
        self.received.append(received)
        return status, answer

    def _decide(self, key_id, kind, revision, received, headers):
        body = received.body
        secret = self.secrets.get(key_id)
        held = key_id
        signs = kind
        if self.standby:
            slug = headers.get(signed.SLUG, "")
            held, signs = (key_id, kind, slug), signed.standby_kind(kind, slug)
        if secret is None or not signed.signed_by(
            secret, signs, revision, body, headers.get(signed.SIGNATURE)
        ):
            return 401, {"error": "no such key, or the signature does not match"}
        if key_id in self.revoked:
            return 403, {"error": "revoked"}
        have = self.have.get(held, 0)
        if self.refuse_with:
            return self.refuse_with, {"have": have, "error": "refused by the test"}
        if not body:
            return 200, {"have": have}
        if revision < have:
            return 409, {"have": have, "error": f"revision {revision} is older than {have}"}
        try:
            received.packed = signed.unseal(secret, body) if self.standby else b""
            json.loads(gzip.decompress(received.packed or body))
        except (OSError, ValueError):
            return 400, {"have": have, "error": "body: not gzip-compressed JSON"}
        self.have[held] = revision
        return 200, {"have": revision}


def start(secrets: dict, standby: bool = False) -> Stub:
    stub = Stub(secrets=dict(secrets), standby=standby)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802
            if stub.down:
                self.close_connection = True
                return
            status, answer = stub.answer(self)
            content = json.dumps(answer).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(content)))
            self.end_headers()
            self.wfile.write(content)

        def log_message(self, *args):
            pass

    stub.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=stub.server.serve_forever, daemon=True).start()
    return stub


def stop(stub: Stub) -> None:
    stub.server.shutdown()
    stub.server.server_close()
