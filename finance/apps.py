from django.apps import AppConfig


class FinanceConfig(AppConfig):
    name = "finance"
    verbose_name = "Financial research"

    def ready(self) -> None:
        from agents.registry import WorkspaceKind, register_kind
        from agents.runtime import BUILTIN_TOOLS, Policy, Tool

        def tools() -> tuple[Tool, ...]:
            from finance.tools import FINANCE_TOOLS  # parsing, providers, charts: workers only

            return (*BUILTIN_TOOLS, *FINANCE_TOOLS)

        def offline_planner() -> Policy:
            # The planner reads the metric catalogue (pandas) and documents (pdfplumber):
            # in workers, not at start-up.
            from finance.planner import ResearchPlanner

            return ResearchPlanner()

        register_kind(
            WorkspaceKind(
                key="finance",
                label="Financial research",
                tools=tools,
                planners={"offline": offline_planner},
                system_prompt=(
                    "You research companies from their filings and market data. Start with "
                    "list_documents; compute with analyse_financials, cross_check, "
                    "price_history, macro_overlay and dcf_valuation; answer questions about a "
                    "filing with search_document and read_page, citing pages as page_label. "
                    "Finish with write_note and give its link. Every figure you state must "
                    "come from a tool result, with its source; say plainly what you could not "
                    "do. When asked for a figure (a line, ratio, growth or change), state it "
                    "with submit_answer before your reply: the metric asked, its value, unit, "
                    "period, formula and the 0-indexed page and inputs it comes from; or "
                    "could_not with the reason. Never answer a component or a level where a "
                    "ratio, growth or change is asked."
                ),
            )
        )
        from finance.trajectory_signals import register as register_trajectory_signals

        register_trajectory_signals()
        from finance.evaluation.kind import register as register_evaluation

        register_evaluation()  # the verifiers and the `finance` suite; heavy modules load lazily
        from agents.registry import register_rescuer
        from finance.services.rescue import documents_rescue_stalled

        register_rescuer("documents", documents_rescue_stalled)
