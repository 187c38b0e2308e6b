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
