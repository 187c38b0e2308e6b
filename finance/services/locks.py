"""pdfium is not thread-safe: every call in one process goes through this lock.

Web servers run sync views on a thread pool, so two page renders could otherwise enter pdfium at
once and crash the process. Ingestion's parallel text extraction uses processes, not threads.
"""

import threading

PDFIUM_LOCK = threading.RLock()
