"""Research over a workspace's filings and data sources, shaped into a cited research note.

`analysis` computes (plain Python over canonical statements and provider results), `citations`
turns computed numbers into the note's linked numbers, `compose` writes the note's sections.
"""
