"""Settings for the Celery worker SUBPROCESS of the kill test (test_worker.py): the test
settings, plus the recovery's test hook and a short Redis visibility timeout, so a task whose
worker was killed goes back to the queue within seconds (production: an hour)."""

from __future__ import annotations

import os

from dustdevils.settings_test import *  # noqa: F403

# campaigns.recovery._hold_for_tests: the job waits, changes made and not committed, while
# this file exists.
RECOVERY_TEST_HOLD = os.environ.get("DD_RECOVERY_HOLD", "")

CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(os.environ.get("DD_VISIBILITY_TIMEOUT", "3")),
    # Scan for unacked messages past their timeout every second (default: every 100 s).
    "unacked_restore_interval": 1,
    "unacked_restore_throttle": 1,
}
