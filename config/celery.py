"""The Celery app; its settings live in Django settings under the CELERY_ prefix."""

import os

from celery import Celery
from kombu import Queue

from config.queues import QUEUES

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("agentworks")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Every queue is declared, so a worker started without -Q (the embedded default's) consumes them
# all; kept here rather than in the settings, which then need no kombu at start-up.
app.conf.task_queues = [Queue(name) for name in QUEUES]
app.autodiscover_tasks()
