"""The runtime is pure Python: no module under agents/runtime may import Django."""

import ast
import subprocess
import sys
from pathlib import Path

import agents.runtime

RUNTIME = Path(agents.runtime.__file__).parent
REPO = RUNTIME.parent.parent


def imported_modules(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_runtime_modules_are_found():
    names = {path.name for path in RUNTIME.rglob("*.py")}
    assert {"loop.py", "tools.py", "state.py", "policies.py"} <= names


def test_no_runtime_module_imports_django():
    offenders = {
        str(path.relative_to(REPO)): sorted(
            name for name in imported_modules(path) if name.split(".")[0] == "django"
        )
        for path in RUNTIME.rglob("*.py")
    }
    assert {path: names for path, names in offenders.items() if names} == {}


def test_importing_the_runtime_loads_no_django():
    code = "import agents.runtime, sys; assert not any(m.startswith('django') for m in sys.modules)"
    completed = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60
    )
    assert completed.returncode == 0, completed.stderr
