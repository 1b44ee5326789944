"""django-axes' database handler with a limit per lockout parameter (AXES_HANDLER).

axes counts failed logins for each entry of AXES_LOCKOUT_PARAMETERS — here one username from
one address, one username from anywhere, one address for any username — but holds them all to
one AXES_FAILURE_LIMIT. A lockout by the username alone at 5 would let any stranger lock a
player out with five wrong passwords; so each entry gets its own limit (AXES_LOCKOUT_LIMITS,
in the same order): a guesser is stopped by the pair quickly, a guesser spread over many
addresses by the username, and one address trying many usernames by the address.
"""

from __future__ import annotations

from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username, get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Sum
from django.http import HttpRequest


class TieredLockoutHandler(AxesDatabaseHandler):  # type: ignore[misc]  # axes: untyped
    def get_failures(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> int:
        """AXES_FAILURE_LIMIT (or more) when any parameter reached its own limit, else the
        count of the first (the pair's), which is below it."""
        limit = int(get_failure_limit(request, credentials))
        counts: list[int] = [
            int(attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0)
            for attempts in self.get_user_attempts(request, credentials)
        ]
        for count, own_limit in zip(counts, settings.AXES_LOCKOUT_LIMITS, strict=True):
            if count >= own_limit:
                return max(count, limit)
        return min(counts[0] if counts else 0, limit - 1)

    def reset_user_attempts(
        self, request: HttpRequest, credentials: dict[str, Any] | None = None
    ) -> int:
        """A successful login forgets its username's failures only: never the address's, or
        an attacker with an account of their own could reset their address's count by
        logging in to it between guesses at others."""
        username = get_client_username(request, credentials)
        if not username:
            return 0
        count, _ = AccessAttempt.objects.filter(username=username).delete()
        return int(count)
