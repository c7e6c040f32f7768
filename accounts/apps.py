from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from .language import remember_language

        user_logged_in.connect(remember_language, dispatch_uid="accounts.remember_language")
