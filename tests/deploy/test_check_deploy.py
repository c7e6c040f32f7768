"""`manage.py check --deploy` is clean for the production profile in the README, "Deploying"."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PRODUCTION = {
    "SECRET_KEY": "x" * 20 + "a-long-random-production-key-0123456789-ABCDEFGHIJ",
    "DEBUG": "0",
    "HTTPS": "1",
    "STATIC_MANIFEST": "1",
    "ALLOWED_HOSTS": "blades.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://blades.example.org",
}


def test_check_deploy_has_no_warnings():
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(PRODUCTION)
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout
