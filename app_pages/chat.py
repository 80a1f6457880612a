"""Chat page: the conversation above, the question box pinned at the bottom; each answer with its triage panel,
quick inputs for missing facts, sources, a reply draft and feedback."""
from __future__ import annotations

import logging
import uuid
from typing import Any

import streamlit as st

import rules
from app_support.char_counter import question_counter
from app_support.feedback import FeedbackError
from app_support.highlight import highlight_html
from app_support.quick_inputs import describe_facts, quick_inputs_for, with_reading
from app_support.redaction import redact
from app_support.render import reply_draft, state_pt, triage_rows
from app_support.resources import assistant, feedback_store, history_store, settings
from app_support.safe_markdown import plain, without_images
from app_support.sources import citation_cards
from app_support.widgets import quick_input_widget
from assistant.answer import Answer
from assistant.render import STATUS_MARK
from assistant.understand import validate_question
from i18n import t

log = logging.getLogger("treaty_app")


# The card marks met / unmet conditions with text symbols (also used in the CLI and the ticket draft);
# on screen they become Material icons, which need no emoji or symbol font.
CARD_MARKS = {STATUS_MARK["met"]: ":green[:material/check:]", STATUS_MARK["not_met"]: ":red[:material/close:]"}


def card_markdown(markdown: str) -> str:
    """The card as shown: marks as icons, and its line breaks kept (markdown would merge the lines)."""
    for mark, icon in CARD_MARKS.items():
        markdown = markdown.replace(mark, icon)
    return without_images(markdown).replace("\n", "  \n")


def ask(question: str, extra: dict[str, Any], shown: str) -> None:
    """Streams one answer (card first, then the explanation) and adds the turn to the history."""
    with st.chat_message("user"):
        st.markdown(plain(shown))
    with st.chat_message("assistant"):
        card, explanation = st.empty(), st.empty()
        answer: Answer | None = None
        streamed = ""
        try:  # no lock: the model server queues concurrent sessions, so every card appears at once
            for ev in assistant().stream(question, extra_facts=extra or None):
                if ev.kind == "card":
                    card.markdown(card_markdown(ev.answer.card))
                elif ev.kind == "token":
                    streamed += ev.text
                    explanation.markdown(plain(streamed) + "▌")
                elif ev.kind == "final":
                    answer = ev.answer
        except Exception as exc:  # noqa: BLE001 - the agent must see a message, never a traceback
            log.exception("erro ao responder a %r", redact(question))
            st.error(f"Ocorreu um erro interno ao responder ({type(exc).__name__}). Tente novamente.")
            return
    if answer is not None:
        log.info("pergunta respondida: %r (%s)", redact(question), answer.treaty)
        st.session_state.turns.append({"id": uuid.uuid4().hex[:8], "question": question, "extra": extra,
                                       "shown": shown, "answer": answer, "feedback": None})
        save_turn(answer)
    st.rerun()


def save_turn(answer: Answer) -> None:
    """The answer into the team's conversation history; a store that is down costs the history, not the answer."""
    session_id = st.session_state.setdefault("session_id", uuid.uuid4().hex)
    try:
        history_store().save(session_id, answer)
    except FeedbackError as exc:
        log.warning("histórico não gravado: %s", exc)


def reading_choices(turn: dict[str, Any]) -> None:
    """One button per candidate treaty of an uncertain question: re-asks it with that assumption stated."""
    answer: Answer = turn["answer"]
    if not answer.readings:
        return
    st.markdown(f"**{t('pt', 'app.reading_choice')}**")
    for col, choice in zip(st.columns(len(answer.readings)), answer.readings):
        if col.button(choice.label, key=f"rd-{turn['id']}-{choice.treaty}"):
            question = with_reading(turn["question"], choice)
            st.session_state.pending = {"question": question, "extra": turn["extra"], "shown": question}
            st.rerun()


def quick_inputs(turn: dict[str, Any]) -> None:
    answer: Answer = turn["answer"]
    reading_choices(turn)
    asks = quick_inputs_for(answer.missing_facts)
    if not asks:
        return
    with st.form(f"qi-{turn['id']}", border=True):
        st.markdown("**Responder de novo com mais factos**")
        added: dict[str, Any] = {}
        for q in asks:
            added.update(quick_input_widget(q, f"qi-{turn['id']}-{q.fact}"))
        if st.form_submit_button("Voltar a responder com estes factos", type="primary", icon=":material/replay:"):
            if not added:
                st.warning("Indique pelo menos um dos factos em falta.")
                return
            st.session_state.pending = {"question": turn["question"], "extra": {**turn["extra"], **added},
                                        "shown": f"{turn['question']}\n\n*(+ {describe_facts(added)})*"}
            st.rerun()


