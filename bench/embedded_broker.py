"""The embedded broker under racing writers and readers: the project's transport beside kombu's.

    uv run python bench/embedded_broker.py [--rounds 3] [--writers 4] [--readers 3]

Prints, per transport and round, the messages sent, lost and duplicated, whether every message
arrived whole, and the readers that died (with their last words). The figures that chose
config/embedded_broker.py.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.integration.broker_stress import KOMBU, OURS, stress


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--writers", type=int, default=4)
    parser.add_argument("--readers", type=int, default=3)
    parser.add_argument("--per-writer", type=int, default=150)
    args = parser.parse_args()
    print(f"{'transport':<34} round  sent  lost  dup  whole  died  seconds")
    for transport in (KOMBU, OURS):
        for number in range(args.rounds):
            with tempfile.TemporaryDirectory(prefix="broker-stress-") as folder:
                began = time.monotonic()
                result = stress(
                    Path(folder) / "broker",
                    transport=transport,
                    writers=args.writers,
                    readers=args.readers,
                    per_writer=args.per_writer,
                    seconds=30,
                )
                took = time.monotonic() - began
            print(
                f"{transport:<34} {number + 1:>5} {result.sent:>5} {result.lost:>5} "
                f"{result.duplicated:>4} {result.whole!s:>6} {len(result.failures):>5} "
                f"{took:>8.1f}"
            )
            for failure in sorted(set(result.failures)):
                print(f"    died: {failure[:150]}")


if __name__ == "__main__":
    main()
