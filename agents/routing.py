from django.urls import path

from agents.consumers import RunEventsConsumer

websocket_urlpatterns = [path("ws/runs/<int:run_id>/", RunEventsConsumer.as_asgi())]
