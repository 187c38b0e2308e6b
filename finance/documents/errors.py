"""The error of the document layer: its message says why, for the user."""


class DocumentError(ValueError):
    """The input cannot be ingested; the message says why, for the user."""
