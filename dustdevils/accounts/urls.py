"""Account URLs under /accounts/. Only what the table uses: no password reset by email (the app
sends no email); a player who forgets their password asks an admin."""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import path

from dustdevils.accounts import language, views
from dustdevils.accounts.forms import LoginForm

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("language/", language.choose, name="set_language"),
    path(
        "login/",
        auth_views.LoginView.as_view(
            authentication_form=LoginForm, redirect_authenticated_user=True
        ),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "password/",
        auth_views.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
]
