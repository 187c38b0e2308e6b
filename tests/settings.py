"""Test settings: the app's own settings, on a throwaway var/ and with Celery tasks run inline."""

import os
import tempfile

os.environ.setdefault("VAR_DIR", tempfile.mkdtemp(prefix="agentworks-test-"))
os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "1")
# Rate limits count per user id and address in a cache that outlives each test's database (where
# ids repeat), so the suite as a whole would trip them; tests of the limits set their own rates.
for _name in (
    "THROTTLE_API_USER",
    "THROTTLE_API_ANON",
    "THROTTLE_RUN_CREATE",
    "THROTTLE_LOGIN",
    "THROTTLE_TOKEN_CREATE",
    "THROTTLE_SIGNUP",
):
    os.environ.setdefault(_name, "100000/minute")

from config.settings import *  # noqa: E402, F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Threads that serve WebSocket consumers keep no connection open past their query, so the test
# database can be dropped at the end of a PostgreSQL run.
DATABASES["default"]["CONN_MAX_AGE"] = 0  # noqa: F405
# Providers replay the recorded responses in ../shared/data/finance (SHARED_DATA overrides).
_shared_data = os.environ.get("SHARED_DATA", str(BASE_DIR.parent / "shared" / "data"))  # noqa: F405
FINANCE_RECORDED_DIR = os.path.join(_shared_data, "finance")
SEC_USER_AGENT = "AgentWorks tests tests@example.com"
