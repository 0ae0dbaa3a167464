"""The log's filters (settings.LOGGING)."""

import logging


class RefusalsWithoutTraceback(logging.Filter):
    """A refused request (a 4xx: no such page, no role for it, a stale form) keeps its one
    warning line but not the traceback Django attaches to a PermissionDenied: a referee opening
    a desk page is no fault of the desk, and the director should not read it as one."""

    def filter(self, record: logging.LogRecord) -> bool:
        if 400 <= getattr(record, "status_code", 0) < 500:
            record.exc_info = None
            record.exc_text = None
        return True
