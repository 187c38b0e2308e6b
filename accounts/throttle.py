"""A small fixed-window rate limiter on Django's cache, for the HTML forms DRF does not serve
(the login forms, sign-up, API token creation). Rates read like DRF's: "10/minute"."""

from __future__ import annotations

import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """(requests, seconds) from "10/minute"; (0, 0) for an empty rate, which means no limit."""
    if not rate:
        return 0, 0
    count, period = rate.split("/")
    return int(count), PERIODS[period.strip()[0].lower()]


def rate_limited(*, scope: str, key: str, rate: str) -> int:
    """Count one attempt; 0 if it is within the rate, else the seconds until the window ends."""
    limit, period = parse_rate(rate)
    if not limit:
        return 0
    now = time.time()
    window = int(now // period)
    cache_key = f"throttle:{scope}:{key}:{window}"
    cache.add(cache_key, 0, timeout=period + 1)
    try:
        count = cache.incr(cache_key)
    except ValueError:  # expired between add and incr: this is the window's first attempt
        cache.set(cache_key, 1, timeout=period + 1)
        count = 1
    if count <= limit:
        return 0
    return max(1, int(period - now % period))


def wait_message(seconds: int) -> str:
    wait = f"{seconds} seconds" if seconds < 120 else f"{round(seconds / 60)} minutes"
    return f"Too many attempts. Please wait {wait} and try again."


def login_wait(request: HttpRequest) -> int:
    """Count one login attempt, per address and per username (THROTTLE_LOGIN), whichever form
    it comes from (ours or the admin's); 0 if it may be tried, else the seconds to wait."""
    address = request.META.get("REMOTE_ADDR", "")
    username = str(request.POST.get("username", "")).strip().lower()[:150]
    return max(
        rate_limited(scope="login-address", key=address, rate=settings.THROTTLE_LOGIN),
        rate_limited(scope="login-user", key=username, rate=settings.THROTTLE_LOGIN),
    )
