"""Headless rendering of studio scenes (pyrender, OSMesa on CPU or EGL on GPU), measurements on
the frames (exposure, framing) and the scene adjustments that fix them.

Importing this package loads no OpenGL: `renderer.render` does, once per process (see `_gl`).
"""
