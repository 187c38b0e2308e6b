"""Canonical financial statements (income, balance sheet, cash flow) extracted from 10-K PDFs."""

from finance.statements.extract import extract_statements
from finance.statements.model import CellValue, FinancialStatements

__all__ = ["CellValue", "FinancialStatements", "extract_statements"]
