"""The Celery app, configured from Django settings (every ``CELERY_*`` setting).

Embedded default: no REDIS_URL, so tasks run eagerly in the web process. With REDIS_URL set,
Redis is the broker and result backend and a real worker (``celery -A dustdevils worker``) runs
the tasks.
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dustdevils.settings")

app = Celery("dustdevils")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
