"""Research notes: the structure (`model`) and its HTML, Markdown and PDF renderings.

Plain Python, no Django: the app builds a `Note`, passes a `NoteLinks` that knows its URLs, and
wraps or serves what the renderers return.
"""

from finance.note.charts import chart_png
from finance.note.html import render_html
from finance.note.links import NoteLinks, PathLinks
from finance.note.markdown import render_markdown
from finance.note.model import Note, NoteError
from finance.note.pdf import render_pdf

__all__ = [
    "Note",
    "NoteError",
    "NoteLinks",
    "PathLinks",
    "chart_png",
    "render_html",
    "render_markdown",
    "render_pdf",
]
