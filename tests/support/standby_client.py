"""The main desk's standby stream in one process (publishing.sender, docs/features/standby.md):
`ClientSender` posts through Django's test client to this same desk's /api/standby/ instead of
a socket, and `feed` sends a standby on this desk the newest full files of everything, as a
main desk would, so that one database can play both laptops up to the take-over."""

from urllib.parse import urlsplit

from django.test import Client
from django.utils import timezone

from club.models import Club
from publishing import sender, spool
from publishing.models import Publication
from tournament.models import Tournament


class ClientSender(sender.Sender):
    """The standby sender, posting through the test client."""

    def __init__(self, client: Client | None = None):
        super().__init__(sender.STANDBY)
        self.client = client or Client()
        self.sent = []  # (headers, content) of every request

    def post(self, url, content, headers):
        self.sent.append((dict(headers), content))
        extra = {k: v for k, v in headers.items() if k != "Content-Type"}
        response = self.client.generic(
            "POST",
            urlsplit(url).path,
            content,
            content_type=headers["Content-Type"],
            headers=extra,
        )
        return response.status_code, response.json()


def feed(standby, revision: int, client: Client | None = None) -> list[tuple[str, str, int]]:
    """Send the standby `standby` (publishing.models.Standby, on this desk) revision `revision`
    of every tournament's and club's full file and of the accounts, signed and sealed as the
    main desk's sender sends them. Returns (kind, slug, status) of each."""
    one = ClientSender(client)
    what = [(sender.DESK, sender.DESK_SLUG)]
    what += [
        (sender.TOURNAMENT, slug) for slug in Tournament.objects.values_list("slug", flat=True)
    ]
    what += [(sender.CLUB, slug) for slug in Club.objects.values_list("slug", flat=True)]
    answers = []
    for kind, slug in what:
        publication = Publication(
            target=sender.STANDBY, kind=kind, slug=slug, url="http://testserver", key=standby.key
        )
        text = sender.full_text(kind, slug)
        spooled = spool.Spooled(
            revision, timezone.now().isoformat(), spool.digest_of(text), spool.pack(text)
        )
        status, _answer = one.request(publication, spooled, body=True)
        answers.append((kind, slug, status))
    return answers
