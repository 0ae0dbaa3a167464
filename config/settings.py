"""Settings for the tournament desk.

Everything a hall needs is local: an SQLite file under the data folder (or PostgreSQL through
DATABASE_URL), a secret key generated on first start and kept in the data folder, static files
served by whitenoise. DEBUG is off unless DESK_DEBUG=1. DESK_HOSTED=1 makes the same code the
federation server (the last section: PostgreSQL and a shared cache required, the public pages
only, behind the host's TLS proxy).
"""

import os
import re
import secrets
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from seating.algorithms.swiss import BUDGET_SECONDS

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(os.environ.get("DESK_DATA_DIR", BASE_DIR / "data"))
DATA_DIR.mkdir(parents=True, exist_ok=True)


def _secret_key() -> str:
    """Read the key from the data folder, making one the first time (never committed). Made
    whole under another name and linked into place, which fails if it is there already: several
    processes starting at once on a new folder (the federation server's) all read one key.
    A standby desk that took over keeps the main desk's key (publishing.standby.take_secret):
    that one first, also over DESK_SECRET_KEY."""
    taken = DATA_DIR / "taken_secret_key"
    if taken.exists():
        return taken.read_text().strip()
    if os.environ.get("DESK_SECRET_KEY"):
        return os.environ["DESK_SECRET_KEY"]
    path = DATA_DIR / "secret_key"
    if not path.exists():
        making = DATA_DIR / f"secret_key.{os.getpid()}.{secrets.token_hex(4)}"
        making.write_text(secrets.token_urlsafe(50))
        making.chmod(0o600)
        try:
            os.link(making, path)
        except FileExistsError:
            pass
        finally:
            making.unlink()
    return path.read_text().strip()


SECRET_KEY = _secret_key()
DEBUG = os.environ.get("DESK_DEBUG") == "1"

# The laptop is reached by whatever address the hall's router gives it (IP, mDNS name, hostname),
# so every host is accepted; the desk is meant for a closed LAN, never the open internet.
ALLOWED_HOSTS = ["*"]

# The ground floor under the rooms: the mahjong itself in plain Python, not a Django app. It
# imports only the standard library, and every room may import it.
GROUND = "mahjong"
# The project's own packages, in dependency order: each imports only those before it (desk,
# public, sheet, archive and printing not each other); see the docs/development/layout.md, "How the
# code is laid out".
ROOMS = (
    "core",
    "people",
    "tournament",
    "seating",
    "scoring",
    "club",
    "referee",
    "desk",
    "public",
    "sheet",
    "archive",
    "printing",
    # Level 8 (issue 38): above the rooms they publish and mirror; never each other.
    "publishing",
    "federation",
)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_tables2",
    "simple_history",
    "axes",
    *ROOMS,
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Visitors' public pages from a per-revision cache, before sessions and auth (issue 7 load).
    "public.cache.PublicPageCache",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # The page's tournament's time zone (its slug in the address), for every time typed or shown.
    "tournament.middleware.TournamentZone",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # An upload past settings.UPLOAD_LIMIT is refused before anything reads its body (CSRF reads
    # it later, in its process_view); after the authentication, so the page shows who is in.
    "core.uploads.UploadLimit",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    # Last, as axes asks: it turns a lockout found during authentication into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "core.context.roles",
                "federation.context.federation",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{DATA_DIR / 'desk.sqlite3'}",
        conn_max_age=60,
    )
}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # WAL lets the public pages read while the desk writes; the timeout waits out a writer.
    # synchronous=FULL: in WAL mode NORMAL may lose the last commits at a power cut, FULL keeps
    # every save the desk acknowledged (benchmarks/durability.py: about 10 ms a commit).
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;",
        "transaction_mode": "IMMEDIATE",
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The federation server (issue 38): the same code, hosting the mirrors of many halls'
# tournaments and club ratings, turned on by DESK_HOSTED=1. Its settings are in the last section
# of this file; the few above it that need to know read this.
DESK_HOSTED = os.environ.get("DESK_HOSTED") == "1"

# Backups (archive.backups): a tournament file after every change, in DATA_DIR/backups/<slug>/;
# the newest DESK_BACKUPS_KEEP stay (and the newest of each session), at most one file every
# DESK_BACKUP_INTERVAL seconds per tournament, written by a background thread. Not on the
# federation server (DESK_BACKUP_ON_CHANGE=0 by default there): its mirrors are copies, and the
# hall that sends them keeps the backups.
DESK_BACKUP_ON_CHANGE = os.environ.get("DESK_BACKUP_ON_CHANGE", "0" if DESK_HOSTED else "1") == "1"
DESK_BACKUP_DIR = Path(os.environ.get("DESK_BACKUP_DIR", DATA_DIR / "backups"))
DESK_BACKUPS_KEEP = int(os.environ.get("DESK_BACKUPS_KEEP", "50"))
DESK_BACKUP_INTERVAL = float(os.environ.get("DESK_BACKUP_INTERVAL", "5"))
BACKUP_THREAD = True

