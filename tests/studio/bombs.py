"""Small inputs that once cost gigabytes, and a fresh Python that measures what one call costs."""

from __future__ import annotations

import json
import math
import os
import struct
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studio.scene.glb import pack_glb

ROOT = Path(__file__).resolve().parents[2]


def revolve(points: int = 500, sections: int = 256, x: float = 0.0) -> dict[str, Any]:
    """A ring of `points` turned `sections` times: 2 x points x sections triangles."""
    profile = [
        [
            round(0.6 + 0.4 * math.cos(2 * math.pi * i / points), 6),
            round(0.4 * math.sin(2 * math.pi * i / points) + 0.5, 6),
        ]
        for i in range(points)
    ]
    return {
        "kind": "revolve",
        "params": {"profile": profile, "sections": sections},
        "transform": {"translation": [x, 0, 0]},
    }


def nested_booleans(depth: int = 8, points: int = 500, sections: int = 256) -> dict[str, Any]:
    """Unions nested `depth` deep, each adding a big revolve (a 99 kB edit by default: nine
    revolves of 256,000 triangles, each union combining all before it; built unbounded it
    costs 15 s and 0.8 GB, and the issue's wider variant 99 s and 11 GB)."""
    shape = revolve(points, sections)
    for level in range(depth):
        operand = revolve(points, sections, x=0.1 * (level + 1))
        shape = {"kind": "boolean", "params": {"op": "union", "a": shape, "b": operand}}
    return shape


def vertex_bomb_glb(count: int = 40_000_000) -> bytes:
    """A GLB of one triangle whose POSITION accessor declares `count` vertices and no data: a
    parser that believes it allocates count x 12 bytes of zeros (and more to process them)."""
    document = {
        "asset": {"version": "2.0"},
        "scenes": [{"nodes": [0]}],
        "nodes": [{"mesh": 0}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
        "accessors": [
            {"componentType": 5126, "count": count, "type": "VEC3", "min": [0] * 3, "max": [0] * 3},
            {"bufferView": 0, "componentType": 5125, "count": 3, "type": "SCALAR"},
        ],
        "bufferViews": [{"buffer": 0, "byteLength": 12}],
        "buffers": [{"byteLength": 12}],
    }
    return pack_glb(document, struct.pack("<3I", 0, 1, 2))


@dataclass(frozen=True)
class Cost:
    """What one call cost in a fresh process: its outcome, seconds, and peak memory growth."""

    outcome: str
    seconds: float
    peak_growth_mb: float


_CHILD = """
import json, resource, time
{setup}
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
try:
    {call}
    outcome = "returned"
except Exception as error:
    outcome = f"{{type(error).__name__}}: {{error}}"
seconds = time.perf_counter() - start
grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
print(json.dumps({{"outcome": outcome, "seconds": seconds, "peak_growth_mb": grown}}))
"""


def cost_in_child(setup: str, call: str, *, cpu_seconds: int = 20, memory_gb: int = 3) -> Cost:
    """Run `setup` (imports, building the input), then measure `call` alone. The child is
    capped (CPU seconds, address space), so an unbounded call fails cheaply instead of
    costing what it once did."""
    code = _CHILD.format(setup=textwrap.dedent(setup), call=call)
    limits = (
        "import resource\n"
        f"resource.setrlimit(resource.RLIMIT_CPU, ({cpu_seconds}, {cpu_seconds}))\n"
        f"resource.setrlimit(resource.RLIMIT_AS, ({memory_gb << 30}, {memory_gb << 30}))\n"
    )
    env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
    done = subprocess.run(
        [sys.executable, "-c", limits + code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=cpu_seconds * 3,
        check=False,
    )
    lines = done.stdout.strip().splitlines()
    assert done.returncode == 0 and lines, (
        f"child failed ({done.returncode}): {done.stderr[-2000:]}"
    )
    return Cost(**json.loads(lines[-1]))
