"""ASGI entry point: ``uvicorn dustdevils.asgi:application`` — Django's stock handler.

The embedded default (``make run``) serves everything with it; in production it serves only
the live streams (``*/stream/``), and gunicorn (``dustdevils.wsgi``) the pages and moves.
"""

from __future__ import annotations

import os
import warnings

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dustdevils.settings")

# whitenoise streams static files through a synchronous iterator; under ASGI Django reads it in
# a thread and warns on every file. Our static files are small, so the warning is only noise.
warnings.filterwarnings(
    "ignore",
    message="StreamingHttpResponse must consume synchronous iterators",
    category=Warning,
)

application = get_asgi_application()
