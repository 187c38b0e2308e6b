"""What one person's work may cost the host (README: Security): documents and their page images,
scene edits, and ingestion's bookkeeping. Read from the environment, each with its default;
`config.settings` takes them all."""

from __future__ import annotations

from config.env import env_float, env_str

# What one document may cost (README: Security). Page images are lowered to at most this many
# pixels; a page larger than this many inches a side, a stream inflating past FINANCE_MAX_STREAM_MB
# or all streams past FINANCE_MAX_INFLATED_MB fail the upload with the reason. Filings are read,
# and pages rendered, in child processes with these memory ceilings and CPU budgets.
FINANCE_PAGE_IMAGE_MAX_PIXELS = int(env_float("FINANCE_PAGE_IMAGE_MAX_PIXELS", 16_000_000))
FINANCE_MAX_PAGE_INCHES = env_float("FINANCE_MAX_PAGE_INCHES", 50.0)
FINANCE_MAX_STREAM_MB = env_float("FINANCE_MAX_STREAM_MB", 64.0)
FINANCE_MAX_INFLATED_MB = env_float("FINANCE_MAX_INFLATED_MB", 512.0)
FINANCE_PARSE_MEMORY_MB = env_float("FINANCE_PARSE_MEMORY_MB", 2048.0)
FINANCE_PARSE_CPU_SECONDS_BASE = env_float("FINANCE_PARSE_CPU_SECONDS_BASE", 60.0)
FINANCE_PARSE_CPU_SECONDS_PER_PAGE = env_float("FINANCE_PARSE_CPU_SECONDS_PER_PAGE", 1.0)
FINANCE_RENDER_MEMORY_MB = env_float("FINANCE_RENDER_MEMORY_MB", 1024.0)
FINANCE_RENDER_CPU_SECONDS = env_float("FINANCE_RENDER_CPU_SECONDS", 20.0)
# Page children (drawing a page, reading one whose text was not kept) at once on this host, and
# how long a request waits for one before a 429; a person holds at most one at a time.
FINANCE_PAGE_CHILDREN = int(env_str("FINANCE_PAGE_CHILDREN", "2"))
FINANCE_PAGE_WAIT_SECONDS = env_float("FINANCE_PAGE_WAIT_SECONDS", 5.0)
# A person's scene edits, exports and mesh uploads are built, rendered and read in children
# (studio/scene_work.py) with this memory (heap) and CPU; so many at once on a host, one a person.
STUDIO_CHILD_MEMORY_MB = env_float("STUDIO_CHILD_MEMORY_MB", 3072.0)
STUDIO_CHILD_CPU_SECONDS = env_float("STUDIO_CHILD_CPU_SECONDS", 60.0)
STUDIO_CHILDREN = int(env_str("STUDIO_CHILDREN", "2"))
STUDIO_CHILD_WAIT_SECONDS = env_float("STUDIO_CHILD_WAIT_SECONDS", 5.0)
# Ingestion's bookkeeping (finance/services/rescue.py): a document whose worker stopped beating
# this long is sent again; after this many stopped attempts it fails with the reason; a person's
# documents are read at most this many at once (0: no limit), the rest sent again a moment later.
FINANCE_INGEST_STALL_SECONDS = env_float("FINANCE_INGEST_STALL_SECONDS", 120.0)
FINANCE_INGEST_MAX_ATTEMPTS = int(env_str("FINANCE_INGEST_MAX_ATTEMPTS", "3"))
FINANCE_INGEST_PER_USER = int(env_str("FINANCE_INGEST_PER_USER", "1"))
FINANCE_INGEST_DEFER_SECONDS = env_float("FINANCE_INGEST_DEFER_SECONDS", 3.0)
