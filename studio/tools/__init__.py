"""The studio's agent tools: thin wrappers over the scene, rendering and physics code."""

from studio.tools.design_tool import DESIGN_TOOL
from studio.tools.round_tools import ROUND_TOOLS
from studio.tools.run_python import RUN_PYTHON
from studio.tools.scene_tools import SCENE_TOOLS

STUDIO_TOOLS = (*ROUND_TOOLS, DESIGN_TOOL, *SCENE_TOOLS, RUN_PYTHON)

__all__ = ["STUDIO_TOOLS"]