# Balanced seating plans search in a background thread while the desk keeps serving.
SEATING_PLAN_THREAD = True

# Swiss seating stops at its step counts; this many seconds is only a safety cap against a
# pathological field (seating.algorithms.swiss). None: no cap (the tests' settings).
SWISS_SECONDS = BUDGET_SECONDS

CACHES = {
    "default": {
        # LocMemCache bounded by its bytes too (core.cache): the pages of revisions nobody asks
        # for any more go first, so the server's memory stays flat through a session (#39).
        "BACKEND": "core.cache.BoundedLocMemCache",
        "LOCATION": "desk",
        "TIMEOUT": 3600,
        # Room for every public page of a 200-player field in a few languages (public.cache).
        "OPTIONS": {"MAX_ENTRIES": 3000, "MAX_BYTES": 64 * 2**20},
    }
}
# A cache several processes share (the federation server's app processes; a hall may use one
# too): Redis or Valkey at DESK_CACHE_URL, redis://HOST:PORT/DB (rediss:// with TLS, or
# unix:///path/to/socket?db=0), through django-redis. Every process then keeps and forgets the
# same public pages (public.cache) and counts the same throttles.
DESK_CACHE_URL = os.environ.get("DESK_CACHE_URL", "")
if DESK_CACHE_URL:
    if not DESK_CACHE_URL.startswith(("redis://", "rediss://", "unix://")):
        raise ImproperlyConfigured(
            "DESK_CACHE_URL must be the address of a Redis or Valkey server, "
            "redis://HOST:PORT/DB (or rediss://, unix://), not "
            f"'{DESK_CACHE_URL.split('://', 1)[0]}://…'."
        )
    CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": DESK_CACHE_URL,
            "TIMEOUT": 3600,
            "OPTIONS": {"CLIENT_CLASS": "django_redis.client.DefaultClient"},
        }
    }

# Axes first: it refuses a locked-out login before the password is even checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

# Login lockout. Five wrong passwords for one user name from one device lock that pair for
# 15 minutes. By user name and address together, not either alone: by name alone, anyone on the
# hall's Wi-Fi could lock the director out of every device by typing "director" five times; by
# address alone, one desk user's typos would lock the shared desk laptop for everyone. Unlock
# early with `manage.py axes_reset_username <name>` (or the admin's Access attempts).
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# The wait runs from the last wrong password; tries during the lockout do not restart it.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_HTTP_RESPONSE_CODE = 429

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "desk:home"
LOGOUT_REDIRECT_URL = "public:home"
# The table page a table's link opens (seating.keys.table_path), named here as the login page is
# above: seating sits below the sheet and names none of its pages itself.
TABLE_PAGE_URL = "sheet:table"

LANGUAGE_CODE = "en"
# Each language in its own name, as a switcher shows them.
LANGUAGES = [("en", "English"), ("ru", "Русский"), ("uk", "Українська"), ("pl", "Polski")]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600  # a browser keeps its language for a year
FORMAT_MODULE_PATH = ["config.formats"]
LOCALE_PATHS = [BASE_DIR / "locale"]


def _laptop_zone() -> str:
    """The laptop's own time zone (Debian: /etc/timezone, or where /etc/localtime points)."""
    try:
        name = Path("/etc/timezone").read_text().strip()
        if name:
            return name
    except OSError:
        pass
    target = os.path.realpath("/etc/localtime")
    return target.split("zoneinfo/", 1)[1] if "zoneinfo/" in target else "UTC"


def _hosts(text: str, https: bool) -> tuple[list[str], list[str]]:
    """DESK_HOSTS, comma separated ("results.example.org, .example.net, localhost:8100"): the
    names the federation server answers to (a leading dot: the domain and every name under it;
    no port there) and the origins whose forms it takes (with the port, if one is given)."""
    names, origins = [], []
    scheme = "https" if https else "http"
    for host in (part.strip() for part in text.split(",")):
        if not host:
            continue
        found = re.fullmatch(r"(\[[0-9a-fA-F:.]+\]|[^\s:/\[\]]+)(:\d+)?", host)
        if found is None:
            raise ImproperlyConfigured(
                f"DESK_HOSTS: '{host}' is not a host name, NAME or NAME:PORT (comma separated)."
            )
        names.append(found[1])
        origins.append(f"{scheme}://{'*' + host if host.startswith('.') else host}")
    return names, origins


