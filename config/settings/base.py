"""Settings shared by every environment, read from the environment (django-environ).

Overlays: ``dev`` (``make run``: its own PostgreSQL server under ``var/`` and a serverless broker by
default), ``test`` (CI: PostgreSQL and Redis on 127.0.0.1) and ``prod`` (every secret from the
environment, no default). PostgreSQL is the only database engine, in every overlay.
``.env.example`` lists every variable.
"""

from datetime import timedelta
from email.utils import parseaddr
from pathlib import Path

import django_stubs_ext
import environ
from celery.schedules import crontab

from config.api_guide import API_GUIDE
from config.queues import MAIL, task_queues, task_routes

django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent.parent

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

# make run's data (its PostgreSQL server's files, the broker's folders, the demo logins): var/ unless
# ADMIRALTY_VAR_DIR names another folder (config/dev_database.py reads the same variable).
VAR_DIR = Path(env("ADMIRALTY_VAR_DIR", default=str(BASE_DIR / "var"))).resolve()

SECRET_KEY = env("DJANGO_SECRET_KEY", default="")
DEBUG = env.bool("DJANGO_DEBUG", default=False)
ALLOWED_HOSTS: list[str] = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost"])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "django_celery_beat",
    "axes",
    "ports",
    "fleets",
    "battles",
    "campaign",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Before anything that could refuse: a CORS preflight carries no credentials (config/api_edges.py).
    "config.api_edges.ApiCorsMiddleware",
    # A NUL anywhere in a request is a 400 before anything reads it (PostgreSQL refuses NUL in text).
    "config.middleware.NulByteGuardMiddleware",
    "config.middleware.ContentSecurityPolicyMiddleware",
    # Redis down (broker or cache) in a view: a 503 that says so, not a 500 (issue 27).
    "config.middleware.ServiceUnavailableMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "config.middleware.JSONBodyGuardMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "campaign.accounts.time_zone.TimezoneMiddleware",
    # Last, as django-axes asks: it turns a lockout raised during authentication into its page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# The database is PostgreSQL, always: each overlay says which server (dev: make run's own, under var/;
