from django.contrib import admin

from finance.models import Document


@admin.register(Document)
class DocumentAdmin(admin.ModelAdmin[Document]):
    list_display = ("name", "workspace", "kind", "pages", "created_at")
    search_fields = ("name", "sha256")
    readonly_fields = ("sha256", "sections", "statements")