# The default of a new tournament's time zone (each tournament has its own, on its edit page):
# DESK_TIME_ZONE, else the laptop's.
TIME_ZONE = os.environ.get("DESK_TIME_ZONE") or _laptop_zone()
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATIC_ROOT.mkdir(exist_ok=True)
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
# Serve straight from the app folders too, so a missed collectstatic never breaks the hall.
WHITENOISE_USE_FINDERS = True

DJANGO_TABLES2_TEMPLATE = "django_tables2/table.html"

# A login lasts one tournament day and ends by the next morning. It survives the browser being
# closed: a referee's phone drops its tabs all the time and must not log them out mid-session.
SESSION_COOKIE_AGE = 14 * 60 * 60
SESSION_EXPIRE_AT_BROWSER_CLOSE = False
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
# The pages' scripts post the form's own hidden token and never read the cookie.
CSRF_COOKIE_HTTPONLY = True
CSRF_COOKIE_SAMESITE = "Lax"
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
# No HTTPS settings (HSTS, SSL redirect, secure cookies): the hall's LAN serves plain HTTP, and
# `check --deploy` keeps warning about exactly those four
# (tests/integration/config/test_security.py).

# The one limit of an upload (issue 34): a request's whole body, and what a workbook's parts
# unpack to. Refused before the body is read (core.uploads.UploadLimit); Django's own two
# settings below follow it (DATA_... leaves files out; FILE_... only picks memory or disk).
UPLOAD_LIMIT = 10 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = UPLOAD_LIMIT
DATA_UPLOAD_MAX_MEMORY_SIZE = UPLOAD_LIMIT

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"refusals": {"()": "core.logs.RefusalsWithoutTraceback"}},
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {"django.request": {"filters": ["refusals"]}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}


# --- The federation server (DESK_HOSTED=1, issue 38) -------------------------------------------
# Many halls' tournaments and club ratings, mirrored, on the internet: PostgreSQL (required),
# the shared cache (DESK_CACHE_URL, required), any number of identical gunicorn processes
# (config/gunicorn.py) on loopback behind the host's proxy, which ends TLS. Only the public
# pages, /federation/, the login and the admin are served (config/urls_hosted.py); the static
# files as in the hall (whitenoise). docs/running/federation.md.
if DESK_HOSTED:
    if DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        given = os.environ.get("DATABASE_URL", "")
        raise ImproperlyConfigured(
            "DESK_HOSTED=1 (the federation server) needs PostgreSQL, but DATABASE_URL "
            + (f"names '{given.split(':', 1)[0]}'" if given else "is not set")
            + ": set it to postgres://USER:PASSWORD@HOST:PORT/NAME."
        )
    # A database restarted (or failed over) under running processes: each checks its kept
    # connection before a request rather than failing that request.
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    if not DESK_CACHE_URL:
        raise ImproperlyConfigured(
            "DESK_HOSTED=1 (the federation server) needs a cache its app processes share, so "
            "that they forget a changed page together: set DESK_CACHE_URL to "
            "redis://HOST:PORT/0 (Redis or Valkey)."
        )
    ROOT_URLCONF = "config.urls_hosted"
    # A mirror's tournament is a copy of the hall's, replaced whole by each file the hall sends:
    # its history (who entered and confirmed what, and when) is the hall's, which the public
    # file leaves out. Recording every replaced row as deleted cost a 400-player mirror about
    # 3 s of CPU per file (delete 3.5-4.5 s -> 1.2 s, create 1.2-1.6 s -> 0.9 s; issue 38).
    # The federation room's own models (keys, mirrors) keep their times in their own fields.
    SIMPLE_HISTORY_ENABLED = False
    # An organiser logs in to their keys: the desk is not served here.
    LOGIN_REDIRECT_URL = "/federation/"

    # The host's proxy ends TLS and says so in X-Forwarded-Proto; the app processes listen on
    # loopback only, so nobody else can send that header (deploy/).
    DESK_HTTPS = os.environ.get("DESK_HTTPS") == "1"
    ALLOWED_HOSTS, CSRF_TRUSTED_ORIGINS = _hosts(
        os.environ.get("DESK_HOSTS", "127.0.0.1,localhost"), DESK_HTTPS
    )
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    if DESK_HTTPS:
        SESSION_COOKIE_SECURE = True
        CSRF_COOKIE_SECURE = True
        LANGUAGE_COOKIE_SECURE = True
    # The lockout counts each visitor's own address: the one the proxy appended to
    # X-Forwarded-For, not the proxy's (every request's REMOTE_ADDR here).
    AXES_CLIENT_IP_CALLABLE = "core.addresses.client_address"
