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
                    "in metres (+Y up, the ground's top at y = 0). Start with build_scene for "
                    "the whole request, adjust objects with the editing tools, then call "
                    "refine_round until every check passes or the round budget is spent. When the "
                    "workspace already has a scene (its summary comes before the request), edit "
                    "it with the editing tools and keep what the person did not mention; build a "
                    "new scene only when asked to start over. Never guess a measurement a tool "
                    "can give you."
                ),
            )
        )
        evaluation.register()  # verifiers and the `studio` suite; heavy modules load lazily
