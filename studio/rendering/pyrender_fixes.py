"""Workarounds for pyrender behaviours (see studio/rendering/renderer.py's docstring).

* its shader cache never hits (keys hold a fresh ctypes pointer per call), so `ProgramCache`
  replaces it for our renderers;
* its fragment shader filters every shadow map (9 bilinear taps of 4 texels) before it looks
  whether the fragment is beyond the light's far plane, where the shadow is 0 anyway. The cache
  compiles `mesh.frag` with that test moved first (`shadow_shader_source`): the same image, and
  a light that casts no shadow (whose light matrix puts everything beyond its far plane, see
  the renderer) costs no texture taps at all. On Mesa's software rasteriser that sampling was
  about half of a 1024x768 frame lit by one shadowed and two plain directional lights;
* those 9 taps of 4 texels read only 16 different texels (a 4 x 4 block: the taps are one
  texel apart and share their bilinear weights; per column 1 - f, 1, 1 and f, the same per
  row), 20 of the 36 reads twice. The patched filter makes the shadow maps depth-comparison
  textures with bilinear filtering (`compare_filtered`) and reads the block in four lookups,
  each comparing two by two texels and blending them with the weights that give each texel its
  summed one: the same shadow, pixel for pixel in our renders, for about a tenth less time per
  frame on the software rasteriser than reading the 16 texels one by one.

The same patched `mesh.frag` also gets a procedural sky (`sky_shader_source`): pyrender's only
environment term is a flat `base colour * ambient_light`, under which a polished metal, which
has no diffuse colour, reflects nothing and reads as a dark, flat disc. With the uniform
`sky_light` (linear RGB, the sky's radiance at the horizon; see `lights.SKY_STRENGTH`) above
zero the ambient term becomes a cheap image-free environment light:

* diffuse: the ambient light times a hemisphere tint, `SKY_ZENITH` facing up blended to
  `SKY_GROUND` facing down by the normal's y, on the diffuse (non-metal) part of the colour;
* specular: a sky gradient (`SKY_ZENITH` overhead, white at the horizon, `SKY_GROUND` below)
  looked up along the reflected view vector and scaled by `sky_light`, softened by the
  roughness, times Schlick's Fresnel (f0 is 0.04 for dielectrics and the base colour for
  metals). It is blended by (1 - roughness) with the hemisphere term, so rough metals keep
  about the old ambient and polished ones mirror the sky;
* transparent surfaces (alpha < 1) take the reflection on top of what shows through them:
  their alpha grows by the reflected fraction, so glass shows the sky at grazing angles.

It adds a few arithmetic instructions per fragment and no texture lookups or lights. With
`sky_light` zero (the uniform's default, or `render(..., sky=False)`) the shader computes
exactly pyrender's original ambient term.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

SHADOW_TEST = "    float current_depth = light_coords.z;\n"
PCF_LOOP = """    float result = 0.0;
    for(int x=-1; x<=1; x++){
        for(int y=-1; y<=1; y++){
            vec2 off = vec2(x,y)/size;
            result += texture2DShadowLerp(depths, size, uv+off, compare);
        }
    }
    return result/9.0;
"""
PCF_HEAD = "float PCF(sampler2D depths, vec2 size, vec2 uv, float compare){\n"
PCF_TEXELS = """    vec2 f = fract(uv * size + 0.5);
    vec2 k = floor(uv * size + 0.5);
    vec2 low = 2.0 - f;
    vec2 high = 1.0 + f;
    vec2 a = (k - 0.5 + 1.0 / low) / size;
    vec2 b = (k + 1.5 + f / high) / size;
    float result = low.x * low.y * texture(depths, vec3(a.x, a.y, compare))
        + high.x * low.y * texture(depths, vec3(b.x, a.y, compare))
        + low.x * high.y * texture(depths, vec3(a.x, b.y, compare))
        + high.x * high.y * texture(depths, vec3(b.x, b.y, compare));
    return result / 9.0;
