from django.apps import AppConfig


class StudioConfig(AppConfig):
    name = "studio"
    verbose_name = "3D creation studio"

    def ready(self) -> None:
        from agents.registry import WorkspaceKind, register_kind

        register_kind(
            WorkspaceKind(
                key="studio",
                label="3D creation studio",
                system_prompt=(
                    "You build 3D scenes from plain-language descriptions with exact dimensions in "
                    "metres. Use tools for every measurement; never guess a number."
                ),
            )
        )
