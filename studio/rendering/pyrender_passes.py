"""Two changes to how pyrender runs its passes, which draw the same frame for less work (see
studio/rendering/renderer.py's docstring): installed on one pyrender Renderer (`inner`, the
OffscreenRenderer's own) by the renderer that owns it.

* `draw_near_to_far`: opaque meshes front to back, the ground last, so the software
  rasteriser's depth test drops hidden fragments before shading them (pyrender draws them back
  to front, shading every hidden layer);
* `bind_lights_once`: each shader program's lights bound once per pass instead of once per draw.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def draw_near_to_far(inner: Any, ground_name: str) -> None:
    """Replace `inner`'s draw order (see the module docstring). Transparent meshes stay last,
    back to front, as pyrender blends them. The order is worked out once per frame (the shadow,
    colour and segmentation passes draw the same scene); every mesh node is at the top of the
    scene graph, so its own translation is its position."""
    order: list[tuple[Any, list[Any]]] = []

    def near_to_far(scene: Any) -> list[Any]:
        if order and order[0][0] is scene:
            return order[0][1]
        eye = scene.get_pose(scene.main_camera_node)[:3, 3]
        solid: list[Any] = []
        clear: list[Any] = []
        for node in scene.mesh_nodes:
            (clear if node.mesh.is_transparent else solid).append(node)

        def distance(node: Any) -> float:
            return float(np.linalg.norm(np.asarray(node.translation) - eye))

        solid.sort(key=lambda node: (node.name == ground_name, distance(node)))
        clear.sort(key=distance, reverse=True)
        order[:] = [(scene, solid + clear)]
        return order[0][1]

    inner._sorted_mesh_nodes = near_to_far


def bind_lights_once(inner: Any) -> None:
    """Bind each program's lighting once per pass on `inner`. pyrender binds the same lights for
    every draw of a pass: a program keeps its uniforms, and the shadow maps stay on the texture
    units they were bound to (from unit 0, before a primitive's own textures, which start after
    them), so later draws only skip the units it took. Not when a type has more lights than
    pyrender draws: it then picks the nearest ones per object."""
    lit: dict[int, int] = {}
    per_object = [False]
    forward_pass, bind_lighting = inner._forward_pass, inner._bind_lighting

    def forward_pass_lighting_once(scene: Any, flags: int, seg_node_map: Any = None) -> Any:
        lit.clear()
        kinds = (scene.directional_light_nodes, scene.spot_light_nodes, scene.point_light_nodes)
        most = inner._compute_max_n_lights(flags)
        per_object[0] = any(len(n) > limit for n, limit in zip(kinds, most, strict=True))
        return forward_pass(scene, flags, seg_node_map=seg_node_map)

    def bind_lighting_once(scene: Any, program: Any, node: Any, flags: int) -> None:
        if not per_object[0] and id(program) in lit:
            inner._texture_alloc_idx = lit[id(program)]
            return
        bind_lighting(scene, program, node, flags)
        lit[id(program)] = inner._texture_alloc_idx

    inner._forward_pass = forward_pass_lighting_once
    inner._bind_lighting = bind_lighting_once
