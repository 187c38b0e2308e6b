"""ASGI entry point: HTTP through Django, WebSockets through Channels (served by uvicorn)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_http = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from agents.routing import websocket_urlpatterns  # noqa: E402
from agents.ws_auth import OriginGuard, TokenOrSessionAuth  # noqa: E402
from finance.routing import websocket_urlpatterns as finance_websockets  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_http,
        "websocket": OriginGuard(
            TokenOrSessionAuth(URLRouter(websocket_urlpatterns + finance_websockets))
        ),
    }
)
