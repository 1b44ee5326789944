"""The test suite's settings (pytest's DJANGO_SETTINGS_MODULE): ``dustdevils.settings_test``,
with each pytest-xdist worker kept apart from the others on the services they share.

pytest-django gives each worker its own test database (``test_<name>_gw0``, ``…_gw1``). What
it cannot separate is Redis: so, before the settings are read, worker *n* takes
``DEPLOYMENT_NAMESPACE=<namespace>-gw<n>`` (its own cache keys and live channels; pub/sub
channels are shared by every Redis database) and Redis database ``<db> + n`` of ``REDIS_URL``
(its own Celery queues, so a worker never runs another's job against the wrong database). Both
go into the environment too, so the servers and Celery workers the tests start inherit them.
"""

from __future__ import annotations

import os
import re

_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
if _worker:
    _n = int(re.sub(r"\D", "", _worker) or 0)
    _namespace = os.environ.get("DEPLOYMENT_NAMESPACE", "").strip() or "dustdevils"
    os.environ["DEPLOYMENT_NAMESPACE"] = f"{_namespace}-{_worker}"
    _redis = os.environ.get("REDIS_URL", "").strip()
    if _redis:
        _url = re.fullmatch(r"(?P<base>rediss?://[^/]+)(?:/(?P<db>\d*))?(?P<query>\?.*)?", _redis)
        if _url is None:
            raise RuntimeError(f"tests/settings.py cannot give each worker a database of {_redis}")
        _db = int(_url["db"] or 0) + _n
        if _db > 15:
            raise RuntimeError(
                f"REDIS_URL={_redis}: pytest-xdist worker {_worker} would need Redis database "
                f"{_db} (Redis has 0-15); use a lower database number or fewer workers"
            )
        os.environ["REDIS_URL"] = f"{_url['base']}/{_db}{_url['query'] or ''}"

from dustdevils.settings_test import *  # noqa: E402, F403
