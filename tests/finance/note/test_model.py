"""Reading a note dict: the sample round-trips exactly, and every mistake names its path."""

from __future__ import annotations

import copy
import json
import math

import pytest

from finance.note.model import Chart, DerivedSource, DocumentSource, Note, NoteError, Number, Table
from tests.finance.note.sample import sample_note


def test_sample_note_round_trips_exactly():
    data = sample_note()
    note = Note.from_dict(data)
    assert note.to_dict() == data
    assert json.dumps(note.to_dict(), sort_keys=True) == json.dumps(data, sort_keys=True)


def test_from_dict_builds_typed_blocks_and_sources():
    note = Note.from_dict(sample_note())
    table = note.sections[1].blocks[0]
    assert isinstance(table, Table)
    revenue = table.rows[0][1]
    assert isinstance(revenue, Number)
    assert revenue.display == "11,692.7"
    assert isinstance(revenue.source, DocumentSource)
    assert revenue.source.bbox == (310.5, 212.0, 352.25, 221.5)
    margin = table.rows[2][1]
    assert isinstance(margin, Number) and isinstance(margin.source, DerivedSource)
    assert [i.display for i in margin.source.inputs] == ["4,466.2", "11,692.7"]
    chart = note.sections[1].blocks[1]
    assert isinstance(chart, Chart) and chart.series[1].values == (11.4, None, 13.0)


def test_optional_table_notes_and_chart_caption_stay_absent():
    data = sample_note()
    del data["sections"][1]["blocks"][0]["notes"]
    del data["sections"][1]["blocks"][1]["caption"]
    assert Note.from_dict(data).to_dict() == data


def _break(mutate):
    data = copy.deepcopy(sample_note())
    mutate(data)
    with pytest.raises(NoteError) as raised:
        Note.from_dict(data)
    return str(raised.value)


def _blocks(data, section):
    return data["sections"][section]["blocks"]


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        (
            lambda d: _blocks(d, 1)[0]["rows"][3].__setitem__(1, 12.5),
            "sections[1].blocks[0].rows[3][1]: expected text",
        ),
        (
            lambda d: _blocks(d, 0).__setitem__(1, {"type": "video", "url": "x"}),
            "sections[0].blocks[1].type: expected one of bullets, chart, paragraph, quote, table",
        ),
        (
            lambda d: _blocks(d, 2)[0]["source"].__setitem__("kind", "rumour"),
            "sections[2].blocks[0].source.kind: expected one of api, assumption, derived, document",
        ),
        (
            lambda d: _blocks(d, 1)[1]["series"][0]["values"].__setitem__(2, math.inf),
            "sections[1].blocks[1].series[0].values[2]: expected a finite number, got inf",
        ),
        (
            lambda d: _blocks(d, 0)[0]["content"][1]["number"].__setitem__("value", math.nan),
            "sections[0].blocks[0].content[1].number.value: expected a finite number",
        ),
        (
            lambda d: _blocks(d, 0)[0]["content"][1]["number"].__setitem__("value", True),
            "sections[0].blocks[0].content[1].number.value: expected a number, got a boolean",
        ),
        (
            lambda d: _blocks(d, 0)[0]["content"][1]["number"]["source"].__setitem__("page", "38"),
            "sections[0].blocks[0].content[1].number.source.page: expected an integer",
        ),
        (
            lambda d: _blocks(d, 0)[0]["content"][1]["number"]["source"].pop("bbox"),
            "sections[0].blocks[0].content[1].number.source.bbox: is required",
        ),
        (
            lambda d: _blocks(d, 1)[0].__setitem__("colour", "red"),
            "sections[1].blocks[0].colour: is not part of the note contract",
        ),
        (
            lambda d: _blocks(d, 1)[0]["rows"][0].pop(),
            "sections[1].blocks[0].rows[0]: has 2 cells for 3 columns",
        ),
        (
            lambda d: _blocks(d, 1)[1]["series"][1]["values"].pop(),
            "sections[1].blocks[1].series[1].values: has 2 values for 3 x",
        ),
        (
            lambda d: _blocks(d, 1)[1].__setitem__("kind", "pie"),
            "sections[1].blocks[1].kind: expected one of bar, line, got 'pie'",
        ),
        (
            lambda d: d["sections"][1].__setitem__("id", "summary"),
            "sections[1].id: 'summary' is used by an earlier section",
        ),
        (
            lambda d: d["sections"][0].__setitem__("id", 'x" onload="alert(1)'),
            "sections[0].id: expected a slug",
        ),
        (lambda d: d.__setitem__("created_at", "yesterday"), "created_at: expected an ISO-8601"),
        (lambda d: d.__setitem__("sections", {}), "sections: expected a list, got dict"),
    ],
)
def test_from_dict_error_names_the_path(mutate, expected):
    assert expected in _break(mutate)


def test_nested_derivation_inputs_are_validated_with_their_path():
    def mutate(d):
        change = _blocks(d, 0)[0]["content"][5]["number"]
        change["source"]["inputs"][1]["source"]["inputs"][0]["display"] = 4051.6

    assert _break(mutate).startswith(
        "sections[0].blocks[0].content[5].number.source.inputs[1].source.inputs[0].display: "
        "expected a string"
    )


def test_api_source_must_be_an_http_url():
    def mutate(d):
        shares = _blocks(d, 0)[1]["items"][0][1]["number"]
        shares["source"]["url"] = "javascript:alert(1)"

    assert "expected an http(s) URL" in _break(mutate)


def test_from_dict_rejects_a_non_object():
    with pytest.raises(NoteError, match="expected an object, got a list"):
        Note.from_dict([])