def feedback(turn: dict[str, Any]) -> None:
    if turn["feedback"] is not None:
        icon = ":material/thumb_up:" if turn["feedback"] > 0 else ":material/thumb_down:"
        st.caption(f"Feedback registado: {icon}. Obrigado!")
        return
    with st.form(f"fb-{turn['id']}", border=False):
        comment = st.text_input("Comentário (opcional)", key=f"fb-{turn['id']}-comment",
                                placeholder="O que estava certo ou errado?")
        up, down = st.columns(2)
        rating = 1 if up.form_submit_button("Útil", icon=":material/thumb_up:") else (
            -1 if down.form_submit_button("Não útil", icon=":material/thumb_down:") else 0)
    if rating:
        try:
            # one key per answer: a click retried after a lost confirmation updates the same row
            feedback_store().record(turn["answer"], rating, comment,
                                    key=turn.setdefault("feedback_key", uuid.uuid4().hex))
        except FeedbackError as exc:
            st.error(str(exc))
            return
        turn["feedback"] = rating
        st.rerun()


def triage(answer: Answer) -> None:
    with st.container(border=True):
        st.markdown("**Triagem**")
        for label, value in triage_rows(answer):
            st.markdown(f"<small><b>{label}</b><br>{highlight_html(value)}</small>", unsafe_allow_html=True)


def show_turn(turn: dict[str, Any]) -> None:
    answer: Answer = turn["answer"]
    with st.chat_message("user"):
        st.markdown(plain(turn["shown"]))
    with st.chat_message("assistant"):
        if answer.error:
            st.error(plain(answer.error))
            return
        main, side = st.columns([2.3, 1])
        with main:
            with st.container(border=True):
                st.markdown(card_markdown(answer.card or answer.answer))
            if answer.abstained:
                covered = "; ".join(f"{c.treaty} ({' – '.join(state_pt(p) for p in c.parties) or 'multilateral'})"
                                    for c in rules.coverage())
                st.warning(f"Sem resposta segura a partir do corpus. O corpus cobre: {covered}.")
            if answer.explanation:
                st.markdown(plain(answer.explanation))
            for notice in answer.notices:
                st.info(plain(notice))
            if answer.follow_up:
                st.info(answer.follow_up)
            quick_inputs(turn)
            if answer.citations:
                st.markdown("**Fontes**")
                citation_cards(turn["id"], answer.citations)
            with st.expander("Rascunho de resposta para o ticket", icon=":material/edit_note:"):
                st.code(reply_draft(answer), language=None, wrap_lines=True)
                st.caption("Use o ícone de cópia no canto do bloco para copiar para a área de transferência.")
            feedback(turn)
        with side:
            triage(answer)


def too_long(text: str, limit: int) -> None:
    """An over-long question is answered with what to do, and kept to copy from; it is never sent."""
    with st.chat_message("assistant"):
        st.error(t("pt", "app.question_box.too_long", n=len(text), max=limit))
        with st.expander(t("pt", "app.question_box.pasted"), icon=":material/content_paste:"):
            st.code(text, language=None, wrap_lines=True)


st.caption("Pergunte em português, espanhol ou inglês; a resposta segue a língua da pergunta.")
for past in st.session_state.turns:
    show_turn(past)
pending = st.session_state.pop("pending", None)
if pending:
    ask(pending["question"], pending["extra"], pending["shown"])
limit = settings().max_question_chars
refused = st.container()   # above the counter, which stays last, next to the box
question_counter(limit)
# no max_chars: the browser would drop an over-long paste without a word; it is answered instead
asked = st.chat_input("Escreva a pergunta (ex.: Sou residente em Portugal e recebo dividendos do Brasil)")
if asked is not None and len(asked) > limit:
    with refused:
        too_long(asked, limit)
elif asked is not None:
    problem = validate_question(asked, limit)
    if problem:
        with refused:
            st.error(problem)
    else:
        ask(asked, {}, asked)
