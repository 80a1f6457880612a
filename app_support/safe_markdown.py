"""Text typed by a user or written by the model is shown as text: no images, no raw HTML.

A markdown image (`![x](https://…)`, `![x][ref]`) or an `<img>` tag would make every agent's browser fetch
an outside URL when the turn is shown. The replacements are HTML entities, which read the same on screen
in st.markdown with or without unsafe_allow_html, but are never markdown or HTML syntax.
"""
from __future__ import annotations

import re

_IMAGE_START = re.compile(r"\\?!(?=\[)")
_TAG_START = re.compile(r"<(?=[A-Za-z/!?])")


def without_images(text: str) -> str:
    """Markdown image syntax turned into plain text (the "!" of "![" becomes an entity)."""
    return _IMAGE_START.sub("&#33;", text)


def plain(text: str) -> str:
    """User or model text made safe for st.markdown: no images and no HTML tags (shown as typed)."""
    return without_images(_TAG_START.sub("&lt;", text))