# test: 127.0.0.1; prod: DATABASE_URL, required). The product relies on PostgreSQL's row locks,
# advisory locks, JSON functions and triggers, so no other engine is supported.
#
# Persistent connections with health checks rather than Django's psycopg pool: a prefork worker child
# or a gunicorn worker handles one task or request at a time, so one connection per process is all it
# can use, and a pool per process would only multiply idle connections (each process holds at most
# one here: 4 workers × concurrency 2 + 5 web workers + beat = 14 connections of PostgreSQL's 100).
# Reusing the connection saves the connect on every request and task (measured on this 2-core machine
# under load: 8 ms to connect and run a query against 0.02 ms for a query on an open connection; more
# over a network); the health check replaces a connection that the server or a proxy dropped.
# Not for Django's development server, which starts a thread per request: a kept connection there is
# one more idle backend per request thread (config/settings/dev.py).
DATABASE_CONNECTION_SETTINGS = {
    "CONN_MAX_AGE": env.int("DATABASE_CONN_MAX_AGE", default=60),
    "CONN_HEALTH_CHECKS": True,
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Request bodies are bounded: no page or endpoint takes more than a campaign's orders need.
DATA_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024
DATA_UPLOAD_MAX_NUMBER_FIELDS = 1000
DATA_UPLOAD_MAX_NUMBER_FILES = 10
FILE_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024

# Scripts, styles sheets, images and requests only from the site itself; no inline script, no eval,
# no framing. style-src-attr allows the per-element colours of nations (style="background: …");
# style-src keeps 'unsafe-inline' only for browsers without CSP level 3's -elem/-attr split.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "style-src-elem 'self'",
        "style-src-attr 'unsafe-inline'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# The OpenAPI schema (/api/schema/) is public; its browsable docs (/api/docs/) are for logged-in users
# only, unless this is set (config.permissions.ApiDocsPermission reads it on every request).
API_DOCS_PUBLIC = env.bool("API_DOCS_PUBLIC", default=False)
# Web origins (e.g. https://dashboard.example.org) whose pages may call /api/ from a browser (CORS,
# config.api_edges.ApiCorsMiddleware); empty: no cross-origin calls.
API_CORS_ORIGINS = env.list("API_CORS_ORIGINS", default=[])

# Login throttling (django-axes) for the web login, the admin login and the API's Basic auth:
# after AXES_FAILURE_LIMIT failures from one address for one username, further logins of that username
# from there are refused with a 429 page until the cool-off has passed (a GM unlocks sooner in the admin).
AUTHENTICATION_BACKENDS = [
    "config.auth_backends.LoginThrottleBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=10)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("LOGIN_LOCKOUT_MINUTES", default=15))
# Per account and address: made-up usernames lock nothing real, and a client cannot lock out a user
# who logs in from elsewhere. An address is only slowed (LOGIN_ATTEMPTS_PER_ADDRESS, per minute).
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_CLIENT_IP_CALLABLE = "config.client_address.client_address"
LOGIN_ATTEMPTS_PER_ADDRESS = env("LOGIN_ATTEMPTS_PER_ADDRESS", default="60/minute")
# How many reverse proxies of ours stand in front of the server (config/client_address.py): 0 (the
# default) takes REMOTE_ADDR as the client; N takes the Nth address from the right of X-Forwarded-For.
TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=0)
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/lockout.html"
AXES_HTTP_RESPONSE_CODE = 429
AXES_VERBOSE = False

# Password-reset requests in an hour, per address asked for and per client address (config.accounts).
PASSWORD_RESET_PER_ADDRESS = env.int("PASSWORD_RESET_PER_ADDRESS", default=3)
PASSWORD_RESET_PER_CLIENT = env.int("PASSWORD_RESET_PER_CLIENT", default=10)

LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Files browsers ask for at the site's root (/favicon.ico, /manifest.webmanifest for "Add to home
# screen"), served by WhiteNoise under every settings module.
WHITENOISE_ROOT = BASE_DIR / "static" / "root"
WHITENOISE_MIMETYPES = {".webmanifest": "application/manifest+json"}
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# --- Mail --------------------------------------------------------------------------------------------
# EMAIL_URL (django-environ: smtp+tls://user:password@host:587, smtp+ssl://…, consolemail://)
# configures any SMTP provider in one variable; without it the EMAIL_* variables do.
_email_url: dict[str, object] = env.email_url("EMAIL_URL") if "EMAIL_URL" in env else {}
EMAIL_BACKEND = _email_url.get("EMAIL_BACKEND") or env(
    "EMAIL_BACKEND", default="django.core.mail.backends.smtp.EmailBackend"
)
EMAIL_HOST = _email_url.get("EMAIL_HOST") or env("EMAIL_HOST", default="localhost")
EMAIL_PORT = _email_url.get("EMAIL_PORT") or env.int("EMAIL_PORT", default=25)
EMAIL_HOST_USER = _email_url.get("EMAIL_HOST_USER") or env("EMAIL_HOST_USER", default="")
EMAIL_HOST_PASSWORD = _email_url.get("EMAIL_HOST_PASSWORD") or env("EMAIL_HOST_PASSWORD", default="")
EMAIL_USE_TLS = bool(_email_url.get("EMAIL_USE_TLS")) or env.bool("EMAIL_USE_TLS", default=False)
EMAIL_USE_SSL = bool(_email_url.get("EMAIL_USE_SSL")) or env.bool("EMAIL_USE_SSL", default=False)
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=30)
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", default="Admiralty <admiralty@localhost>")
SERVER_EMAIL = env("SERVER_EMAIL", default=DEFAULT_FROM_EMAIL)
# Who gets server errors (500s) by mail: "Name <address>, Name <address>".
ADMINS = [parseaddr(entry) for entry in env.list("DJANGO_ADMINS", default=[])]
# Absolute links in mail, invitations and printed links are built from this (the address players reach
# the site at). By default the development server's own address: make run serves on $PORT (8000).
SITE_URL = env("SITE_URL", default=f"http://127.0.0.1:{env.int('PORT', default=8000)}")
# Retries of a failed send wait MAIL_RETRY_BASE_SECONDS, then twice as long each time, up to
# MAIL_MAX_ATTEMPTS attempts: 60 s and 12 attempts keep trying for about 2.8 days.
MAIL_RETRY_BASE_SECONDS = env.float("MAIL_RETRY_BASE_SECONDS", default=60.0)
MAIL_MAX_ATTEMPTS = env.int("MAIL_MAX_ATTEMPTS", default=12)
# A worker's claim on a mail it is sending; a dead worker's mail is sent by the next sweep after it.
MAIL_SEND_LEASE_SECONDS = env.int("MAIL_SEND_LEASE_SECONDS", default=300)
MAIL_SWEEP_SECONDS = env.float("MAIL_SWEEP_SECONDS", default=60.0)
# The daily digest (for those who chose it) goes at this hour, UTC.
MAIL_DIGEST_HOUR = env.int("MAIL_DIGEST_HOUR", default=7)
# Webhooks (issue 30): a failed post is retried after WEBHOOK_RETRY_BASE_SECONDS, then twice as long each
# time, up to WEBHOOK_MAX_ATTEMPTS attempts (30 s and 10 attempts: about 4 hours); a hook failing
# WEBHOOK_MAX_FAILURES times in a row is switched off and its owner told by mail.
WEBHOOK_RETRY_BASE_SECONDS = env.float("WEBHOOK_RETRY_BASE_SECONDS", default=30.0)
WEBHOOK_MAX_ATTEMPTS = env.int("WEBHOOK_MAX_ATTEMPTS", default=10)
WEBHOOK_MAX_FAILURES = env.int("WEBHOOK_MAX_FAILURES", default=15)
WEBHOOK_SEND_LEASE_SECONDS = env.int("WEBHOOK_SEND_LEASE_SECONDS", default=120)
WEBHOOK_TIMEOUT_SECONDS = env.float("WEBHOOK_TIMEOUT_SECONDS", default=10.0)
# Whether a hook may post to a loopback, private or link-local address (campaign.webhooks.addresses):
# off here and so in production, where any player could otherwise have the server post into its own
# network; development and the tests turn it on (a receiver on one's own machine).
WEBHOOK_PRIVATE_ADDRESSES = env.bool("WEBHOOK_PRIVATE_ADDRESSES", default=False)

