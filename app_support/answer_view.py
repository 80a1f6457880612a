"""One answer on the chat page, in the order an agent uses it: the card (its [n] open the sources), the
follow-up questions, the sources collapsed, the reply to send, link / export, feedback, and last the model's
text in its own box. The triage panel beside it speaks to the agent; internals stay collapsed."""
from __future__ import annotations

import uuid
from typing import Callable
from urllib.parse import urlencode

import streamlit as st

import rules
from app_support.answer_export import answer_markdown, answer_pdf, font_dir
from app_support.conversation import Turn
from app_support.feedback import FeedbackError
from app_support.highlight import highlight_html
from app_support.history import facts_to_json
from app_support.render import reply_text, state_label, technical_rows, triage_rows
from app_support.resources import feedback_store
from app_support.safe_markdown import plain, without_images
from app_support.sources import anchor, paragraph_key, show_sources
from assistant.answer import Answer, CitationRef
from assistant.presentation.markdown import card_markdown as card_view
from assistant.presentation.reply import reply
from i18n import t

# On screen a condition's status is a Material icon (no emoji or symbol font needed); the CLI uses text marks.
CARD_MARKS = {"met": ":green[:material/check:]", "not_met": ":red[:material/close:]",
              "unknown": ":orange[:material/help:]", "assumed_not_met": "≈"}

FollowUps = Callable[[Turn, str], None]
REPLY_BOX_PX = 300          # the reply box's height when its text is longer than about that many lines
REPLY_BOX_CHARS = 900


def cite_targets(key: str, citations: list[CitationRef]) -> dict[int, str]:
    """Citation number -> the anchor of the source block that shows its paragraph (one per paragraph)."""
    first: dict[tuple, int] = {}
    out = {}
    for c in citations:
        n = first.setdefault(paragraph_key(c), c.n)
        out[c.n] = anchor(key, n)
    return out


def cite_link(targets: dict[int, str]) -> Callable[[int], str]:
    """How the card writes a citation number: a link to the source block that shows its paragraph."""
    return lambda n: f"[\\[{n}\\]](#{targets[n]})" if n in targets else f"[{n}]"


def small(text: str) -> str:
    """Notes and assumptions in smaller type: what the answer rests on, after it."""
    return f":small[{text}]"


def card_markdown(answer: Answer, targets: dict[int, str] | None = None) -> str:
    """The card as shown: statuses as icons, [n] as links to their source, line breaks kept (an abstention
    has no card data: its text is shown as it is)."""
    markdown = card_view(answer.card_data, CARD_MARKS, cite_link(targets or {}), small) \
        if answer.card_data is not None else (answer.card or answer.answer)
    return without_images(markdown).replace("\n", "  \n")


def answer_url(question: str, facts: dict) -> str:
    """The link that recomputes this answer (the deterministic part) in a fresh session."""
    params = {"q": question}
    if facts:
        params["facts"] = facts_to_json(facts)
    return "?" + urlencode(params)


def reply_block(turn: Turn, ui: str) -> None:
    """The reply to send, in the ticket's language: plain text (copy icon), the same as HTML one click away,
    the quoted passages added on request."""
    answer = turn.current.answer
    st.markdown(f"**{t(ui, 'app.reply.title', language=t(ui, f'app.ui.language_of_{answer.language}'))}**")
    if answer.card_data is None:
        st.code(reply_text(answer), language=None, wrap_lines=True)
        return
    quotes = st.toggle(t(ui, "app.reply.quotes"), key=f"rq-{turn.id}-{len(turn.versions)}")
    sendable = reply(answer.card_data, quotes=quotes)
    # a long reply scrolls in its box (the copy icon still copies all of it): the answer stays two screens tall
    st.code(sendable.text, language=None, wrap_lines=True,
            height=REPLY_BOX_PX if len(sendable.text) > REPLY_BOX_CHARS else "content")
    with st.expander(t(ui, "app.reply.html"), icon=":material/code:"):
        st.code(sendable.html, language="html", wrap_lines=True)


def _previous(turn: Turn, ui: str) -> None:
    if len(turn.versions) < 2:
        return
    with st.expander(t(ui, "app.answer.previous", n=len(turn.versions) - 1), icon=":material/history:"):
        for i, v in enumerate(turn.versions[:-1], 1):
            st.caption(t(ui, "app.answer.version", n=i) + " · " + plain(v.shown.splitlines()[0]))
            st.markdown(card_markdown(v.answer))


