from __future__ import annotations

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "dustdevils.accounts"
    label = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from dustdevils.accounts.language import on_login

        user_logged_in.connect(on_login, dispatch_uid="accounts.language.on_login")
