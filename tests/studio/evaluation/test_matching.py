"""Which objects a check's name means: copies, categories, and the head word of a compound."""

from __future__ import annotations

from studio.evaluation.glb_scene import ObjectView
from studio.evaluation.matching import answers_to


def view(name: str, category: str = "") -> ObjectView:
    return ObjectView(name, category, "box", (0.0, 0.0, 0.0), (1.0, 1.0, 1.0), (0.5, 0.5, 0.5))


def test_a_coffee_table_is_a_table_but_a_desk_lamp_is_not_a_desk():
    assert answers_to(view("coffee-table"), "table")
    assert answers_to(view("desk-lamp"), "lamp")
    assert not answers_to(view("desk-lamp"), "desk")
    assert answers_to(view("desk"), "desk")


def test_numbered_copies_plurals_and_categories_answer():
    assert answers_to(view("book-3"), "books")
    assert answers_to(view("office-chair-2"), "chairs")
    assert answers_to(view("crate-1", category="crate"), "crate")
    assert answers_to(view("sofa-1", category="couch"), "couch")
    assert not answers_to(view("chair-1"), "table")


def test_a_numbered_copy_answers_to_its_own_name_only():
    assert answers_to(view("cube-1"), "cube-1")
    assert answers_to(view("Cube_1"), "cube 1")
    assert not answers_to(view("cube-2"), "cube-1")
    assert not answers_to(view("cube-12"), "cube-1")


def test_a_closed_compound_is_not_its_last_part_even_when_labelled_so():
    # The name says what the object is: a toolbox, a mailbox, a boxwood hedge are no boxes,
    # whatever category the product gave them (a box primitive, a catalogue stand-in).
    for name in ("toolbox", "mailbox", "boxwood-hedge", "box-lid"):
        assert not answers_to(view(name, category="box"), "box"), name
        assert not answers_to(view(name, category="box"), "boxes"), name
    assert answers_to(view("toolbox", category="box"), "toolbox")
    assert answers_to(view("red box"), "box")
    assert answers_to(view("box 2"), "box")
    assert answers_to(view("box2"), "box")
    assert answers_to(view("sofa-1", category="couch"), "couch")  # the name does not say


def test_the_head_of_a_phrase_with_of_or_with_is_its_first_noun():
    assert answers_to(view("box-of-chocolates"), "box")
    assert not answers_to(view("box-of-chocolates"), "chocolates")
    assert answers_to(view("bowl_with_fruit-2"), "bowl")
    assert not answers_to(view("bowl_with_fruit-2"), "fruit")
    assert answers_to(view("box-of-chocolates"), "box of chocolates")


def test_a_requested_compound_matches_the_end_of_the_name():
    assert answers_to(view("oak-coffee-table-2"), "coffee table")
    assert answers_to(view("oak-coffee-table-2"), "coffee tables")
    assert not answers_to(view("coffee-table"), "side table")
