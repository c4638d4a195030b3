"""Pictures of the board: ``render_png(scene)`` and ``render_animation(scenes)``.

A scene (format in :mod:`renderer.scene`) is plain data a ruleset builds; the renderer knows
no rules. See docs/rendering.md for the picture's layout, the caching and the measured speed.
"""

from .layout import Layout, SceneError, cell_center, layout_for
from .render import (
    Drawn,
    cache_info,
    clear_cache,
    encode_png,
    render_animation,
    render_image,
    render_png,
    render_with_layout,
)

__all__ = [
    "render_png",
    "render_animation",
    "render_image",
    "cell_center",
    "layout_for",
    "Layout",
    "SceneError",
    "cache_info",
    "clear_cache",
    "encode_png",
    "render_with_layout",
    "Drawn",
]
