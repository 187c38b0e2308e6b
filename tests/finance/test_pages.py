"""Document pages: JSON with text and size, PNG renders, and the viewer with a highlighted value."""

from __future__ import annotations

import io
import re
import time
from pathlib import Path

import pypdfium2 as pdfium  # type: ignore[import-untyped,unused-ignore]
import pytest
from django.conf import settings
from django.test import Client
from PIL import Image

from tests.finance.uploads import (
    APPLE_HTML,
    NETFLIX,
    REVENUE_BOX,
    REVENUE_PAGE,
    media_root,
    needs_filings,
    netflix,
    upload,
)

pytestmark = [pytest.mark.django_db, needs_filings]
__all__ = ["media_root", "netflix", "upload"]  # fixtures


def api(document, suffix=""):
    return f"/api/v1/finance/documents/{document['id']}/pages/{suffix}"


def viewer(document, page, query=""):
    return f"/finance/documents/{document['id']}/pages/{page}/{query}"


@pytest.fixture
def alice_client(alice):
    client = Client()
    client.force_login(alice)
    return client


def test_a_page_has_its_size_text_and_image_url(alice_api, netflix):
    response = alice_api.get(api(netflix, str(REVENUE_PAGE)))

    assert response.status_code == 200
    page = response.json()
    assert page["page"] == REVENUE_PAGE and page["pages"] == 73
    assert (page["width"], page["height"]) == (612.0, 792.0)
    assert "CONSOLIDATED STATEMENTS OF OPERATIONS" in page["text"].upper()
    assert "11,692,713" in page["text"]
    assert page["image"] == api(netflix, f"{REVENUE_PAGE}.png")


def test_a_box_comes_back_as_page_percentages(alice_api, netflix):
    box = ",".join(map(str, REVENUE_BOX))

    page = alice_api.get(api(netflix, str(REVENUE_PAGE)), {"box": box}).json()

    assert page["box"]["percent"] == {
        "left": pytest.approx(100 * 376.99 / 612, abs=1e-3),
        "top": pytest.approx(100 * 127.0 / 792, abs=1e-3),
        "width": pytest.approx(100 * (416.48 - 376.99) / 612, abs=1e-3),
        "height": pytest.approx(100 * (135.77 - 127.0) / 792, abs=1e-3),
    }


def test_the_png_decodes_with_the_page_aspect_and_is_cached(alice_api, netflix):
    started = time.perf_counter()
    first = alice_api.get(api(netflix, f"{REVENUE_PAGE}.png"), {"scale": "2"})
    render_seconds = time.perf_counter() - started
    again = alice_api.get(api(netflix, f"{REVENUE_PAGE}.png"), {"scale": "2"})

    assert first.status_code == 200 and first["Content-Type"] == "image/png"
    image = Image.open(io.BytesIO(first.content))
    assert image.size == (1224, 1584)  # 612 x 792 points at scale 2
    assert again.content == first.content
    cached = list((Path(settings.VAR_DIR) / "cache" / "pages").rglob(f"{REVENUE_PAGE}@2.00.png"))
    assert len(cached) == 1 and cached[0].read_bytes() == first.content
    assert render_seconds < 5


def test_scale_is_bounded_and_must_be_a_number(alice_api, netflix):
    huge = alice_api.get(api(netflix, "0.png"), {"scale": "50"})
    words = alice_api.get(api(netflix, "0.png"), {"scale": "big"})
    nan = alice_api.get(api(netflix, "0.png"), {"scale": "nan"})

    assert Image.open(io.BytesIO(huge.content)).size == (1836, 2376)  # clamped to 3
    assert words.status_code == 400 and "scale" in words.json()["detail"]
    assert nan.status_code == 400


def test_pages_out_of_range_and_bad_boxes_are_refused(alice_api, alice_client, netflix):
    assert alice_api.get(api(netflix, "73")).status_code == 404
    assert alice_api.get(api(netflix, "73.png")).status_code == 404
    assert "detail" in alice_api.get(api(netflix, "73")).json()
    for box in ("1,2,3", "a,b,c,d", "10,10,5,20", "700,10,710,20", "1,2,3,inf"):
        response = alice_api.get(api(netflix, "0"), {"box": box})
        assert response.status_code == 400 and "box" in response.json()["detail"], box
        assert alice_client.get(viewer(netflix, 0), {"box": box}).status_code == 400, box
    assert alice_client.get(viewer(netflix, 73)).status_code == 404


