"""The one place where OpenGL and pyrender are imported: platform choice and compatibility shims.

Nothing here runs at import time; `load()` does the work once per process, under a lock.

**Platform.** PyOpenGL reads `PYOPENGL_PLATFORM` once, when `OpenGL` is first imported, so it
has to be settled before that import. The rule (see `choose_platform`):

1. `PYOPENGL_PLATFORM` when it is set: `osmesa` (Mesa's software rasteriser, CPU) or `egl`
   (headless GPU: set it on GPU machines, with `EGL_DEVICE_ID` to pick a device).
2. Otherwise `MUJOCO_GL` when it is `osmesa` or `egl`, so that MuJoCo (the physics checks) and
   pyrender use the same GL platform in one process; MuJoCo refuses to start when
   `PYOPENGL_PLATFORM` names another one.
3. Otherwise `osmesa` where its library is installed (Debian's `libosmesa6`), else `egl` where
   libEGL is (a GPU where there is one; Mesa's software device, llvmpipe, where there is not),
   so the studio renders on a fresh machine with neither a GPU nor OSMesa. Never pyglet, even
   when `DISPLAY` is set: a server (or a desktop running the tests) wants no window.

`python manage.py render_check` makes a context the same way and renders one small frame: the
run command calls it at start to say which backend the workers use (see `describe_platform`).

**NumPy 2.** pyrender 0.1.45 uses `np.infty`, which NumPy 2 removed; `load()` restores the alias
(`np.inf`) before pyrender is imported.

**EGL and threads.** An EGL context current on one thread cannot be made current on another
(`EGL_BAD_ACCESS`), and pyrender's `EGLPlatform.make_uncurrent` does nothing, so a renderer made
on one thread failed on the next (a web server's request threads). `load()` gives it the real
release, and a `delete_context` that destroys its own context only (pyrender's terminated the
display that every renderer of the device shares). These are the only shims; they live here.
"""

from __future__ import annotations

import ctypes.util
import os
import threading
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any

import numpy as np

PLATFORMS = ("osmesa", "egl")
_PLATFORM_CLASSES = {"osmesa": "OSMesaPlatform", "egl": "EGLPlatform"}
_lock = threading.Lock()
_pyrender: ModuleType | None = None
_failure: str | None = None


class RenderUnavailable(RuntimeError):
    """No OpenGL context can be made here (a library is missing, or the platform is wrong)."""


# The shared libraries PyOpenGL's OSMesa and EGL platforms load (ctypes.util names).
_LIBRARIES = {"osmesa": "OSMesa", "egl": "EGL"}


def choose_platform(
    environ: Mapping[str, str] | None = None,
    *,
    find_library: Callable[[str], str | None] = ctypes.util.find_library,
) -> str:
    """The PyOpenGL platform this process renders with (see the module docstring)."""
    return describe_platform(environ, find_library=find_library)[0]


def describe_platform(
    environ: Mapping[str, str] | None = None,
    *,
    find_library: Callable[[str], str | None] = ctypes.util.find_library,
) -> tuple[str, str]:
    """The platform and, in words, why it was chosen."""
    env = os.environ if environ is None else environ
    requested = env.get("PYOPENGL_PLATFORM", "").strip().lower()
    if requested:
        return requested, "PYOPENGL_PLATFORM names it"
    mujoco = env.get("MUJOCO_GL", "").strip().lower()
    if mujoco in PLATFORMS:
        return mujoco, "MUJOCO_GL names it (physics and rendering share one GL platform)"
    if find_library(_LIBRARIES["osmesa"]):
        return "osmesa", "OSMesa is installed"
    if find_library(_LIBRARIES["egl"]):
        return "egl", "OSMesa is not installed; EGL is (a GPU, or Mesa's software device)"
    return "osmesa", "neither OSMesa nor EGL is installed"


def load() -> ModuleType:
    """Import pyrender with the chosen platform and the NumPy 2 shim; RenderUnavailable if not."""
    global _pyrender, _failure
    with _lock:
        if _pyrender is not None:
            return _pyrender
        if _failure is not None:
            raise RenderUnavailable(_failure)
        platform = choose_platform()
        if platform not in PLATFORMS:
            _failure = (
                f"PYOPENGL_PLATFORM={platform!r} is not supported for headless rendering; "
                "use 'osmesa' (CPU) or 'egl' (GPU)"
            )
            raise RenderUnavailable(_failure)
        # Must happen before the first `import OpenGL` anywhere in the process.
        os.environ["PYOPENGL_PLATFORM"] = platform
        # NumPy 2 removed the `np.infty` alias that pyrender 0.1.45 still uses; restore it.
        if not hasattr(np, "infty"):
            np.infty = np.inf  # type: ignore[attr-defined]
        try:
            import pyrender  # type: ignore[import-untyped]
            from OpenGL import platform as gl_platform  # type: ignore[import-untyped]
        except Exception as exc:  # a missing libOSMesa / libEGL surfaces as many error types
            _failure = f"cannot load OpenGL with PYOPENGL_PLATFORM={platform}: {exc!r}" + (
                " (install Debian's libosmesa6, or libegl1 for EGL)" if platform == "osmesa" else ""
            )
            raise RenderUnavailable(_failure) from exc
        active = type(gl_platform.PLATFORM).__name__
        if active != _PLATFORM_CLASSES[platform]:
            # OpenGL was imported earlier, before the variable was set: its platform is fixed.
            _failure = (
                f"OpenGL was imported with the {active} platform before studio.rendering chose "
                f"{platform!r}; set PYOPENGL_PLATFORM={platform} before anything imports OpenGL"
            )
            raise RenderUnavailable(_failure)
        if platform == "egl":
            _release_egl_contexts()
        module: ModuleType = pyrender
        _pyrender = module
        return module


def _release_egl_contexts() -> None:
    from OpenGL.EGL import (  # type: ignore[import-untyped]
        EGL_NO_CONTEXT,
        EGL_NO_SURFACE,
        eglDestroyContext,
        eglMakeCurrent,
    )
    from pyrender.platforms.egl import EGLPlatform  # type: ignore[import-untyped]

    def make_uncurrent(self: Any) -> None:
        if self._egl_display is not None:
            eglMakeCurrent(self._egl_display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT)

    def delete_context(self: Any) -> None:
        # Only this context: every renderer of the device shares its display, which pyrender
        # terminated here, taking the other renderers' contexts with it (EGL_BAD_DISPLAY).
        if self._egl_display is not None and self._egl_context is not None:
            make_uncurrent(self)
            eglDestroyContext(self._egl_display, self._egl_context)
            self._egl_context = None

    EGLPlatform.make_uncurrent = make_uncurrent
    EGLPlatform.delete_context = delete_context
