"""Settings from environment variables, with embedded defaults.

Embedded (no DATABASE_URL, no REDIS_URL): SQLite file, in-memory channel layer, Celery tasks
run in-process. Production (CUBIC_ENV=production): SECRET_KEY required, secure cookies, HSTS.
Every variable is listed in docs/operating.md.
"""

from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()

PRODUCTION = env.str("CUBIC_ENV", default="development") == "production"
DEBUG = env.bool("DEBUG", default=False)

if PRODUCTION:
    SECRET_KEY = env.str("SECRET_KEY", default="")
    if len(SECRET_KEY) < 50:
        raise ImproperlyConfigured(
            "CUBIC_ENV=production needs SECRET_KEY: a random string of 50+ characters."
        )
    if DEBUG:
        raise ImproperlyConfigured("DEBUG must be off when CUBIC_ENV=production.")
else:
    # Development only: a fixed key so sessions survive restarts of `make run`.
    SECRET_KEY = env.str("SECRET_KEY", default="dev-only-" + "x" * 50)

ALLOWED_HOSTS = env.list(
    "ALLOWED_HOSTS", default=[] if PRODUCTION else ["127.0.0.1", "localhost", "[::1]", "testserver"]
)
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "accounts",
    "gameplay",
    "lobby",
    "kudos",
    "cards",
    "api",
    "arenas",
    "social",
    "cubiccards",
]

# Sign-ins give their pooled connection back across the password hash (accounts.backends);
# Django's own backend stays listed for the sessions it signed in.
AUTHENTICATION_BACKENDS = [
    "accounts.backends.SignInBackend",
    "django.contrib.auth.backends.ModelBackend",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "cubiccards.csp.ContentSecurityPolicy",  # every response: the site's own middleware
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",  # the language cookie, else Accept-Language
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "api.middleware.BearerTokens",  # a program's Authorization: Bearer (api.tokens)
    "accounts.middleware.language",  # the account's language, where it chose one
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "accounts.middleware.time_zone",
    "accounts.middleware.device_cookie",
    "kudos.middleware.ReferralCookieMiddleware",
    "cubiccards.errors.RedisUnavailable",
]

ROOT_URLCONF = "cubiccards.urls"
ASGI_APPLICATION = "cubiccards.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "cubiccards.templating.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "builtins": ["cubiccards.templating"],  # its {% extends %}
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.context_processors.player",
                "lobby.context_processors.your_table",
                "cards.context_processors.card_prefs",
                "kudos.context_processors.kudos",
            ],
        },
    },
]

# ---- database -------------------------------------------------------------------------------
if "DATABASE_URL" in env:
    DATABASES = {"default": env.db("DATABASE_URL")}
    # Connections come from a psycopg pool, one per process (daphne, each Celery worker
    # process, a test run), rather than persistent connections: under ASGI every
    # database_sync_to_async call may run on another thread, so per-thread persistent
    # connections multiply with the thread pool and are never closed when a thread idles,
    # while a pool keeps a bounded set open and hands one to whichever thread asks (Django
    # returns it to the pool at the end of each request or database_sync_to_async call).
    # Opening a PostgreSQL connection costs several milliseconds; taking one from the pool
    # costs microseconds. A connection that died (a database restart) is replaced as it
    # leaves the pool instead of failing a move: infra.database checks it only when the
    # database has closed it, so a move costs no extra round trip (Django's CONN_HEALTH_CHECKS
    # would query every connection taken).
    # The pool covers DB_THREADS (below) and the thread of the process's sync pages: each can
    # hold a connection at once.
    DATABASES["default"]["ENGINE"] = "infra.database"
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # required with a pool
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = False
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": env.int("DB_POOL_MIN", default=1),
        "max_size": env.int("DB_POOL_MAX", default=8),
        "timeout": 10,  # seconds to wait for a free connection before an error
        "max_idle": 300,  # close connections above min_size after 5 idle minutes
    }
    # Set explicitly: Channels' live-server tests otherwise open "test_test_<name>".
    # TEST_DB_SUFFIX lets two checkouts run their suites side by side on one server.
    DATABASES["default"]["TEST"] = {
        "NAME": "test_" + DATABASES["default"]["NAME"] + env.str("TEST_DB_SUFFIX", default="")
    }
