"""WSGI entry point, served by waitress in the hall (core/management/commands/serve.py) and by
gunicorn on the federation server (config/gunicorn.py)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()
