from django.contrib import admin

from studio.models import SceneRevision, UploadedMesh


@admin.register(SceneRevision)
class SceneRevisionAdmin(admin.ModelAdmin[SceneRevision]):
    list_display = ("workspace", "number", "source", "run", "created_at")
    search_fields = ("workspace__name", "source")
    readonly_fields = ("scene", "report")


@admin.register(UploadedMesh)
class UploadedMeshAdmin(admin.ModelAdmin[UploadedMesh]):
    list_display = ("name", "workspace", "faces", "vertices", "created_at")
    search_fields = ("name",)
