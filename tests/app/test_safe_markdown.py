"""User and model text reaches st.markdown without image or HTML syntax, but reads the same."""
import pytest

from app_support.highlight import highlight_html
from app_support.safe_markdown import plain, without_images

IMAGES = [
    "![logo](https://tracker.example/p.png)",
    "veja ![](http://x.example/a.gif) aqui",
    "![ref-style][r]\n\n[r]: https://tracker.example/p.png",
    "\\![escaped bang](https://tracker.example/p.png)",
]


@pytest.mark.parametrize("text", IMAGES)
def test_markdown_images_lose_their_syntax(text):
    out = plain(text)
    assert "![" not in out
    assert "&#33;[" in out


@pytest.mark.parametrize("text", ['<img src="https://tracker.example/p.png">', "<IMG SRC=x onerror=y>",
                                  "<picture><source srcset=https://x.example/a.png></picture>"])
def test_html_tags_are_shown_not_rendered(text):
    out = plain(text)
    assert "<" not in out and "&lt;" in out


@pytest.mark.parametrize("text", ["Taxa de 10% [1]; ver [art. 10](#a).", "juros < 5% e 3 > 2", "Olá!", "a ! [b]"])
def test_ordinary_text_is_unchanged(text):
    assert plain(text) == text


def test_corpus_passages_shown_as_html_have_no_image_syntax():
    out = highlight_html("texto ![x](https://tracker.example/p.png) 10%", "10%")
    assert "![" not in out and "<mark>10%</mark>" in out
    assert without_images("sem imagens") == "sem imagens"
