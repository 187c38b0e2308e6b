"""Which headless GL backend renders here, proved by drawing one small frame.

The run command prints this at start (so a person sees which backend the workers use, and why),
`/readyz` repeats it, and the evaluation log records it beside its scores.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from studio.rendering._gl import RenderUnavailable, describe_platform


@dataclass(frozen=True)
class BackendReport:
    platform: str
    reason: str
    renders: bool
    renderer: str = ""  # GL_RENDERER, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)" or a GPU's name
    error: str = ""

    def line(self) -> str:
        """One line for a console: the backend, what draws, and why it was chosen."""
        if self.renders:
            return f"{self.platform} ({self.renderer or 'renderer unknown'}): {self.reason}"
        return f"{self.platform} does not render ({self.reason}): {self.error}"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def probe_backend() -> BackendReport:
    """Render a 16 x 16 frame of an empty scene with the chosen platform; never raises."""
    from studio.rendering.renderer import render
    from studio.scene.model import Scene

    platform, reason = describe_platform()
    try:
        render(Scene(ground=False), mesh_for=_no_mesh, width=16, height=16, segmentation=False)
    except RenderUnavailable as error:
        return BackendReport(platform, reason, renders=False, error=str(error))
    except Exception as error:  # a context that loads but cannot be made: EGL without a device
        failure = f"{type(error).__name__}: {error}"
        return BackendReport(platform, reason, renders=False, error=failure)
    return BackendReport(platform, reason, renders=True, renderer=_renderer_name())


def _renderer_name() -> str:
    from studio.rendering.renderer import gl_renderer_name

    try:
        return gl_renderer_name()
    except Exception:  # the name is only informative
        return ""


def _no_mesh(obj: Any) -> Any:
    raise AssertionError("an empty scene has no meshes")
