"""ASGI entry point: ``uvicorn dustdevils.asgi:application``."""

from __future__ import annotations

import os
import sys
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

# One process serves the live streams (rendered in the event loop) and the moves (Django runs
# each synchronous view in a thread of its own). A move's thread gives the GIL up at every
# database query and then waits for it: by default up to 5 ms each time while the loop renders.
# 1 ms keeps a move's answer quick on a busy table without costing throughput.
sys.setswitchinterval(0.001)

application = get_asgi_application()
