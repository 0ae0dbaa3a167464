from django.apps import AppConfig


class CoreConfig(AppConfig):
    """What every room shares and that imports no room: errors, roles, numbers, table helpers,
    and the commands that set the desk up (serve, compile_catalogues). No models."""

    name = "core"

    def ready(self):
        from core import tables

        tables.install()