"""
SHADOW_SAMPLERS = (
    ("    sampler2D shadow_map;\n", "    sampler2DShadow shadow_map;\n"),
    (PCF_HEAD, "float PCF(sampler2DShadow depths, vec2 size, vec2 uv, float compare){\n"),
    (
        "float shadow_calc(mat4 light_matrix, sampler2D shadow_map, float nl)",
        "float shadow_calc(mat4 light_matrix, sampler2DShadow shadow_map, float nl)",
    ),
)
EARLY_OUT = "    if (light_coords.z > 1.0) {\n        return 0.0;\n    }\n"


AMBIENT_LINE = "    color.xyz += base_color.xyz * ambient_light;\n"
OUTPUT_LINE = (
    "    frag_color = clamp(vec4(pow(color.xyz, vec3(1.0/2.2)), "
    "color.a * base_color.a), 0.0, 1.0);\n"
)
UNIFORM_LINE = "uniform vec3 ambient_light;\n"
SKY_UNIFORMS = """uniform vec3 sky_light;
const vec3 SKY_ZENITH = vec3(0.70, 0.80, 1.00);
const vec3 SKY_GROUND = vec3(0.30, 0.28, 0.26);
const vec3 HEMI_UP = vec3(1.10, 1.15, 1.25);
const vec3 HEMI_DOWN = vec3(0.85, 0.80, 0.75);
"""
SKY_AMBIENT = """    float sky_alpha = base_color.a;
    if (max(sky_light.r, max(sky_light.g, sky_light.b)) > 0.0) {
        vec3 sky_v = normalize(cam_pos - frag_position);
        float sky_nv = clamp(abs(dot(n, sky_v)), 0.0, 1.0);
        vec3 sky_r = reflect(-sky_v, n);
        vec3 hemisphere = mix(HEMI_DOWN, HEMI_UP, 0.5 + 0.5 * n.y);
        float soft = 0.02 + 0.5 * roughness;
        vec3 above = mix(vec3(1.0), SKY_ZENITH, clamp(sky_r.y, 0.0, 1.0));
        vec3 gradient = mix(SKY_GROUND, above, smoothstep(-soft, soft, sky_r.y));
        vec3 fresnel = f0 + (1.0 - f0) * pow(1.0 - sky_nv, 5.0);
        float gloss = 1.0 - roughness;
        vec3 reflected = fresnel * mix(hemisphere * ambient_light, gradient * sky_light, gloss);
        color.xyz += (1.0 - metallic) * base_color.xyz * hemisphere * ambient_light;
        float reflected_part = clamp(max(fresnel.r, max(fresnel.g, fresnel.b)) * gloss, 0.0, 1.0);
        sky_alpha = base_color.a + (1.0 - base_color.a) * reflected_part;
        color.xyz = (base_color.a * color.xyz + reflected) / max(sky_alpha, 0.001);
    } else {
        color.xyz += base_color.xyz * ambient_light;
    }
