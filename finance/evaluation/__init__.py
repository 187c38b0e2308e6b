"""The finance part of the evaluation harness (see `agents.evaluation`).

* `kind.register()` plugs the verifiers, input preparation and the `finance` suite in.
* `prepare` uploads a task's filings from the shared data and ingests them.
* Verifiers: `numeric_answer` and `cited_page_prints_value` (answer_checks),
  `statements_years`, `core_lines` and `accounting_identities` (statement_checks),
  `evidence_retrieved` (retrieval_checks).
* `build_suite` writes the suite from the FinanceBench question files.
"""