else:
    sqlite_path = Path(env.str("SQLITE_PATH", default=str(BASE_DIR / "db.sqlite3")))
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": sqlite_path,
            "TEST": {"NAME": sqlite_path.with_name("test-" + sqlite_path.name)},
            # Several live tables write at once (people's moves, computer turns on other
            # threads). WAL lets readers go on while one writes; writers wait for each
            # other up to busy_timeout instead of failing at once; and IMMEDIATE takes the
            # write lock when a transaction begins, so two transactions that both read and
            # then write can't deadlock into "database is locked" (a deferred transaction
            # that must upgrade its read lock gets SQLITE_BUSY with no wait at all).
            "OPTIONS": {
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA busy_timeout=30000",
                "transaction_mode": "IMMEDIATE",
            },
        }
    }
# Threads a daphne process runs its table sockets' database calls on (lobby.consumers). They
# hide the database's waits, not use cores: every one takes the process's one GIL for its
# Python, so more threads contend more. At 500 tables 4 gave a lower p99 than 8 in 4 of 5
# alternating runs (bench/load.py, docs/performance.md), and 16 was worse than 8. SQLite takes
# one writer at a time anyway.
DB_THREADS = env.int("DB_THREADS", default=4)
# The common move is written from a daphne's event loop itself (infra.database.loop), on
# connections of the loop's own besides the pool: at most this many statements at once.
DB_LOOP_CONNECTIONS = env.int("DB_LOOP_CONNECTIONS", default=4)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# ---- Redis: channel layer, Celery broker, cache ----------------------------------------------
REDIS_URL = env.str("REDIS_URL", default="")

# redis-py 8 gives every connection a 5-second socket timeout unless told otherwise, and a
# read that times out kills its caller. channels_redis waits on Redis for up to 5 seconds
# (BZPOPMIN) for a socket's next message: with the default, an idle table socket's read races
# the timeout and loses on a busy machine ("Timeout reading from ..."), its consumer dies and
# the player is dropped (close code 1011). The layer's timeout is therefore well above the
# longest blocking read, so only a dead connection can reach it; health checks (a PING before
# a command on a connection idle that long) and TCP keepalive find dead connections sooner.
REDIS_SOCKET_TIMEOUT = (
    20  # seconds: 4x channels_redis' 5-second wait, so only a dead connection hits it
)
REDIS_HEALTH_CHECK = 15  # seconds idle before a connection is PINGed before use

if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "infra.layers.TableLayer",  # channels_redis, local members direct
            "CONFIG": {
                "hosts": [
                    {
                        "address": REDIS_URL,
                        # The defaults (capacity 100, pool of 100) drop and fail messages
                        # under load; at this cap a command waits for a connection
                        # (infra.layers._WaitingPool).
                        "max_connections": 1000,
                        "socket_timeout": REDIS_SOCKET_TIMEOUT,
                        "socket_connect_timeout": 5,
                        "socket_keepalive": True,
                        "health_check_interval": REDIS_HEALTH_CHECK,
                    }
                ],
                "capacity": 10000,
                "expiry": 60,
            },
        }
    }
    # The cache never blocks on Redis: its commands answer at once, so a short timeout
    # is only ever hit by a dead connection.
    CACHES = {
        "default": {
            "BACKEND": "infra.cache.RedisCache",  # one client per process
            "LOCATION": REDIS_URL,
            "OPTIONS": {
                "socket_timeout": 5,
                "socket_connect_timeout": 5,
                "health_check_interval": REDIS_HEALTH_CHECK,
            },
        }
    }
    # Read from the cache, kept in the database; Redis away falls back to the database.
    SESSION_ENGINE = "accounts.sessions"
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or None
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# The worker waits on the broker with BRPOP for 1 second at a time (kombu's brpop_timeout);
# kombu's own checks drop a BRPOP connection whose answer is overdue. The socket timeout is
# for publishes on a dead connection, far above any blocking read.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_timeout": REDIS_SOCKET_TIMEOUT,
    "socket_connect_timeout": 5,
    "socket_keepalive": True,
    "health_check_interval": REDIS_HEALTH_CHECK,
}
# Results: result.get() polls pub/sub with its own timeout per read; the socket timeout
# (Celery's default is 120 s) bounds the other commands on a dead connection.
CELERY_REDIS_SOCKET_TIMEOUT = REDIS_SOCKET_TIMEOUT
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = 5
CELERY_REDIS_BACKEND_HEALTH_CHECK_INTERVAL = REDIS_HEALTH_CHECK
CELERY_BEAT_SCHEDULE = {
    "sweep-stalled-games": {"task": "gameplay.sweep_stalled_games", "schedule": 10.0},
    "sweep-game-ends": {"task": "gameplay.sweep_game_ends", "schedule": 60.0},
    # The ranked queue's matcher (lobby.tasks.match_queue): windows widen and tables fill with
    # computer players as time passes, so it runs on a clock rather than per request.
    "match-ranked-queue": {"task": "lobby.match_queue", "schedule": 2.0},
}
CELERY_TIMEZONE = "UTC"
# Beat writes a heartbeat on each tick (cubiccards/heartbeat.py); it ticks at least this often.
CELERY_BEAT_SCHEDULER = "cubiccards.heartbeat:HeartbeatScheduler"
CELERY_BEAT_MAX_LOOP_INTERVAL = 5
# /healthz: a worker or beat heartbeat older than this (seconds) means that process is down.
# Workers beat every 2 s, beat at least every 5 s.
HEALTH_STALE_AFTER = env.float("HEALTH_STALE_AFTER", default=15.0)

