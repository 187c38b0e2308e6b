from django.apps import AppConfig


class StudioConfig(AppConfig):
    name = "studio"
    verbose_name = "3D creation studio"

    def ready(self) -> None:
        from agents.registry import WorkspaceKind, register_kind
        from agents.runtime import BUILTIN_TOOLS, Tool
        from studio import evaluation
        from studio.planner.policy import StudioPlanner

        def tools() -> tuple[Tool, ...]:
            from studio.tools import STUDIO_TOOLS  # geometry, rendering, physics: workers only

            return (*BUILTIN_TOOLS, *STUDIO_TOOLS)

        register_kind(
            WorkspaceKind(
                key="studio",
                label="3D creation studio",
                tools=tools,
                planners={"offline": StudioPlanner},
                system_prompt=(
                    "You build 3D scenes from plain-language descriptions with exact dimensions "
                    "in metres (+Y up, the ground's top at y = 0). Start with build_scene for "
                    "the whole request, adjust objects with the editing tools, then call "
                    "refine_round until every check passes or the round budget is spent. Never "
                    "guess a measurement a tool can give you."
                ),
            )
        )
        evaluation.register()  # verifiers and the `studio` suite; heavy modules load lazily
