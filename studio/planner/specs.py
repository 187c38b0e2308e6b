"""What a request asks for, as plain data: objects, relations between them, lighting."""

from __future__ import annotations

from dataclasses import dataclass, field

Srgb = tuple[int, int, int]


class GrammarError(ValueError):
    """A request the offline planner cannot turn into a scene; the message says why."""


@dataclass
class ObjectSpec:
    noun: str
    count: int = 1
    colour: Srgb | None = None
    colour_word: str = ""
    material: str = ""
    sizes: dict[str, float] = field(default_factory=dict)
    """Measured dimensions in metres by role: size, height, width, length, depth, diameter,
    radius, thickness; or `dims` given as three lengths in any order (dims_x/y/z)."""
    stacked: bool = False
    arrangement: str = ""
    """row | circle | grid | pyramid: how the copies stand together ('' = side by side)."""
    levels: list[int] = field(default_factory=list)
    """Copies per level, bottom first, for a pyramid."""
    open: bool = False
    """A container asked for (or needed) open, so things can go inside."""
    said: str = ""
    """The words the person named it by ('lamp', 'floor lamp'); '' when not known."""
    upload: str = ""
    """The uploaded mesh's noun when this object is a workspace upload (see planner.uploads)."""
    scale: float = 1.0
    """How much smaller or bigger than usual it was asked for ('a small bed': 0.75), used where
    no size is given."""

    @property
    def size_stated(self) -> bool:
        return bool(self.sizes)


@dataclass(frozen=True)
class RelationSpec:
    subject: int
    kind: str
    target: int
    second: int | None = None
    """The second target of 'between' (or of 'across' two supports)."""


@dataclass
class LightingSpec:
    mood: str = "studio"
    direction: str = ""
    kind: str = ""
    """spot | point | directional | area: a light of that type besides the mood's rig."""
    kelvin: float | None = None
    """A colour temperature asked for ("3000 K"), which wins over the mood's colour."""
    target: str = ""
    """The catalogue key of the object a spotlight points at ('' = the scene's centre)."""


@dataclass
class ParsedRequest:
    objects: list[ObjectSpec] = field(default_factory=list)
    relations: list[RelationSpec] = field(default_factory=list)
    lighting: LightingSpec | None = None
    unparsed: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)
    """Words in the place of an object that the catalogue does not have."""
    notes: list[str] = field(default_factory=list)
