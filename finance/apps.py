from django.apps import AppConfig


class FinanceConfig(AppConfig):
    name = "finance"
    verbose_name = "Financial research"

    def ready(self) -> None:
        from agents.registry import WorkspaceKind, register_kind

        register_kind(
            WorkspaceKind(
                key="finance",
                label="Financial research",
                system_prompt=(
                    "You research companies from filings and market data. Every figure you state "
                    "must come from a tool result, with its source."
                ),
            )
        )
