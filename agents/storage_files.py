"""Stored files (artifacts, uploads, exports) wherever the default storage keeps them.

Local disk by default, an S3-compatible bucket when `STORAGE_BUCKET` is set. Everything reads and
writes through Django's storage API; only these helpers care which storage it is: a library that
needs a real path gets a temporary copy, and a download is a redirect to a short-lived presigned
URL where the storage can sign one, the streamed file otherwise.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.core.files.storage import FileSystemStorage, Storage, default_storage
from django.db.models.fields.files import FieldFile
from django.http import FileResponse, HttpResponseBase, HttpResponseRedirect
from django.utils.http import content_disposition_header

DEFAULT_PRESIGNED_SECONDS = 300


def _located(file: FieldFile | str) -> tuple[Storage, str]:
    if isinstance(file, FieldFile):
        return file.storage, file.name or ""
    return default_storage, file


@contextmanager
def local_copy(file: FieldFile | str) -> Iterator[Path]:
    """A local path to a stored file, for libraries that only read paths: the file itself on
    local storage, a temporary copy (removed on exit) on any other."""
    storage, name = _located(file)
    if isinstance(storage, FileSystemStorage):
        yield Path(storage.path(name))
        return
    with tempfile.NamedTemporaryFile(suffix=Path(name).suffix, prefix="stored-") as copy:
        with storage.open(name, "rb") as source:
            shutil.copyfileobj(source, copy)
        copy.flush()
        yield Path(copy.name)


def presigned_url(file: FieldFile | str, *, filename: str, content_type: str) -> str | None:
    """A short-lived URL that downloads the file straight from the bucket as `filename`; None
    where the storage cannot sign one (local disk)."""
    storage, name = _located(file)
    if isinstance(storage, FileSystemStorage):
        return None
    from storages.backends.s3 import S3Storage  # boto3 loads only where S3 is in use

    if not isinstance(storage, S3Storage):
        return None
    seconds = int(getattr(settings, "STORAGE_PRESIGNED_SECONDS", DEFAULT_PRESIGNED_SECONDS))
    parameters = {
        "ResponseContentDisposition": content_disposition_header(True, filename) or "attachment",
        "ResponseContentType": content_type,
    }
    return str(storage.url(name, parameters=parameters, expire=seconds))


def stored_file_response(
    file: FieldFile | str, *, filename: str, content_type: str
) -> HttpResponseBase:
    """The download of a stored file (after the caller's ownership check): a 302 to a presigned
    URL on S3, the file streamed as an attachment on local storage."""
    url = presigned_url(file, filename=filename, content_type=content_type)
    if url is not None:
        return HttpResponseRedirect(url)
    storage, name = _located(file)
    return FileResponse(
        storage.open(name, "rb"), as_attachment=True, filename=filename, content_type=content_type
    )
