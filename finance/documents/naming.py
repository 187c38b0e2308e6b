"""What a document is called: its profile and company (the cover, else the PDF's Title
metadata; never the file name) and a title for lists."""

from __future__ import annotations

import re

from finance.documents.profile import DocumentProfile, read_profile

# EDGAR accession numbers and inline-XBRL file stems ("aapl-20240928") are not titles.
_ACCESSION = re.compile(r"^(\d{10}-\d{2}-\d{6}|[a-z]{1,6}-\d{8})$")


def describe(pages: list[str], metadata: dict[str, str]) -> tuple[DocumentProfile, str]:
    """The document's profile (`finance.documents.profile.read_profile`) and its company:
    the cover's registrant / the release's issuer, else the PDF's Title metadata; never the
    file name."""
    profile = read_profile(pages)
    return profile, profile.company or guess_company(pages, metadata)


def profile_metadata(metadata: dict[str, str], profile: DocumentProfile) -> dict[str, str]:
    """The file's metadata plus the profile's fields as strings (doc_type, ticker, ...)."""
    return {**metadata, **profile.metadata()}


def guess_company(pages: list[str], metadata: dict[str, str]) -> str:
    """The registrant: the line above "(Exact name of registrant ...)" on the cover page."""
    for text in pages[:3]:
        lines = [ln.strip() for ln in text.splitlines()]
        for k, line in enumerate(lines):
            if re.sub(r"[^a-z]", "", line.lower()).startswith("exactnameof"):
                for prev in reversed(lines[:k]):
                    name = prev.strip(" _")
                    if name:
                        return re.sub(r"^_+\s*", "", name.split("___")[-1]).strip(" _")
    title = metadata.get("Title", "")
    if " - " in title:  # "10-K - 02/07/2019 - 3M Company"
        return title.rsplit(" - ", 1)[-1].strip()
    return ""


def guess_title(metadata: dict[str, str], company: str, kind: str = "10-K") -> str:
    title = metadata.get("Title", "").strip()
    if title and not _ACCESSION.match(title):
        return title
    return f"{company} {kind}".strip() if company else title
