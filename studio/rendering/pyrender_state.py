"""Two process-wide changes to pyrender's classes, installed once by the renderer.

* `install_ordered_lights`: a scene's lights in a fixed order (by light name). pyrender keeps
  light nodes in sets, whose order changes from one process to the next, and binds them to the
  shader's light slots in that order: the lights were summed in another order each time, and
  a few pixels of a frame came out one level apart between two runs. Frames are now the same
  from run to run.
* `install_uniform_memory`: a uniform is set only when its value changes. A GL program keeps
  its uniforms' values (they are the program's state, not the draw's), and pyrender sets every
  one of them before every draw: the camera three times per object, each material's factors,
  the sky. At a hundred objects that was about 1,800 calls through PyOpenGL a frame, most of
  them setting what the program already held.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np


def install_ordered_lights(pyrender: ModuleType) -> None:
    scene = pyrender.Scene
    if getattr(scene.light_nodes, "fget", None) is _ordered_light_nodes:
        return
    scene.light_nodes = property(_ordered_light_nodes, doc=scene.light_nodes.__doc__)


def _ordered_light_nodes(self: Any) -> list[Any]:
    nodes = self.point_light_nodes | self.spot_light_nodes | self.directional_light_nodes
    return sorted(nodes, key=lambda node: (str(node.light.name or ""), str(node.name or "")))


def install_uniform_memory(pyrender: ModuleType) -> None:
    program = pyrender.shader_program.ShaderProgram
    if getattr(program.set_uniform, "remembers", False):
        return
    set_uniform = program.set_uniform

    def set_when_changed(self: Any, name: str, value: Any, unsigned: bool = False) -> None:
        held: dict[str, tuple[Any, ...]] = self.__dict__.setdefault("_held_uniforms", {})
        # The program id too: a program deleted and linked again starts with none held.
        key = (self._program_id, unsigned, *_value_key(value))
        if held.get(name) == key:
            return
        set_uniform(self, name, value, unsigned)
        held[name] = key

    set_when_changed.remembers = True  # type: ignore[attr-defined]
    program.set_uniform = set_when_changed


def _value_key(value: Any) -> tuple[Any, ...]:
    if isinstance(value, np.ndarray):
        return value.dtype.str, value.shape, value.tobytes()
    return type(value), value