# The cache holds rate-limit counters (password reset), shared by every server process: Redis.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": env("CACHE_URL", default="redis://127.0.0.1:6379/1"),
        "KEY_PREFIX": "admiralty",
    }
}

# --- Celery ---------------------------------------------------------------------------------------
CELERY_BROKER_URL = env("CELERY_BROKER_URL", default="redis://127.0.0.1:6379/0")
CELERY_RESULT_BACKEND = env("CELERY_RESULT_BACKEND", default=CELERY_BROKER_URL)
CELERY_TASK_ACKS_LATE = True  # a worker killed mid-task leaves the message for another worker
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
# Turn work, battle work and mail on separate queues (config/queues.py); a worker started
# without -Q consumes all of them. The prefix gives sites sharing one Redis their own queues.
CELERY_QUEUE_PREFIX = env("CELERY_QUEUE_PREFIX", default="")
CELERY_TASK_QUEUES = task_queues(CELERY_QUEUE_PREFIX)
CELERY_TASK_ROUTES = task_routes(CELERY_QUEUE_PREFIX)
CELERY_TASK_DEFAULT_QUEUE = CELERY_TASK_QUEUES[0].name  # anything unrouted is turn work
# The queue every mail task is sent to (config/queues.py routes "*mail*" there too).
MAIL_QUEUE = CELERY_QUEUE_PREFIX + MAIL
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
# Deadlines live in the database; beat only sweeps for due turns (DESIGN.md "A turn").
TURN_SWEEP_SECONDS = env.float("TURN_SWEEP_SECONDS", default=15.0)
TURN_LEASE_SECONDS = env.int("TURN_LEASE_SECONDS", default=120)
# A resolution that fails with an error this many times waits for the GM's retry (admin, Turns).
TURN_MAX_ATTEMPTS = env.int("TURN_MAX_ATTEMPTS", default=5)
# How long the battle tasks of a turn may take before the sweep resumes the turn without them (the
# phase then fights whatever is left inline).
TURN_BATTLE_GRACE_SECONDS = env.int("TURN_BATTLE_GRACE_SECONDS", default=300)
# How many contested zones one battle task fights. One task a zone cost each battle its own
# transaction, turn lock and reads of the relations and table markings; four a task keeps a
# europe-1805 general war (16 zones) spread over four tasks, enough for two workers of two slots.
TURN_BATTLE_ZONES_PER_TASK = env.int("TURN_BATTLE_ZONES_PER_TASK", default=4)
CELERY_BEAT_SCHEDULE = {
    "turns-sweep": {"task": "campaign.turns_sweep", "schedule": TURN_SWEEP_SECONDS},
}
CELERY_BEAT_SCHEDULE["mail-sweep"] = {
    "task": "campaign.mail_sweep",
    "schedule": MAIL_SWEEP_SECONDS,
    "options": {"queue": MAIL_QUEUE},
}
# Webhook deliveries whose retry message was lost with the broker, or whose worker died mid-post.
CELERY_BEAT_SCHEDULE["webhooks-sweep"] = {
    "task": "campaign.webhooks_sweep",
    "schedule": MAIL_SWEEP_SECONDS,
    "options": {"queue": MAIL_QUEUE},
}
CELERY_BEAT_SCHEDULE["mail-digests"] = {
    "task": "campaign.mail_digests",
    "schedule": crontab(hour=MAIL_DIGEST_HOUR, minute=0),
    "options": {"queue": MAIL_QUEUE},
}
CELERY_BEAT_SCHEDULE["mail-reminders"] = {
    "task": "campaign.mail_reminders",
    "schedule": MAIL_SWEEP_SECONDS,
    "options": {"queue": MAIL_QUEUE},
}

