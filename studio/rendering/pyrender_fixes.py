"""Workarounds for two pyrender behaviours (see studio/rendering/renderer.py's docstring).

* its shader cache never hits (keys hold a fresh ctypes pointer per call), so `ProgramCache`
  replaces it for our renderers;
* its shadow passes draw front faces, so `install_front_face_culling` makes them draw back faces
  (both sides for open, double-sided surfaces) while `CULL.shadow_pass` is set;
* its fragment shader filters every shadow map (9 bilinear taps of 4 texels) before it looks
  whether the fragment is beyond the light's far plane, where the shadow is 0 anyway. The cache
  compiles `mesh.frag` with that test moved first (`shadow_shader_source`): the same image, and
  a light that casts no shadow (whose light matrix puts everything beyond its far plane, see
  the renderer) costs no texture taps at all. On Mesa's software rasteriser that sampling was
  about half of a 1024x768 frame lit by one shadowed and two plain directional lights.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

SHADOW_TEST = "    float current_depth = light_coords.z;\n"
EARLY_OUT = "    if (light_coords.z > 1.0) {\n        return 0.0;\n    }\n"


def shadow_shader_source(source: str) -> str:
    """pyrender's `mesh.frag` with the beyond-the-far-plane test before the filtering (the
    result is unchanged: the shader sets the shadow to 0 there after filtering). A shader that
    does not read as expected is returned as it is."""
    if source.count(SHADOW_TEST) != 1:
        return source
    return source.replace(SHADOW_TEST, SHADOW_TEST + EARLY_OUT)


class ProgramCache:
    """Stands in for pyrender's ShaderProgramCache, keyed without the GL context (see above)."""

    def __init__(self, pyrender: ModuleType) -> None:
        shader_program = pyrender.shader_program
        self._program_class = shader_program.ShaderProgram
        self.shader_dir: str = shader_program.ShaderProgramCache().shader_dir
        self._programs: dict[tuple[Any, ...], Any] = {}
        self._patched: dict[str, str] = {}

    def _path(self, name: str) -> str:
        path = os.path.join(self.shader_dir, name)
        if name != "mesh.frag":
            return path
        if name not in self._patched:
            # ShaderProgram reads files: the patched source goes to a private temporary file.
            folder = Path(tempfile.mkdtemp(prefix="studio-shaders-"))
            target = folder / name
            target.write_text(shadow_shader_source(Path(path).read_text()))
            self._patched[name] = str(target)
        return self._patched[name]

    def get_program(
        self,
        vertex_shader: str,
        fragment_shader: str,
        geometry_shader: str | None = None,
        defines: dict[str, Any] | None = None,
    ) -> Any:
        defines = dict(defines or {})
        names = (vertex_shader, fragment_shader, geometry_shader)
        key = (names, tuple(sorted(defines.items())))
        program = self._programs.get(key)
        if program is None:
            paths = [None if n is None else self._path(n) for n in names]
            program = self._program_class(
                vertex_shader=paths[0],
                fragment_shader=paths[1],
                geometry_shader=paths[2],
                defines=defines,
            )
            self._programs[key] = program
        return program

    def clear(self) -> None:
        for program in self._programs.values():
            program.delete()
        self._programs = {}


class CullState:
    shadow_pass = False
    double_sided = False
    installed = False


CULL = CullState()


def install_front_face_culling(pyrender: ModuleType) -> None:
    """Shadow passes draw back faces only (see the module docstring), once per process.

    pyrender's depth-only draw calls `glEnable(GL_CULL_FACE); glCullFace(GL_BACK)` through
    names it imported into `pyrender.renderer`; that one name is wrapped. Outside our shadow
    passes the wrapper passes every call through unchanged.
    """
    if CULL.installed:
        return
    module = pyrender.renderer
    cull_face, disable = module.glCullFace, module.glDisable
    back, front, cull = module.GL_BACK, module.GL_FRONT, module.GL_CULL_FACE

    def cull_face_for_shadows(mode: int) -> None:
        if CULL.shadow_pass and mode == back:
            if CULL.double_sided:  # an open surface: draw both sides, or it may cast nothing
                disable(cull)
                return
            mode = front
        cull_face(mode)

    module.glCullFace = cull_face_for_shadows
    CULL.installed = True
