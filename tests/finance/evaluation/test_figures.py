"""Units, the rounding a reference is printed with, and finding a value among printed numbers."""

from __future__ import annotations

import pytest

from finance.evaluation.figures import (
    UnitError,
    convert,
    find_printed,
    printed_numbers,
    read_reference,
)


@pytest.mark.parametrize(
    ("text", "value", "tolerance"),
    [
        ("$1577.00", 1577.0, 0.5),  # two decimals of formatting, rounded to the million
        ("$8.70", 8.7, 0.05),  # 3M's 8,738 millions in billions, to one decimal
        ("17.98", 17.98, 0.005),
        ("4.2%", 4.2, 0.05),
        ("$59,268", 59268.0, 0.5),
        ("77.78", 77.78, 0.005),
    ],
)
def test_reference_tolerance_follows_its_printing(text, value, tolerance):
    reference = read_reference(text)
    assert reference.value == value
    assert reference.tolerance == pytest.approx(tolerance)


@pytest.mark.parametrize("text", ["$400,000,000 increase.", "Yes", "36%. The answer assumes"])
def test_words_are_not_a_bare_number(text):
    with pytest.raises(ValueError):
        read_reference(text)


def test_units_convert_within_their_kind_only():
    assert convert(8738.0, "USD millions", "USD billions") == pytest.approx(8.738)
    assert convert(5466312.0, "USD thousands", "USD millions") == pytest.approx(5466.312)
    assert convert(0.165, "ratio", "%") == pytest.approx(16.5)
    with pytest.raises(UnitError):
        convert(16.5, "%", "USD millions")


def test_a_value_is_found_as_printed_in_any_scale():
    numbers = printed_numbers("Total assets $ 36,500 $ 37,987\nPP&E — net 8,738 (16,135) 4.2%")
    assert find_printed(36500.0, "USD millions", numbers).text == "$ 36,500"
    assert find_printed(8.738, "USD billions", numbers).text == "8,738"
    assert find_printed(16_135_000.0, "USD thousands", numbers).text == "(16,135)"
    assert find_printed(0.042, "ratio", numbers).text == "4.2%"


def test_a_value_not_on_the_page_is_not_found():
    numbers = printed_numbers("Total assets $ 36,500 $ 37,987")
    assert find_printed(36600.0, "USD millions", numbers) is None
    assert find_printed(8.74, "USD billions", numbers) is None


def test_a_one_digit_number_does_not_state_a_value_in_another_scale():
    numbers = printed_numbers("Par value $1 per share; net earnings $ 1,228")
    assert find_printed(1233.0, "USD millions", numbers) is None
    assert find_printed(1228.0, "USD millions", numbers).text == "$ 1,228"


def test_a_percentage_never_states_money():
    numbers = printed_numbers("Revenue grew 1.6% to a record")
    assert find_printed(1577.0, "USD millions", numbers) is None  # was "1.6%" read in billions
    assert find_printed(1.6, "%", numbers).text == "1.6%"


def test_a_note_page_or_item_number_is_a_reference_not_a_figure():
    numbers = printed_numbers("See Note 24 on page 1; Item 7. Level 2 inputs. Rate was 23.9%")
    assert find_printed(23.9, "%", numbers).text == "23.9%"
    assert [number.text for number in numbers] == ["23.9%"]
    assert find_printed(24.0, "%", printed_numbers("Note 24")) is None
    assert find_printed(1.21, "ratio", printed_numbers("page 1")) is None


def test_a_share_or_multiple_needs_its_own_precision_and_its_sign():
    assert find_printed(1.21, "ratio", printed_numbers("current ratio 1 to 2")) is None
    assert find_printed(1.21, "ratio", printed_numbers("current ratio 1.2")).text == "1.2"
    assert find_printed(-7.22, "%", printed_numbers("margin rose 7.2%")) is None
    assert find_printed(-7.22, "%", printed_numbers("margin fell (7.2)%")) is not None
    assert find_printed(7.22, "%", printed_numbers("change (7.2)%")) is None


def test_a_negative_amount_needs_a_negative_printing():
    numbers = printed_numbers("Net income 1,228")
    assert find_printed(-1228.0, "USD millions", numbers) is None
    assert find_printed(-1228.0, "USD millions", printed_numbers("Net loss (1,228)")) is not None
    # an outflow printed in brackets states the amount asked for
    assert find_printed(1577.0, "USD millions", printed_numbers("Capex (1,577)")) is not None
