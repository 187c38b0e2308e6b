"""The studio's offline planner: a documented grammar of scene requests, turned into tool calls."""
