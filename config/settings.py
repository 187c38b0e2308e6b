"""Settings, read from the environment; every value has an embedded default that needs no server.

See `.env.example` for the variables and README "Configuration" for what each one changes.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured

from config.env import env_bool, env_float, env_list, env_str, secret_key
from config.queues import AGENTS

django_stubs_ext.monkeypatch()  # lets admin and forms classes take type parameters

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("VAR_DIR", str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)
# Prometheus metrics shared by every process of this deployment (web, workers): one file per
# process here, added up by /metrics. Set before anything imports prometheus_client.
os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", str(VAR_DIR / "prometheus"))
Path(os.environ["PROMETHEUS_MULTIPROC_DIR"]).mkdir(parents=True, exist_ok=True)
# /metrics is open with DEBUG; otherwise it needs a staff session or this bearer token.
METRICS_TOKEN = env_str("METRICS_TOKEN")

SECRET_KEY = secret_key(VAR_DIR)
DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1],testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

# --- HTTPS and cookies (README "Production settings") -------------------------------------------
# On by default once the site is served under a real name: DEBUG off and ALLOWED_HOSTS naming
# hosts other than loopback ones (and not "*", which is the compose quick start on plain http).
# HTTPS=0 turns it all off (a proxy that terminates TLS and talks http to us still wants it on).
_LOCAL_HOSTS = {"127.0.0.1", "localhost", "[::1]", "testserver"}
HTTPS = env_bool(
    "HTTPS", not DEBUG and "*" not in ALLOWED_HOSTS and not set(ALLOWED_HOSTS) <= _LOCAL_HOSTS
)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", HTTPS)
# Probes and the metrics scrape talk plain http to the pod itself, not through the proxy.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$", r"^metrics$"]
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = int(env_str("SECURE_HSTS_SECONDS", "31536000" if HTTPS else "0"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", HTTPS)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", HTTPS)
# The proxy in front (nginx, a load balancer) says the original scheme in X-Forwarded-Proto.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_REFERRER_POLICY = "same-origin"
# Browser WebSockets must come from the socket's own origin (scheme, host and port) or from one of
# these full origins or CSRF_TRUSTED_ORIGINS, compared as Django's CSRF check compares them:
# `https://app.example.com`, `https://*.example.com` for subdomains (agents/ws_auth.py).
WS_ALLOWED_ORIGINS = env_list("WS_ALLOWED_ORIGINS")
# An open socket re-checks its token or session this often; revoked or ended closes it (4401).
WS_AUTH_RECHECK_SECONDS = env_float("WS_AUTH_RECHECK_SECONDS", 5.0)
for _origin in (*WS_ALLOWED_ORIGINS, *CSRF_TRUSTED_ORIGINS):
    if "://" not in _origin:  # a bare host name once meant any scheme and port: another site
        raise ImproperlyConfigured(
            f"WS_ALLOWED_ORIGINS and CSRF_TRUSTED_ORIGINS take origins with their scheme "
            f"(https://{_origin}), not {_origin!r}"
        )

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "accounts",
    "agents",
    "studio",
    "finance",
]

MIDDLEWARE = [
    # /healthz and /readyz answer probes that come with any Host, over http (config/health.py)
    "config.health.HealthCheckMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "config.body_limit.BodyLimitMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "agents.log_context.LogContextMiddleware",  # the user and a request id on the request's logs
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
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
            ]
        },
    }
]

# --- database: SQLite in var/ unless DATABASE_URL says otherwise --------------------------------
DATABASES: dict[str, Any] = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL") or f"sqlite:///{VAR_DIR / 'db.sqlite3'}", conn_max_age=60
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets the web process read while the worker writes; IMMEDIATE transactions take the
    # write lock up front, so concurrent writers wait (timeout) instead of failing to upgrade.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 30,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "workspace-list"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

# --- static files and storage ------------------------------------------------------------------
STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "staticfiles"
STATIC_ROOT.mkdir(exist_ok=True)
WHITENOISE_USE_FINDERS = True  # serve straight from static/ without a collectstatic step
MEDIA_ROOT = VAR_DIR / "media"
MEDIA_URL = "/media/"

STORAGE_BUCKET = env_str("STORAGE_BUCKET")
# How long a download's presigned URL (S3 storage) stays valid.
STORAGE_PRESIGNED_SECONDS = int(env_str("STORAGE_PRESIGNED_SECONDS", "300"))
_default_storage: dict[str, Any] = {"BACKEND": "django.core.files.storage.FileSystemStorage"}
if STORAGE_BUCKET:
    _default_storage = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": STORAGE_BUCKET,
            "endpoint_url": env_str("STORAGE_ENDPOINT_URL") or None,
            "access_key": env_str("STORAGE_ACCESS_KEY") or None,
            "secret_key": env_str("STORAGE_SECRET_KEY") or None,
            "region_name": env_str("STORAGE_REGION") or None,
            "default_acl": None,
            "querystring_auth": True,
            "querystring_expire": STORAGE_PRESIGNED_SECONDS,
            "signature_version": "s3v4",  # presigned URLs that every region and MinIO accept
        },
    }
STORAGES = {
    "default": _default_storage,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# --- REST API ----------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.BearerTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "config.api_errors.ErrorDocumentingSchema",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "config.api_errors.exception_handler",
    # JSON nested past JSON_MAX_DEPTH is a 400, not a RecursionError (config/json_parser.py).
    "DEFAULT_PARSER_CLASSES": [
        "config.json_parser.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "UNAUTHENTICATED_USER": None,
    # Per caller: a user (token or session) by id, anyone else by address; 429 past the rate.
    "DEFAULT_THROTTLE_CLASSES": [
        "rest_framework.throttling.UserRateThrottle",
        "rest_framework.throttling.AnonRateThrottle",
        "rest_framework.throttling.ScopedRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "user": env_str("THROTTLE_API_USER", "600/minute"),
        "anon": env_str("THROTTLE_API_ANON", "60/minute"),
        "run_create": env_str("THROTTLE_RUN_CREATE", "30/minute"),
    },
    "NUM_PROXIES": int(env_str("NUM_PROXIES", "0")) or None,
}
# The HTML login form and API token creation, per address (and per username for the login).
# Arrays and objects nested deeper than this in a JSON body or socket message are refused (400).
JSON_MAX_DEPTH = int(env_str("JSON_MAX_DEPTH", "64"))
THROTTLE_LOGIN = env_str("THROTTLE_LOGIN", "10/minute")
THROTTLE_TOKEN_CREATE = env_str("THROTTLE_TOKEN_CREATE", "10/hour")
THROTTLE_SIGNUP = env_str("THROTTLE_SIGNUP", "10/hour")  # sign-up attempts per address

# --- limits and quotas (README "Limits and quotas"); a quota of 0 means unlimited --------------
QUOTA_CONCURRENT_RUNS = int(env_str("QUOTA_CONCURRENT_RUNS", "5"))
QUOTA_RUNS_PER_HOUR = int(env_str("QUOTA_RUNS_PER_HOUR", "120"))
QUOTA_TOKENS_PER_RUN = int(env_str("QUOTA_TOKENS_PER_RUN", "1000000"))
QUOTA_STORED_BYTES = int(env_str("QUOTA_STORED_BYTES", str(5 * 2**30)))
# A request body larger than this is refused (413) before it is read: by Content-Length, and by
# counting the bytes as they stream in (config/body_limit.py, in Django and in front of it).
REQUEST_MAX_BODY_BYTES = int(env_str("REQUEST_MAX_BODY_BYTES", str(64 * 2**20)))
# Forms and JSON bodies stay small; files past 2.5 MB stream to a temporary file, not to memory.
DATA_UPLOAD_MAX_MEMORY_SIZE = int(env_str("DATA_UPLOAD_MAX_MEMORY_SIZE", str(5 * 2**20)))
FILE_UPLOAD_MAX_MEMORY_SIZE = int(env_str("FILE_UPLOAD_MAX_MEMORY_SIZE", str(int(2.5 * 2**20))))
FILE_UPLOAD_HANDLERS = [
    "config.body_limit.BodyLimitUploadHandler",
    "django.core.files.uploadhandler.MemoryFileUploadHandler",
    "django.core.files.uploadhandler.TemporaryFileUploadHandler",
]
SPECTACULAR_SETTINGS = {
    "TITLE": "Agentworks API",
    "DESCRIPTION": "Create workspaces, start agent runs and follow their events.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # Swagger UI from the app's own static files: the docs page works offline.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# --- Redis, channel layer ----------------------------------------------------------------------
REDIS_URL = env_str("REDIS_URL")
CHANNEL_LAYER_KIND = env_str("CHANNEL_LAYER", "pubsub")
if REDIS_URL and CHANNEL_LAYER_KIND == "pubsub":
    # Pub/sub fans a run's events out to all of a process's sockets at once (see
    # config/channel_layer.py); it keeps no backlog, so the event log covers what a socket missed.
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "config.channel_layer.FanOutRedisChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL]},
        }
    }
elif REDIS_URL:
    # The list-based layer. capacity: a slow consumer may fall 1000 events behind before the layer
    # drops the oldest (consumers fill gaps from the event log). max_connections: one pool per
    # process, sized below redis-py's async default cap of 100 connections.
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "config.channel_layer.BlockingPoolRedisChannelLayer",
            "CONFIG": {
                "hosts": [
                    {
                        "address": REDIS_URL,
                        "max_connections": int(env_str("REDIS_MAX_CONNECTIONS", "50")),
                    }
                ],
                "capacity": 1000,
                "expiry": 60,
                "group_expiry": 24 * 3600,
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# Whether workers push events through the channel layer (only a shared layer reaches the web
# processes). Without it, consumers tail the event log at EVENTS_POLL_SECONDS.
EVENTS_PUSH = bool(REDIS_URL)
EVENTS_POLL_SECONDS = env_float("EVENTS_POLL_SECONDS", 2.0 if REDIS_URL else 0.2)

# --- Celery ------------------------------------------------------------------------------------
_broker_dir = VAR_DIR / "broker"
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL") or REDIS_URL or "filesystem://"
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, Any] = {}
if CELERY_BROKER_URL.startswith("filesystem://"):
    _broker_dir.mkdir(parents=True, exist_ok=True)
    # kombu's filesystem transport with whole-file writes and claims: its own can hand a worker
    # a half-written message, which kills the worker (see config/embedded_broker.py).
    CELERY_BROKER_TRANSPORT = "config.embedded_broker:Transport"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir),
        "data_folder_out": str(_broker_dir),
        # kombu's default is ./control, relative to whatever directory the process started in
        "control_folder": str(_broker_dir / "control"),
        "polling_interval": 0.1,
    }
elif CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    # Longer than any slice (seconds) so a live slice is never delivered twice; a dead worker's
    # run is picked up sooner than this by the lease sweeper anyway.
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 300}
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
# Every task is bounded: past the soft limit the task stops and says so (a run ends failed with
# reason `time_limit`, a document is marked failed); the hard limit kills what ignores it.
CELERY_TASK_SOFT_TIME_LIMIT = env_float("CELERY_TASK_SOFT_TIME_LIMIT", 600.0)
CELERY_TASK_TIME_LIMIT = env_float("CELERY_TASK_TIME_LIMIT", 660.0)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
# One queue per kind of work (see config/queues.py): a worker without -Q consumes all of them (the
# embedded default); a deployment runs a group of workers per queue and scales each on its own.
CELERY_TASK_DEFAULT_QUEUE = AGENTS
CELERY_TASK_ROUTES = ("config.queues.route_task",)

# --- agent runs --------------------------------------------------------------------------------
AGENT_SLICE_UNITS = int(env_str("AGENT_SLICE_UNITS", "32"))
AGENT_SLICE_SECONDS = env_float("AGENT_SLICE_SECONDS", 5.0)
AGENT_LEASE_SECONDS = env_float("AGENT_LEASE_SECONDS", 30.0)
AGENT_SWEEP_SECONDS = env_float("AGENT_SWEEP_SECONDS", 10.0)
# A run nobody holds is re-enqueued only this long after its last enqueue (a lost message, not a
# busy queue); a run whose lease expired is re-enqueued at the next sweep.
AGENT_REQUEUE_SECONDS = env_float("AGENT_REQUEUE_SECONDS", 300.0)
# Workers a person's runs hold while another person's run waits for one (agents/services/
# fair_share.py; 0: no limit), and how long a slice that steps aside waits before it is sent again.
AGENT_SLICES_PER_USER = int(env_str("AGENT_SLICES_PER_USER", "1"))
AGENT_YIELD_SECONDS = env_float("AGENT_YIELD_SECONDS", 1.0)
# Wall-clock limit of one tool call (a tool may set its own); past it the call becomes an error
# result the policy sees. Enforced with SIGALRM in a worker's main thread; 0 means no limit.
AGENT_TOOL_TIMEOUT_SECONDS = env_float("AGENT_TOOL_TIMEOUT_SECONDS", 120.0)
# Artifact files no row records (a worker killed between storing a unit's files and committing
# the unit) are removed once older than AGENT_ORPHAN_FILE_SECONDS, by one worker's sweeper at
# most every AGENT_JANITOR_SECONDS (or by `manage.py remove_orphan_files`).
AGENT_ORPHAN_FILE_SECONDS = env_float("AGENT_ORPHAN_FILE_SECONDS", 3600.0)
AGENT_JANITOR_SECONDS = env_float("AGENT_JANITOR_SECONDS", 3600.0)
AGENT_PLUGINS = env_list("AGENT_PLUGINS")
# `run_python` (agents.sandbox): the agent's code runs under bubblewrap, no network, one writable
# session directory; without a usable bwrap the tool says it is disabled and runs nothing.
SANDBOX_BWRAP = env_str("SANDBOX_BWRAP", "/usr/bin/bwrap")
SANDBOX_TIMEOUT_SECONDS = env_float("SANDBOX_TIMEOUT_SECONDS", 60.0)
SANDBOX_CPU_SECONDS = int(env_str("SANDBOX_CPU_SECONDS", "60"))
SANDBOX_MEMORY_MB = int(env_str("SANDBOX_MEMORY_MB", "2048"))
SANDBOX_MAX_PROCESSES = int(env_str("SANDBOX_MAX_PROCESSES", "64"))
SANDBOX_MAX_FILE_MB = int(env_str("SANDBOX_MAX_FILE_MB", "64"))
SANDBOX_MAX_OPEN_FILES = int(env_str("SANDBOX_MAX_OPEN_FILES", "256"))
SANDBOX_TMP_MB = int(env_str("SANDBOX_TMP_MB", "64"))
SANDBOX_OUTPUT_CHARS = int(env_str("SANDBOX_OUTPUT_CHARS", "8000"))
# Sandboxes running at once on this host, counted with lock files in SANDBOX_SLOTS_DIR (default: a
# folder in the temp directory) by every process; past it run_python answers "busy". 0: no cap.
SANDBOX_MAX_CONCURRENT = int(env_str("SANDBOX_MAX_CONCURRENT", "4"))
SANDBOX_SLOTS_DIR = env_str("SANDBOX_SLOTS_DIR", "")
# Each run gets a memory cgroup (SANDBOX_MEMORY_MB for all it holds: processes, memfd files, /tmp)
# made under SANDBOX_CGROUP (a delegated cgroup v2 directory; default: this process's own cgroup,
# or the v1 memory hierarchy). Where none can be made the sandbox is disabled, unless
# SANDBOX_REQUIRE_CGROUP=false (then memfd files and /tmp are bounded per file only).
SANDBOX_REQUIRE_CGROUP = env_bool("SANDBOX_REQUIRE_CGROUP", True)
SANDBOX_CGROUP = env_str("SANDBOX_CGROUP", "")

# --- model server (OpenAI-compatible); without MODEL_BASE_URL the offline planner is used ---------
MODEL_BASE_URL = env_str("MODEL_BASE_URL")
MODEL_NAME = env_str("MODEL_NAME")
MODEL_API_KEY = env_str("MODEL_API_KEY", "EMPTY")
MODEL_TOOL_MODE = env_str("MODEL_TOOL_MODE", "native")  # or "prompt" for servers without tools
MODEL_CONNECT_TIMEOUT = env_float("MODEL_CONNECT_TIMEOUT", 5.0)
MODEL_READ_TIMEOUT = env_float("MODEL_READ_TIMEOUT", 120.0)
MODEL_MAX_RETRIES = int(env_str("MODEL_MAX_RETRIES", "5"))
# Tokens a model reply may use; a reply cut at this limit ends the run failed, saying so.
MODEL_MAX_TOKENS = int(env_str("MODEL_MAX_TOKENS", "2048"))

# Web, worker and consumer log through one handler: JSON lines (LOG_FORMAT=json, the default
# without DEBUG) or readable text (the default with DEBUG); see config/log_format.py.
LOG_FORMAT = env_str("LOG_FORMAT", "text" if DEBUG else "json")
if LOG_FORMAT not in ("json", "text"):
    raise ImproperlyConfigured(f"LOG_FORMAT must be json or text, not {LOG_FORMAT!r}")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "json": {"()": "config.log_format.JsonFormatter"},
        "text": {"()": "config.log_format.TextFormatter"},
    },
    "filters": {
        # The run, user, request, step and tool the line is about (agents/runtime/log_context.py).
        "log_context": {"()": "agents.runtime.log_context.LogContext"},
        # Every handler redacts secrets (keys, tokens, `api_key=` query parameters) from its lines.
        "redact_secrets": {"()": "config.log_redaction.RedactSecrets"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": LOG_FORMAT,
            "filters": ["log_context", "redact_secrets"],
        }
    },
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        "httpx": {"level": "WARNING"},
        "httpx2": {"level": "WARNING"},
        # uvicorn writes through its own handlers; these send its lines through ours instead.
        "uvicorn": {"handlers": [], "propagate": True},
        "uvicorn.access": {"handlers": [], "propagate": True},
    },
}

# Finance data providers
# SEC asks every client for a User-Agent naming a person and a contact e-mail; FRED needs a key.
# FINANCE_RECORDED_DIR set: providers replay recorded responses from that folder (no network).
SEC_USER_AGENT = env_str("SEC_USER_AGENT")
FRED_API_KEY = env_str("FRED_API_KEY")
FINANCE_RECORDED_DIR = env_str("FINANCE_RECORDED_DIR")
FINANCE_CACHE_ALIAS = env_str("FINANCE_CACHE_ALIAS", "default")
# What one person's documents, pages and scene edits may cost, and ingestion's bookkeeping.
from config.work_bounds import *  # noqa: E402, F403

# Provider responses are cached in Django's cache: Redis when there is one; otherwise files under
# var/ (no service, and shared by the web and worker processes, so one companyfacts download
# serves both for its TTL).
CACHES: dict[str, dict[str, Any]]
if REDIS_URL:
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(VAR_DIR / "cache" / "django"),
            "OPTIONS": {"MAX_ENTRIES": 2000},
        }
    }
