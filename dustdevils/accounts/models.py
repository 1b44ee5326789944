"""What an account remembers besides Django's own user: the language its person chose."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Preference(models.Model):
    """The language chosen in the header's picker (``settings.LANGUAGES``), kept with the
    account so it follows its person to every device at their next login."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
        related_name="preference",
    )  # fmt: skip
    language = models.CharField(max_length=8)

    def __str__(self) -> str:
        return f"{self.user_id}: {self.language}"
