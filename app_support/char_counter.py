"""The question box's character counter: the limit shown before anything is sent, and how many characters are
left (or too many) while the question is typed or pasted.

Streamlit's chat input only counts once typing starts, and with max_chars it silently drops a paste over the
limit; so the box has no max_chars, this counter (a few lines of script in an iframe, reading the box
in the page) says where the limit is, and the page answers an over-long question with a message."""
from __future__ import annotations

import json

import streamlit as st

from i18n import t

_SCRIPT = """
<div id="counter" data-testid="questionCounter" aria-live="polite"
     style="font: 0.8rem 'Source Sans Pro', sans-serif; color: #6b6f7b; text-align: right;"></div>
<script>
const TEXTS = %(texts)s;
const MAX = %(max)d;
const counter = document.getElementById("counter");
function show() {
  const box = window.parent.document.querySelector('textarea[data-testid="stChatInputTextArea"]');
  const n = box ? box.value.length : 0;
  if (n === 0) { counter.textContent = TEXTS.limit; counter.style.color = "#6b6f7b"; }
  else if (n <= MAX) { counter.textContent = TEXTS.left.replace("@LEFT@", MAX - n); counter.style.color = "#6b6f7b"; }
  else { counter.textContent = TEXTS.over.replace("@OVER@", n - MAX); counter.style.color = "#d62728"; }
}
show();
setInterval(show, 250);
</script>
"""


def question_counter(max_chars: int, lang: str = "pt") -> None:
    """The counter, placed just above the chat input (pinned at the bottom of the page)."""
    texts = {"limit": t(lang, "app.question_box.limit", max=max_chars),
             "left": t(lang, "app.question_box.left", left="@LEFT@", max=max_chars),
             "over": t(lang, "app.question_box.over", over="@OVER@", max=max_chars)}
    st.iframe(_SCRIPT % {"texts": json.dumps(texts, ensure_ascii=False), "max": max_chars}, height=26)
