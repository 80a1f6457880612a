"""Chat page: the conversation above, the question box pinned at the bottom. Each answer appears at once
(card, follow-ups, sources, reply, feedback) and the model's text streams into its own box afterwards;
a follow-up replaces the answer it completes, in place. `?q=…&facts=…` recomputes an answer."""
from __future__ import annotations

import logging
from typing import Any

import streamlit as st

import rules
from app_support.answer_view import render_answer
from app_support.char_counter import question_counter
from app_support.conversation import Pending, Turn, Version, new_turn, save, turns
from app_support.history import facts_from_json
from app_support.quick_inputs import describe_facts, quick_inputs_for, with_reading
from app_support.redaction import redact
from app_support.render import state_label
from app_support.resources import assistant, settings
from app_support.safe_markdown import plain
from app_support.ui import ui_lang
from app_support.widgets import quick_input_widget
from assistant.understand import validate_question
from i18n import t
from rules.labels import topic_label

log = logging.getLogger("treaty_app")
EXAMPLES = 3
OPEN_FORM_MAX = 2          # missing facts asked in a form shown open


def reading_choices(turn: Turn, ui: str) -> None:
    """One button per candidate treaty of an uncertain question: re-asks it with that assumption stated."""
    answer, current = turn.current.answer, turn.current
    if not answer.readings:
        return
    st.markdown(f"**{t(ui, 'app.reading_choice')}**")
    for choice in answer.readings:
        if st.button(choice.label, key=f"rd-{turn.id}-{len(turn.versions)}-{choice.treaty}", width="stretch"):
            question = with_reading(current.question, choice)
            st.session_state.pending = Pending(question, current.facts, question, turn.id)
            st.rerun()


def quick_inputs(turn: Turn, ui: str) -> None:
    current = turn.current
    asks = quick_inputs_for(current.answer.missing_facts)
    if not asks:
        return
    # a short form is shown open; a long one (many facts missing) waits one click, so the answer stays short
    with st.expander(t(ui, "app.follow_up.title", n=len(asks)), expanded=len(asks) <= OPEN_FORM_MAX,
                     icon=":material/edit_note:"), st.form(f"qi-{turn.id}-{len(turn.versions)}", border=False):
        added: dict[str, Any] = {}
        for q in asks:
            added.update(quick_input_widget(q, f"qi-{turn.id}-{len(turn.versions)}-{q.fact}", ui))
        if st.form_submit_button(t(ui, "app.follow_up.submit"), type="primary", icon=":material/replay:"):
            if not added:
                st.warning(t(ui, "app.follow_up.none"))
                return
            shown = f"{current.question}\n\n*(+ {describe_facts(added, ui)})*"
            st.session_state.pending = Pending(current.question, {**current.facts, **added}, shown, turn.id)
            st.rerun()


def follow_ups(turn: Turn, ui: str) -> None:
    reading_choices(turn, ui)
    quick_inputs(turn, ui)


def show_turn(turn: Turn, ui: str) -> None:
    with st.chat_message("user"):
        st.markdown(plain(turn.current.shown))
    with st.chat_message("assistant"):
        render_answer(turn, ui, follow_ups)


def answer_into(turn: Turn, pending: Pending, position: int, ui: str) -> None:
    """Answers a pending question into `turn` (a new version of it): everything but the model text appears
    with the card; the model's tokens stream into their own box below."""
    with st.chat_message("user"):
        st.markdown(plain(pending.shown))
    with st.chat_message("assistant"):
        body = st.container()
        streamed, box, carded = "", None, False
        try:  # no lock: the model server queues concurrent sessions, so every card appears at once
            for ev in assistant().stream(pending.question, extra_facts=pending.facts or None):
                if ev.kind == "card":
                    turn.versions.append(Version(pending.question, pending.facts, pending.shown, ev.answer))
                    carded = True
                    save(turn, position)
                    with body:
                        box = render_answer(turn, ui, follow_ups, live=True)
                    if box is not None and assistant().chat_model is not None:
                        box.caption(t(ui, "app.model.writing"))
                elif ev.kind == "token" and box is not None:
                    streamed += ev.text
                    with box.container(border=True):
                        st.caption(t(ui, "app.model.caption"))
                        st.markdown(plain(streamed) + "▌")
                elif ev.kind == "final":
                    final = Version(pending.question, pending.facts, pending.shown, ev.answer)
                    if carded:
                        turn.versions[-1] = final
                    else:
                        turn.versions.append(final)
                    save(turn, position)
        except Exception as exc:  # noqa: BLE001 - the agent must see a message, never a traceback
            log.exception("erro ao responder a %r", redact(pending.question))
            st.error(t(ui, "app.chat.internal_error", error=type(exc).__name__))
            if not turn.versions:
                turns().remove(turn)
            return
    log.info("pergunta respondida: %r", redact(pending.question))
    st.rerun()


def welcome(ui: str) -> None:
    """The first screen: what the assistant does, example questions, the treaties it covers."""
    st.markdown(t(ui, "app.chat.intro"))
    cols = st.columns(EXAMPLES)
    for i, col in enumerate(cols):
        example = t(ui, f"app.chat.example_{i + 1}")
        if col.button(example, key=f"ex-{i}", icon=":material/lightbulb:", width="stretch"):
            st.session_state.pending = Pending(example, {}, example)
            st.rerun()
    st.caption(t(ui, "app.chat.covered_title"))
    for c in rules.coverage():
        parties = " – ".join(state_label(p, ui) for p in c.parties) or "MLI"
        st.caption(f"**{c.treaty}** ({parties}): " + ", ".join(topic_label(x, ui) for x in c.topics))


def from_url() -> Pending | None:
    """A question in the URL (`?q=…&facts=…`), asked once and then removed from the URL."""
    question = st.query_params.get("q")
    if not question:
        return None
    raw_facts = st.query_params.get("facts")
    for name in ("q", "facts"):
        st.query_params.pop(name, None)
    try:
        facts = facts_from_json(raw_facts)
    except ValueError:
        st.error(t(ui_lang(), "app.chat.bad_link"))
        return None
    return Pending(question, facts, question)


def too_long(text: str, limit: int, ui: str) -> None:
    """An over-long question is answered with what to do, and kept to copy from; it is never sent."""
    with st.chat_message("assistant"):
        st.error(t(ui, "app.question_box.too_long", n=len(text), max=limit))
        with st.expander(t(ui, "app.question_box.pasted"), icon=":material/content_paste:"):
            st.code(text, language=None, wrap_lines=True)


def chat_page() -> None:
    ui = ui_lang()
    st.subheader(t(ui, "app.chat.title"))
    history = turns()
    pending = st.session_state.pop("pending", None) or from_url()
    if not history and pending is None:
        welcome(ui)
    for i, turn in enumerate(history):
        if pending is not None and pending.turn == turn.id:
            answer_into(turn, pending, i, ui)
        else:
            show_turn(turn, ui)
    if pending is not None and pending.turn is None:
        turn = new_turn()
        history.append(turn)
        answer_into(turn, pending, len(history) - 1, ui)
    limit = settings().max_question_chars
    refused = st.container()   # above the counter, which stays last, next to the box
    question_counter(limit, ui)
    # no max_chars: the browser would drop an over-long paste without a word; it is answered instead
    asked = st.chat_input(t(ui, "app.chat.placeholder"))
    if asked is not None and len(asked) > limit:
        with refused:
            too_long(asked, limit, ui)
    elif asked is not None:
        problem = validate_question(asked, limit)
        if problem:
            st.error(problem)
        else:
            st.session_state.pending = Pending(asked, {}, asked)
            st.rerun()


chat_page()
