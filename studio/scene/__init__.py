"""The studio's scene model: plain dataclasses, exact dimensions in metres, +Y up (glTF)."""