# ---- Kudos ----------------------------------------------------------------------------------
# How often beat runs the streak upkeep and the weekly close (both idempotent: running often
# only makes them prompt, since players' midnights fall at every quarter hour of UTC).
KUDOS_BEAT_EVERY = env.float("KUDOS_BEAT_EVERY", default=300.0)
CELERY_BEAT_SCHEDULE |= {
    "kudos-keep-up-streaks": {"task": "kudos.keep_up_streaks", "schedule": KUDOS_BEAT_EVERY},
    "kudos-close-weeks": {"task": "kudos.close_weeks", "schedule": KUDOS_BEAT_EVERY},
    "kudos-announce-bonus-events": {"task": "kudos.announce_bonus_events", "schedule": 30.0},
    # The Daily Challenge: deals chosen a day ahead, each day closed (top times paid) after it.
    "kudos-choose-challenges": {"task": "kudos.choose_challenges", "schedule": KUDOS_BEAT_EVERY},
    "kudos-close-challenge-days": {
        "task": "kudos.close_challenge_days",
        "schedule": KUDOS_BEAT_EVERY,
    },
}
# Where accounts were used from is kept 30 days (accounts/sightings.py); pruned hourly.
CELERY_BEAT_SCHEDULE |= {
    "accounts-prune-sightings": {"task": "accounts.prune_sightings", "schedule": 3600.0},
}
# Tests of the whole stack move Kudos' clock through the cache (kudos/clock.py). Never in
# production.
KUDOS_TEST_CLOCK = env.bool("KUDOS_TEST_CLOCK", default=False)
if PRODUCTION and KUDOS_TEST_CLOCK:
    raise ImproperlyConfigured("KUDOS_TEST_CLOCK is for tests: it is refused in production.")

# ---- accounts -------------------------------------------------------------------------------
AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
SESSION_COOKIE_AGE = 60 * 60 * 24 * 60  # guests keep their name and room for 60 days

# Password reset mail: SMTP when EMAIL_HOST is set; otherwise written to EMAIL_FILE_PATH if
# set, or printed on the console.
if env.str("EMAIL_HOST", default=""):
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = env.str("EMAIL_HOST")
    EMAIL_PORT = env.int("EMAIL_PORT", default=587)
    EMAIL_HOST_USER = env.str("EMAIL_HOST_USER", default="")
    EMAIL_HOST_PASSWORD = env.str("EMAIL_HOST_PASSWORD", default="")
    EMAIL_USE_TLS = env.bool("EMAIL_USE_TLS", default=True)
elif env.str("EMAIL_FILE_PATH", default=""):
    EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    EMAIL_FILE_PATH = env.str("EMAIL_FILE_PATH")
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Cubic Cards <cards@localhost>")

