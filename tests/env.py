"""Loaded as a pytest plugin (`-p tests.env`) so it runs before pytest-django reads settings."""

import os

os.environ.setdefault("SECRET_KEY", "tests-only-secret-key-not-for-production")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "blades.settings")
