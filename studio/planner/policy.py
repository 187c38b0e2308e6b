"""The studio's offline planner: build or edit the scene, then refine until it passes.

It is deterministic and decides from the conversation alone (so a resumed run carries on). In a
workspace with no scene yet, or when the person asks to start over, it calls `build_scene` with
the request. Where a scene exists (the run's context messages carry it, see
studio.tools.conversation) it edits that scene instead: one tool call per change (studio.planner.
edits). Then `refine_round` until a round passes every check or the round budget is spent; then
it answers with what was built or changed, what passed and what it could not understand.
"""

from __future__ import annotations

from dataclasses import dataclass

from agents.runtime import (
    Decision,
    PolicyInput,
    call_decision,
    result_object,
    tool_results,
)
from studio.planner.edit_policy import (
    earlier_requests,
    edit_decision,
    request_text,
    scene_state,
    upload_words,
)
from studio.planner.edits import plan_edits
from studio.planner.outcome import final_decision


@dataclass
class StudioPlanner:
    name: str = "offline"

    def decide(self, context: PolicyInput) -> Decision:
        request = request_text(context)
        results = tool_results(context)
        state = scene_state(context)
        if state is not None and state.get("objects"):
            plan = plan_edits(request, state, earlier_requests(context), upload_words(context))
            if plan.rebuild is None:
                return edit_decision(context, plan, results)
            request = plan.rebuild or request
        build = results.get("build")
        if build is None:
            return call_decision(
                context,
                "build",
                "build_scene",
                {"request": request},
                "Building the scene from your description.",
            )
        # --- final answers: studio.planner.outcome decides the status (honest outcomes) ---
        if build.startswith("error:"):
            return final_decision(context, build, [])
        rounds = [results[key] for key in sorted(results) if key.startswith("round-")]
        if rounds and rounds[-1].startswith("error:"):
            return final_decision(context, build, rounds)
        # --- end of final answers ---
        last = result_object(rounds[-1]) if rounds else None
        if last is None or (not last.get("passed") and last.get("rounds_left", 0) > 0):
            number = len(rounds) + 1
            return call_decision(
                context,
                f"round-{number:02d}",
                "refine_round",
                {},
                f"Round {number}: rendering and checking the scene.",
            )
        return final_decision(context, build, rounds)  # honest outcomes: see outcome.py
