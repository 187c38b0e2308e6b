from django.contrib import admin

from finance.models import Document, Note


@admin.register(Document)
class DocumentAdmin(admin.ModelAdmin[Document]):
    list_display = ("name", "workspace", "kind", "pages", "status", "created_at")
    search_fields = ("name", "sha256", "company")
    readonly_fields = ("sha256", "sections", "statements")


@admin.register(Note)
class NoteAdmin(admin.ModelAdmin[Note]):
    list_display = ("title", "workspace", "run", "created_at")
    search_fields = ("title",)
