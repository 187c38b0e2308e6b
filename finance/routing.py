"""WebSocket routes of the finance app (added to config/asgi.py's router)."""

from django.urls import path

from finance.consumers import DocumentProgressConsumer

websocket_urlpatterns = [
    path(
        "ws/finance/workspaces/<int:workspace_id>/documents/",
        DocumentProgressConsumer.as_asgi(),
    )
]