def test_the_viewer_puts_the_box_on_the_printed_number(alice_client, netflix):
    box = ",".join(map(str, REVENUE_BOX))

    response = alice_client.get(
        viewer(netflix, REVENUE_PAGE), {"box": box, "label": "Revenue FY2017: 11,692.7"}
    )

    assert response.status_code == 200
    html = response.content.decode()
    style = re.search(r'id="fin-box"[^>]*style="([^"]+)"', html)
    assert style is not None
    percent = dict(re.findall(r"(left|top|width|height): ([0-9.]+)%", style.group(1)))
    assert float(percent["left"]) == pytest.approx(61.600, abs=0.01)
    assert float(percent["top"]) == pytest.approx(16.035, abs=0.01)
    assert "Revenue FY2017: 11,692.7" in html and "page 42 of 73" in html
    assert "NETFLIX_2017_10K.pdf" in html and 'rel="prev"' in html and 'rel="next"' in html
    assert f"/pages/{REVENUE_PAGE}.png?scale=2" in html
    # The percentages, read back as points on the page, hold the printed revenue figure...
    pdf = pdfium.PdfDocument(str(NETFLIX))
    page = pdf[REVENUE_PAGE]
    width, height = page.get_size()
    x0 = float(percent["left"]) * width / 100
    x1 = x0 + float(percent["width"]) * width / 100
    top = float(percent["top"]) * height / 100
    bottom = top + float(percent["height"]) * height / 100
    text = page.get_textpage().get_text_bounded(
        left=x0 - 1, bottom=height - bottom - 1, right=x1 + 1, top=height - top + 1
    )
    assert text.strip() == "11,692,713"
    # ...and that region of the rendered PNG has ink in it, the gap before the next column none.
    png = alice_client.get(f"/api/v1/finance/documents/{netflix['id']}/pages/{REVENUE_PAGE}.png")
    image = Image.open(io.BytesIO(png.content)).convert("L")
    scale = image.width / width
    inside = image.crop((int(x0 * scale), int(top * scale), int(x1 * scale), int(bottom * scale)))
    gap = image.crop(
        (int((x1 + 25) * scale), int(top * scale), int((x1 + 42) * scale), int(bottom * scale))
    )
    assert inside.getextrema()[0] < 100 and gap.getextrema()[0] > 200


def test_the_first_and_last_pages_link_one_way(alice_client, netflix):
    first = alice_client.get(viewer(netflix, 0)).content.decode()
    last = alice_client.get(viewer(netflix, 72)).content.decode()

    assert 'rel="prev"' not in first and 'rel="next"' in first and "page 1 of 73" in first
    assert 'rel="prev"' in last and 'rel="next"' not in last and "page 73 of 73" in last


def test_pages_of_another_user_do_not_exist(bob, netflix):
    client = Client()
    client.force_login(bob)
    assert client.get(viewer(netflix, 0)).status_code == 404
    assert Client().get(viewer(netflix, 0)).status_code == 302  # to the login page


def test_an_html_filing_has_text_pages_and_no_images(
    alice, alice_api, alice_client, make_workspace, upload
):
    workspace = make_workspace(alice, kind="finance")
    document = upload(alice_api, workspace, "aapl.htm", APPLE_HTML.read_bytes()).after
    texts = [alice_api.get(api(document, str(n))).json() for n in range(document["pages"])]
    target = next(n for n, page in enumerate(texts) if "Total net sales" in page["text"])

    png = alice_api.get(api(document, f"{target}.png"))
    page = alice_client.get(viewer(document, target), {"q": "total net sales"})

    assert texts[target]["image"] is None and texts[target]["width"] is None
    assert png.status_code == 404 and "no page images" in png.json()["detail"]
    html = page.content.decode()
    assert page.status_code == 200 and "<mark>Total net sales</mark>" in html
    assert 'id="fin-box"' not in html


def test_a_note_label_on_an_html_page_marks_the_printed_value(
    alice, alice_api, alice_client, make_workspace, upload
):
    workspace = make_workspace(alice, kind="finance")
    document = upload(alice_api, workspace, "aapl.htm", APPLE_HTML.read_bytes()).after
    cell = alice_api.get(f"/api/v1/finance/documents/{document['id']}/statements").json()
    revenue = cell["income_statement"]["revenue"]["FY2024"]

    page = alice_client.get(
        viewer(document, revenue["page"]), {"label": "revenue FY2024: 391,035 USD millions"}
    )

    assert "<mark>391,035</mark>" in page.content.decode()


def test_pages_of_a_document_still_processing_are_a_conflict(alice, alice_api, alice_client):
    from agents.services.workspaces import workspace_create
    from finance.models import Document

    workspace = workspace_create(owner=alice, name="W", kind="finance")
    document = Document.objects.create(
        workspace=workspace, name="big.pdf", sha256="3" * 64, status="processing", progress=0.2
    )
    data = {"id": document.pk}

    response = alice_api.get(api(data, "0"))
    page = alice_client.get(viewer(data, 0))

    assert response.status_code == 409 and "still being processed" in response.json()["detail"]
    assert page.status_code == 409 and "still being processed" in page.content.decode()
