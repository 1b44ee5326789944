"""Accounts: sign up, log in and out, change password (Django's auth views, our templates)."""