"""
SKY_OUTPUT = (
    "    frag_color = clamp(vec4(pow(color.xyz, vec3(1.0/2.2)), color.a * sky_alpha), 0.0, 1.0);\n"
)


def sky_shader_source(source: str) -> str:
    """pyrender's `mesh.frag` with the procedural sky (see the module docstring). A shader that
    does not read as expected is returned as it is (and renders without the sky)."""
    if any(source.count(line) != 1 for line in (AMBIENT_LINE, OUTPUT_LINE, UNIFORM_LINE)):
        return source
    source = source.replace(UNIFORM_LINE, UNIFORM_LINE + SKY_UNIFORMS)
    source = source.replace(AMBIENT_LINE, SKY_AMBIENT)
    return source.replace(OUTPUT_LINE, SKY_OUTPUT)


def compares_in_filter(source: str) -> bool:
    """Whether `shadow_shader_source` gives this `mesh.frag` the comparing filter (whose shadow
    maps must then be `compare_filtered`)."""
    return source.count(PCF_HEAD + PCF_LOOP) == 1 and all(
        source.count(before) == (2 if before == SHADOW_SAMPLERS[0][0] else 1)
        for before, _ in SHADOW_SAMPLERS
    )


def shadow_shader_source(source: str) -> str:
    """pyrender's `mesh.frag` with the beyond-the-far-plane test before the filtering (the
    result is unchanged: the shader sets the shadow to 0 there after filtering), and the filter
    that compares in four lookups (see the module docstring). A part of the shader that does not
    read as expected is left as it is."""
    if source.count(SHADOW_TEST) == 1:
        source = source.replace(SHADOW_TEST, SHADOW_TEST + EARLY_OUT)
    if compares_in_filter(source):
        for before, after in SHADOW_SAMPLERS:
            source = source.replace(before, after)
        source = source.replace(PCF_LOOP, PCF_TEXELS)
    return source


class ProgramCache:
    """Stands in for pyrender's ShaderProgramCache, keyed without the GL context (see above)."""

    def __init__(self, pyrender: ModuleType) -> None:
        shader_program = pyrender.shader_program
        self._program_class = shader_program.ShaderProgram
        self.shader_dir: str = shader_program.ShaderProgramCache().shader_dir
        self.compares_shadows = compares_in_filter(Path(self.shader_dir, "mesh.frag").read_text())
        """The compiled `mesh.frag` samples shadow maps as depth-comparison textures."""
        self._programs: dict[tuple[Any, ...], Any] = {}
        self._patched: dict[str, str] = {}

    def _path(self, name: str) -> str:
        path = os.path.join(self.shader_dir, name)
        if name != "mesh.frag":
            return path
        if name not in self._patched:
            # ShaderProgram reads files: the patched source goes to a private temporary file.
            folder = Path(tempfile.mkdtemp(prefix="studio-shaders-"))
            target = folder / name
            target.write_text(sky_shader_source(shadow_shader_source(Path(path).read_text())))
            self._patched[name] = str(target)
        return self._patched[name]

    def get_program(
        self,
        vertex_shader: str,
        fragment_shader: str,
        geometry_shader: str | None = None,
        defines: dict[str, Any] | None = None,
    ) -> Any:
        defines = dict(defines or {})
        names = (vertex_shader, fragment_shader, geometry_shader)
        key = (names, tuple(sorted(defines.items())))
        program = self._programs.get(key)
        if program is None:
            paths = [None if n is None else self._path(n) for n in names]
            program = self._program_class(
                vertex_shader=paths[0],
                fragment_shader=paths[1],
                geometry_shader=paths[2],
                defines=defines,
            )
            self._programs[key] = program
        return program

    def clear(self) -> None:
        for program in self._programs.values():
            program.delete()
        self._programs = {}


def compare_filtered(texture: Any) -> None:
    """Make a light's shadow map a depth-comparison texture with bilinear filtering, which the
    patched filter (`PCF_TEXELS`) samples: each lookup compares four texels and blends them."""
    if texture is None:
        return
    from OpenGL import GL  # type: ignore[import-untyped]

    texture._bind()
    GL.glTexParameteri(GL.GL_TEXTURE_2D, GL.GL_TEXTURE_COMPARE_MODE, GL.GL_COMPARE_REF_TO_TEXTURE)
    GL.glTexParameteri(GL.GL_TEXTURE_2D, GL.GL_TEXTURE_COMPARE_FUNC, GL.GL_GREATER)
    GL.glTexParameteri(GL.GL_TEXTURE_2D, GL.GL_TEXTURE_MIN_FILTER, GL.GL_LINEAR)
    GL.glTexParameteri(GL.GL_TEXTURE_2D, GL.GL_TEXTURE_MAG_FILTER, GL.GL_LINEAR)
