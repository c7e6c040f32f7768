from django.apps import AppConfig


class BackupConfig(AppConfig):
    name = "backup"
    verbose_name = "Backup"

    def ready(self) -> None:
        from sessions import panels

        panels.add(panel=panels.Panel("backup/table_panels.html#about", place="about", order=10))
