from django.apps import AppConfig


class CoreConfig(AppConfig):
    """What every room shares and that imports no room: errors, roles, numbers, table helpers,
    the versioned entry a second person confirms (core.entries, an abstract model: no tables
    of its own), and the commands that set the desk up (serve, compile_catalogues)."""

    name = "core"

    def ready(self):
        from core import tables

        tables.install()
