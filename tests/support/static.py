"""WhiteNoise for the test settings: the static files are listed once per test process.

The desk lists its static files when its middleware starts (WhiteNoise, with the finders on):
once per server process in the hall. In the tests every `Client` starts the middleware anew, so
the listing (about 300 files, each stat'ed and its headers made) was repeated for each client:
about a fifth of the integration run. This subclass keeps what each listing found, by folder and
prefix, and gives every later middleware the same entries. The static files do not change while
the tests run, so what a request is served is exactly what the hall's middleware serves."""

from whitenoise.middleware import WhiteNoiseMiddleware

# (kind, folder or URL prefix) -> {url: WhiteNoise's entry for the file}
LISTED: dict[tuple[str, str, str | None], dict] = {}


class ListedOnce(WhiteNoiseMiddleware):
    def add_files(self, root, prefix=None):
        self._listed(
            ("root", str(root), prefix), lambda: super(ListedOnce, self).add_files(root, prefix)
        )

    def add_files_from_finders(self):
        self._listed(("finders", self.static_prefix, None), super().add_files_from_finders)

    def _listed(self, key, listing) -> None:
        if key not in LISTED:
            kept, self.files = self.files, {}
            try:
                listing()
                LISTED[key] = self.files
            finally:
                self.files = kept
        self.files.update(LISTED[key])
