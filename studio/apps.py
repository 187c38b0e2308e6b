from typing import Any

from django.apps import AppConfig


class StudioConfig(AppConfig):
    name = "studio"
    verbose_name = "3D creation studio"

    def ready(self) -> None:
        from agents.registry import WorkspaceKind, register_kind
        from agents.runtime import BUILTIN_TOOLS, Policy, Tool
        from studio import evaluation

        def tools() -> tuple[Tool, ...]:
            from studio.tools import STUDIO_TOOLS  # geometry, rendering, physics: workers only
            from studio.tools.edit_tools import EDIT_TOOLS

            return (*BUILTIN_TOOLS, *STUDIO_TOOLS, *EDIT_TOOLS)

        def offline_planner() -> Policy:
            # The grammar loads its catalogue and unit tables (pint): in workers, not at start-up.
            from studio.planner.policy import StudioPlanner

            return StudioPlanner()

        def context(run: Any) -> list[dict[str, Any]]:
            from studio.tools.conversation import studio_context

            return studio_context(run)

        register_kind(
            WorkspaceKind(
                key="studio",
                label="3D creation studio",
                tools=tools,
                planners={"offline": offline_planner},
                context=context,
                system_prompt=(
                    "You build 3D scenes from plain-language descriptions with exact dimensions "
                    "in metres (+Y up, the ground's top at y = 0). Build with whichever tools "
                    "fit: the primitives (add_object, place_object, resize_object, set_material, "
                    "combine_objects, add_light, set_camera, run_python for a custom mesh) give "
                    "you full control; build_scene turns a whole plain request into a first "
                    "scene in one call. Then call refine_round until every check passes or the "
                    "round budget is spent. When the workspace already has a scene (its summary "
                    "comes before the request), edit it and keep what the person did not "
                    "mention; start a new scene only when asked to start over. Never guess a "
                    "measurement a tool can give you, and never say a request is done when a "
                    "requested thing is missing: name what you could not build and why."
                ),
            )
        )
        evaluation.register()  # verifiers and the `studio` suite; heavy modules load lazily