# English is the source language; each app keeps its catalogue in its own locale/ (the site's
# templates in the root one). README: how to add a language.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("fr", "Français")]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 2 * 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# ---- static files ---------------------------------------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
WHITENOISE_USE_FINDERS = DEBUG
if not DEBUG:
    STORAGES = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
    if not PRODUCTION:
        # Outside production, serve straight from the source folders (no collectstatic needed).
        WHITENOISE_USE_FINDERS = True
        STORAGES["staticfiles"] = {
            "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        }

# ---- production hardening -------------------------------------------------------------------
if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    # A load balancer probes /healthz over plain HTTP and wants the answer, not a redirect.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True

# ---- the tables -----------------------------------------------------------------------------
BOT_DELAY = env.float("BOT_DELAY", default=1.0)  # seconds a computer player "thinks"
ECHO_SOCKET = env.bool("ECHO_SOCKET", default=False)  # bench/table_roundtrip.py's baseline
RECONNECT_GRACE = env.float("RECONNECT_GRACE", default=20.0)  # before a bot takes a lost seat
# Ranked tables: seconds in the queue before the computer fills the table; each person's turn
# timer; seconds away from a ranked table (no connection) before leaving it for good.
RANKED_FILL_AFTER = env.float("RANKED_FILL_AFTER", default=30.0)
# Quick play: computer players fill a casual table after this long (or at once on request).
QUICK_FILL_AFTER = env.float("QUICK_FILL_AFTER", default=60.0)
# Arenas: seconds a free player waits for people before being seated anyway (with whoever is
# free, or computer players); the schedule's step (create, start, close, finish) and pairing.
ARENA_FILL_AFTER = env.float("ARENA_FILL_AFTER", default=20.0)
# The arena socket rebuilds an arena's standings at most this often (seconds) per process.
ARENA_STANDINGS_EVERY = env.float("ARENA_STANDINGS_EVERY", default=1.0)
CELERY_BEAT_SCHEDULE |= {
    "arenas-advance": {"task": "arenas.advance", "schedule": 5.0},
    "arenas-pair": {"task": "arenas.pair", "schedule": 2.0},
}
RANKED_TURN_TIMER = env.int("RANKED_TURN_TIMER", default=30)
RANKED_FORFEIT = env.float("RANKED_FORFEIT", default=120.0)
# Presence: every PRESENCE_BEAT seconds a server process marks all its open table sockets alive
# (one write for all of them); a socket not heard from for PRESENCE_TTL (its process crashed or
# was killed) no longer counts, and beat sweeps every PRESENCE_SWEEP seconds. A table whose
# people have all been gone for ABANDON_AFTER ends.
PRESENCE_BEAT = env.float("PRESENCE_BEAT", default=10.0)
PRESENCE_TTL = env.float("PRESENCE_TTL", default=30.0)
PRESENCE_SWEEP = env.float("PRESENCE_SWEEP", default=5.0)
ABANDON_AFTER = env.float("ABANDON_AFTER", default=120.0)
CELERY_BEAT_SCHEDULE["sweep-presence"] = {
    "task": "lobby.sweep_presence",
    "schedule": PRESENCE_SWEEP,
}
# Messages a table socket may send a second (sustained, and in a burst); a person's table
# sockets together (and an address's) may ask for the state SYNC_RATE times a second.
SOCKET_RATE = env.float("SOCKET_RATE", default=8.0)
SOCKET_BURST = env.float("SOCKET_BURST", default=20.0)
SYNC_RATE = env.float("SYNC_RATE", default=4.0)
# Invitations to a table one person may send a minute (social.services.invite).
INVITATIONS_PER_MINUTE = env.int("INVITATIONS_PER_MINUTE", default=10)
# Requests (HTTP, and sockets opened) one access token may make a minute (api.tokens).
TOKEN_RATE = env.int("TOKEN_RATE", default=120)

# /metrics (infra/metrics.py) answers only requests with this token; unset, it is off.
METRICS_TOKEN = env.str("METRICS_TOKEN", default="")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"bare": {"format": "%(message)s"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler"},
        "lines": {"class": "logging.StreamHandler", "formatter": "bare"},
    },
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="WARNING")},
    "loggers": {
        # One JSON line per applied action (game, seq, seat, who, ms) with ACTION_LOG=INFO:
        # for looking closer. Off by default: every action is in the game's log in the
        # database and its time in the histogram, and the line cost a move about 8% of its CPU
        # (docs/performance.md).
        "cubiccards.actions": {
            "handlers": ["lines"],
            "level": env.str("ACTION_LOG", default="WARNING"),
            "propagate": False,
        }
    },
}
CSRF_FAILURE_VIEW = "cubiccards.errors.csrf_failure"

# WhiteNoise looks for STATIC_ROOT even when it serves from the source folders.
import warnings  # noqa: E402

warnings.filterwarnings("ignore", message="No directory at")
