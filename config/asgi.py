"""ASGI entry point: HTTP through Django, WebSockets through Channels (served by uvicorn)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_http = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from agents.routing import websocket_urlpatterns  # noqa: E402
from agents.ws_auth import OriginGuard, TokenOrSessionAuth  # noqa: E402
from config.body_limit import BodyLimitASGI  # noqa: E402
from finance.routing import websocket_urlpatterns as finance_websockets  # noqa: E402

application = ProtocolTypeRouter(
    {
        # uvicorn has no body limit: bodies over REQUEST_MAX_BODY_BYTES get 413 here, unread.
        "http": BodyLimitASGI(django_http),
        # Browser sockets must come from our own origin or a trusted one, in full (ws_auth.py).
        "websocket": OriginGuard(
            TokenOrSessionAuth(URLRouter(websocket_urlpatterns + finance_websockets))
        ),
    }
)