# Bearer first: its challenge is the one a 401 carries (campaign.api.authentication).
# HTTP Basic (the player's password in every call) is on only where API_BASIC_AUTH is: not in production.
API_BASIC_AUTH = env.bool("API_BASIC_AUTH", default=True)
API_AUTHENTICATION_CLASSES: list[str] = [
    "campaign.api.authentication.BearerTokenAuthentication",
    "rest_framework.authentication.SessionAuthentication",
    *(["campaign.api.authentication.LockoutAwareBasicAuthentication"] if API_BASIC_AUTH else []),
]
REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": API_AUTHENTICATION_CLASSES,
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # JSON bounded in size and depth, with no NUL or unpaired surrogate in any string (issue 9).
    "DEFAULT_PARSER_CLASSES": [
        "config.parsers.StrictJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_PAGINATION_CLASS": "battles.api.pagination.StrictPageNumberPagination",
    "PAGE_SIZE": 50,
    # Every 4xx is RFC 9457 problem details (battles/api/problems.py); writes are throttled per user.
    "EXCEPTION_HANDLER": "battles.api.problems.problem_exception_handler",
    "DEFAULT_THROTTLE_CLASSES": ["config.api_throttles.ApiWriteThrottle"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
}
# Writes a user may make per period, by scope (config/api_throttles.py); reads are not throttled.
API_THROTTLE_RATES = {
    "api_write": env("API_WRITE_RATE", default="120/minute"),
    "simulator": env("API_SIMULATOR_RATE", default="30/minute"),
    # The web simulator's later chunks of a batch already counted (500 runs each; 10,000 runs = 20).
    "simulator_chunk": env("SIMULATOR_CHUNK_RATE", default="300/minute"),
}
SPECTACULAR_SETTINGS = {
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "battles.api.enum_names.name_enum_members",
        "campaign.api.authentication.document_unauthorized",
        "campaign.api.idempotency.document_idempotency",
        "battles.api.problems.document_problems",
        "battles.api.schema_shapes.typed_nullables",
        "battles.api.schema_shapes.strict_bodies",
        "battles.api.schema_shapes.declare_headers",
    ],
    "TITLE": "Admiralty API",
    "DESCRIPTION": API_GUIDE,
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "ShipClassEnum": "rules.ruleset.SHIP_CLASSES",
        "GradeEnum": "rules.ruleset.GRADES",
        "NavyEnum": "rules.ruleset.NAVIES",
        "BattleKindEnum": "battles.models.Battle.Kind",
        "BattleTypeEnum": "battles.engine.BATTLE_TYPES",
        "CampaignStatusEnum": "campaign.models.Campaign.Status",
        "OrderKindEnum": "campaign.models.Order.Kind",
        "WebhookEventEnum": "campaign.models.webhooks.WebhookEvent",
        "WebhookFormatEnum": "campaign.models.webhooks.WebhookFormat",
    },
}

# Server errors are mailed to ADMINS by a Celery task, limited, never for 4xx-class noise or deliberate
# 503s (config/error_mail.py), instead of Django's handler that sends inside the failing request.
ERROR_MAIL_RATES = {
    "kind": env("ERROR_MAIL_RATE_PER_KIND", default="3/hour"),
    "all": env("ERROR_MAIL_RATE", default="20/hour"),
}
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"require_debug_false": {"()": "django.utils.log.RequireDebugFalse"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler"},
        "mail_admins": {
            "level": "ERROR",
            "filters": ["require_debug_false"],
            "class": "config.error_mail.QueuedAdminEmailHandler",
        },
    },
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", default="INFO")},
    # Django's own records reach the console through the root; errors are also mailed (queued).
    "loggers": {"django": {"handlers": ["mail_admins"], "level": "INFO", "propagate": True}},
}

# --- Chromium -----------------------------------------------------------------------------------------
# The browser that prints battle packs to PDF (battles/tabletop/pdf.py) and that the browser tests drive.
# Debian's chromium-headless-shell when it is installed: the same engine as Debian's chromium without the
# browser's windowing and UI layers, and about half the CPU per page (the browser tests: 130 s of
# Chromium's CPU with /usr/bin/chromium, 64 s with the shell); otherwise Debian's chromium.
# Battle packs printed to PDF by a queued task: each user may start this many prints in the window.
PACK_PDF_PER_USER = env.int("PACK_PDF_PER_USER", default=6)
PACK_PDF_WINDOW_SECONDS = env.int("PACK_PDF_WINDOW_SECONDS", default=600)
CHROMIUM_PATH = env(
    "CHROMIUM_PATH",
    default=next(
        (path for path in ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium") if Path(path).exists()),
        "/usr/bin/chromium",
    ),
)
