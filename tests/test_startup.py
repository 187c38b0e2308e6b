"""Django starts without the heavy libraries: they load in the functions and tools that use them.

Start-up (settings, apps and their `ready`, the agent registry, admin, the URLconf and every view
module it names, the system checks) runs in every web process, management command and worker;
geometry, rendering, physics, PDF tables, data frames and charts are only needed once a request
or a run asks for them. A structural check, not a timing one: run `python -X importtime
manage.py check` to see which import pulled a module in.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
HEAVY = (
    "trimesh",
    "pandas",
    "pdfplumber",
    "pyrender",
    "mujoco",
    "scipy",
    "yfinance",
    "matplotlib",
)

START_UP = """
import json, sys
import django
from django.conf import settings
from django.core.management import call_command
from django.urls import get_resolver

django.setup()
__import__(settings.ROOT_URLCONF)
get_resolver().url_patterns  # every included URLconf and the views it names
call_command("check", verbosity=0)
print(json.dumps(sorted(name for name in sys.modules if name.split(".")[0] in HEAVY)))
"""


def installed(name: str) -> bool:
    return importlib.util.find_spec(name) is not None


def test_start_up_loads_no_heavy_library():
    heavy = [name for name in HEAVY if installed(name)]
    assert heavy, "none of the heavy libraries is installed: the check would prove nothing"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": os.environ.get("DJANGO_SETTINGS_MODULE", "tests.settings"),
    }
    code = f"HEAVY = {heavy!r}\n{START_UP}"
    completed = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert completed.returncode == 0, completed.stderr
    loaded = json.loads(completed.stdout.strip().splitlines()[-1])
    roots = sorted({name.split(".")[0] for name in loaded})
    assert roots == [], f"start-up imported {roots}; import them where they are used"
