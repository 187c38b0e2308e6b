"""The finance workspace's agent tools: thin wrappers over `finance.research`."""

from finance.tools.answer_tool import SUBMIT_ANSWER
from finance.tools.document_tools import DOCUMENT_TOOLS
from finance.tools.research_tools import RESEARCH_TOOLS
from finance.tools.run_python import RUN_PYTHON

FINANCE_TOOLS = (*DOCUMENT_TOOLS, *RESEARCH_TOOLS, RUN_PYTHON, SUBMIT_ANSWER)

__all__ = ["FINANCE_TOOLS"]