def feedback(turn: Turn, ui: str) -> None:
    version = len(turn.versions) - 1
    if version in turn.feedback:
        icon = ":material/thumb_up:" if turn.feedback[version] > 0 else ":material/thumb_down:"
        st.caption(t(ui, "app.feedback.thanks", icon=icon))
        return
    with st.form(f"fb-{turn.id}-{version}", border=False):
        comment = st.text_input(t(ui, "app.feedback.comment"), key=f"fb-{turn.id}-{version}-comment",
                                placeholder=t(ui, "app.feedback.placeholder"))
        up, down = st.columns(2)
        rating = 1 if up.form_submit_button(t(ui, "app.feedback.up"), icon=":material/thumb_up:") else (
            -1 if down.form_submit_button(t(ui, "app.feedback.down"), icon=":material/thumb_down:") else 0)
    if rating:
        try:
            # one key per answer: a click retried after a lost confirmation updates the same row
            key = turn.feedback_keys.setdefault(version, uuid.uuid4().hex)
            feedback_store().record(turn.current.answer, rating, comment, key=key)
        except FeedbackError as exc:
            st.error(t(ui, "app.feedback.error", error=exc))
            return
        turn.feedback[version] = rating
        st.rerun()


def triage(answer: Answer, ui: str) -> None:
    with st.container(border=True):
        st.markdown(f"**{t(ui, 'app.triage.title')}**")
        for label, value in triage_rows(answer, ui):
            st.markdown(f"<small><b>{label}</b><br>{highlight_html(value)}</small>", unsafe_allow_html=True)
        with st.expander(t(ui, "app.tech.title"), icon=":material/build:"):
            for label, value in technical_rows(answer, ui):
                st.markdown(f"<small><b>{label}</b><br>{highlight_html(value)}</small>", unsafe_allow_html=True)


def model_box(explanation: str, ui: str) -> None:
    if explanation:
        with st.container(border=True):
            st.caption(t(ui, "app.model.caption"))
            st.markdown(plain(explanation))


def render_answer(turn: Turn, ui: str, follow_ups: FollowUps, live: bool = False):
    """The whole answer; with `live`, returns the empty model box for the caller to stream into."""
    answer = turn.current.answer
    slot = None
    if answer.error:
        st.error(plain(answer.error))
        return slot
    main, side = st.columns([2.8, 1])
    with main:
        with st.container(border=True, key=f"card-{turn.id}"):
            st.markdown(card_markdown(answer, cite_targets(turn.id, answer.citations)))
        if answer.abstained:
            covered = "; ".join(f"{c.treaty} ({' – '.join(state_label(p, ui) for p in c.parties) or 'MLI'})"
                                for c in rules.coverage())
            st.warning(t(ui, "app.answer.covered", covered=covered))
        for notice in answer.notices:
            st.info(plain(notice))
        _previous(turn, ui)
        follow_ups(turn, ui)
        if answer.citations:
            show_sources(turn.id, answer.citations, ui, answer.language, answer.card_cites())
        if not answer.abstained:
            reply_block(turn, ui)
        link, export, export_pdf = st.columns(3)
        url = answer_url(turn.current.question, turn.current.facts)
        link.markdown(f"[:material/link: {t(ui, 'app.answer.link')}]({url})")
        export.download_button(t(ui, "app.answer.export"), data=answer_markdown(answer), mime="text/markdown",
                               file_name=f"resposta-{turn.id}.md", key=f"md-{turn.id}-{len(turn.versions)}",
                               icon=":material/download:", on_click="ignore")
        if font_dir() is not None:      # built on click: the PDF costs ~0.1 s, not paid by every rerun
            export_pdf.download_button(t(ui, "app.answer.export_pdf"), data=lambda: answer_pdf(answer),
                                   mime="application/pdf", file_name=f"resposta-{turn.id}.pdf",
                                   key=f"pdf-{turn.id}-{len(turn.versions)}", icon=":material/picture_as_pdf:",
                                   on_click="ignore")
        feedback(turn, ui)
        if live:
            slot = st.empty()
        else:
            model_box(answer.explanation, ui)
    with side:
        triage(answer, ui)
    return slot
