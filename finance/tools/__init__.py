"""The finance workspace's agent tools: thin wrappers over `finance.research`."""

from finance.tools.document_tools import DOCUMENT_TOOLS
from finance.tools.research_tools import RESEARCH_TOOLS

FINANCE_TOOLS = (*DOCUMENT_TOOLS, *RESEARCH_TOOLS)

__all__ = ["FINANCE_TOOLS"]
