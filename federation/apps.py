from django.apps import AppConfig


class FederationConfig(AppConfig):
    """The federation server's side (issue 38): organisers' publishing keys, the files halls
    send, and the mirrored tournaments and club ratings the public pages show from them."""

    name = "federation"
