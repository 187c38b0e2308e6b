"""Runs inside the sandbox (its source is passed to `python -c`): lower the limits, make the
packages importable, run the script. Self-contained: nothing of the project is visible there.

argv: [{"uid": ..., "rlimits": {...}} as JSON, script path, site-packages directory...]
"""

import json
import os
import resource
import runpy
import site
import sys
import traceback

MEMORY_EXIT = 102  # agents.sandbox.result.MEMORY_EXIT


def main() -> None:
    settings, script, *site_dirs = sys.argv[1:]
    limits = json.loads(settings)
    if os.getuid() == 0:
        # bwrap ran privileged and left us CAP_SETUID/CAP_SETGID: become nobody, which drops them
        os.setgroups([])
        os.setresgid(limits["uid"], limits["uid"], limits["uid"])
        os.setresuid(limits["uid"], limits["uid"], limits["uid"])
    # Without CAP_SYS_RESOURCE the script cannot raise these again.
    for name, (soft, hard) in limits["rlimits"].items():
        resource.setrlimit(getattr(resource, name), (soft, hard))
    for directory in site_dirs:
        site.addsitedir(directory)
    sys.path.insert(0, os.path.dirname(script))
    sys.argv = [script]
    try:
        runpy.run_path(script, run_name="__main__")
    except MemoryError:
        traceback.print_exc()
        sys.stderr.flush()
        os._exit(MEMORY_EXIT)


if __name__ == "__main__":
    main()
