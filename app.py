"""Streamlit app for support agents: the chat with triage panel, the rule tools, the treaty browser and feedback.

Layout only: answers come from assistant/, rates and tests from rules/, texts from the parsed corpus.
`make run` starts it; `streamlit run app.py` also works.
"""
from __future__ import annotations

import logging
import threading
import uuid
from datetime import date
from typing import Any

import streamlit as st

import rules
from app_support.corpus_view import (article_view, articles, find_article, find_unit, languages,
                                     protocol_items)
from app_support.feedback import FeedbackError, FeedbackStore
from app_support.highlight import highlight_html
from app_support.quick_inputs import (QUICK_INPUTS, QuickInput, describe_facts, quick_inputs_for, to_facts,
                                      with_reading)
from app_support.redaction import redact
from app_support.render import (STEP_OUTCOME_PT, STEP_PT, WINDOW_RULE_PT, condition_line, cite_label, outcome_pt,
                                reply_draft, state_pt, triage_rows, yes_no)
from assistant.answer import Answer, CitationRef
from assistant.understand import validate_question
from config import Settings, load_settings
from ingest.corpus import cached_corpus
from ingest.units import ParsedDocument, Unit, normalise_ws
from rules.labels import topic_label

log = logging.getLogger("treaty_app")
LANGUAGE_PT = {"pt": "português", "es": "espanhol", "en": "inglês"}
COVERAGE_PT = {"full": "texto integral", "summary": "só um resumo", "partial": "texto parcial"}

st.set_page_config(page_title="Assistente de convenções fiscais", page_icon="⚖️", layout="wide")
st.markdown("<style>mark{background:#ffe08a;padding:0 .1em;border-radius:2px}"
            ".passage{font-size:.92rem;line-height:1.5}</style>", unsafe_allow_html=True)


# ------------------------------------------------------------------ resources (once per process)

@st.cache_resource(show_spinner=False)
def settings() -> Settings:
    return load_settings()


@st.cache_resource(show_spinner="A carregar o índice e os modelos (só na primeira vez)…")
def assistant():
    from assistant.pipeline import Assistant
    return Assistant.from_settings(settings())


@st.cache_resource(show_spinner=False)
def llm_lock() -> threading.Lock:
    """A local llama.cpp model is not safe to call from two sessions at once."""
    return threading.Lock()


@st.cache_resource(show_spinner=False)
def feedback_store() -> FeedbackStore:
    return FeedbackStore(settings().feedback_db)


@st.cache_resource(show_spinner=False)
def corpus() -> tuple[dict[str, Any], dict[str, ParsedDocument]]:
    catalog, docs = cached_corpus(settings().corpus_dir)
    return {d.id: d for d in catalog}, docs


# ------------------------------------------------------------------ sources

def show_article(doc: ParsedDocument, unit: Unit, highlight: Unit | None = None, quote: str = "") -> None:
    for indent, part in article_view(doc, unit).blocks():
        text = highlight_html(part.text, quote) if highlight is not None and part.uid == highlight.uid \
            else highlight_html(part.text)
        pad = "margin-left:1.5em;" if indent else ""
        st.markdown(f"<div class='passage' style='{pad}'>{text}</div>", unsafe_allow_html=True)


def source_card(key: str, n: int | None, doc_id: str, article: str | None, paragraph: str | None,
                subparagraph: str | None, quote: str, language: str = "pt", label: str = "",
                passage: str = "") -> None:
    """One numbered source: document, address, the paragraph with the cited words marked, the whole article.

    A passage found by retrieval (its quote is the passage itself) is shown unmarked."""
    catalog, docs = corpus()
    info, doc = catalog.get(doc_id), docs.get(doc_id)
    unit = find_unit(doc, article, paragraph, subparagraph, language) if doc else None
    with st.container(border=True):
        title = info.title if info else doc_id
        heading = f" — {unit.heading}" if unit is not None and unit.heading else ""
        st.markdown(f"**{f'[{n}] ' if n else ''}{label}**{heading}")
        st.caption(f"{doc_id} · {title}")
        text = passage or (unit.text if unit is not None else quote)
        marked = quote if normalise_ws(quote) != normalise_ws(text) else ""
        st.markdown(f"<div class='passage'>{highlight_html(text, marked)}</div>", unsafe_allow_html=True)
        if not marked:
            st.caption("Passagem encontrada pela pesquisa no corpus.")
        if doc is None:
            return
        for other in (lang for lang in languages(doc) if lang != language):
            if st.toggle(f"Mostrar o texto em {LANGUAGE_PT.get(other, other)}", key=f"{key}-{other}"):
                counterpart = find_unit(doc, article, paragraph, subparagraph, other)
                if counterpart is not None and counterpart.language == other:
                    st.markdown(f"<div class='passage'><i>{highlight_html(counterpart.text)}</i></div>",
                                unsafe_allow_html=True)
                else:
                    st.caption(f"Este trecho não tem versão em {LANGUAGE_PT.get(other, other)} no corpus.")
        whole = find_article(doc, article, language)
        if whole is not None:
            with st.expander("Abrir o artigo completo"):
                show_article(doc, whole, highlight=unit, quote=marked)
                for item in protocol_items(doc, whole.article, whole.language):
                    st.markdown(f"**{item.article}** — {item.heading}")
                    st.markdown(f"<div class='passage'>{highlight_html(item.text)}</div>", unsafe_allow_html=True)


def citation_cards(key: str, cites: list[CitationRef]) -> None:
    for c in cites:
        source_card(f"{key}-c{c.n}", c.n, c.doc, c.article, c.paragraph, c.subparagraph, c.quote, c.language,
                    c.label(), c.passage)


def rule_citation_cards(key: str, cites: list[rules.Citation]) -> None:
    seen: set[tuple] = set()
    for i, c in enumerate(cites, 1):
        if (c.doc, c.article, c.paragraph, c.subparagraph, c.quote) in seen:
            continue
        seen.add((c.doc, c.article, c.paragraph, c.subparagraph, c.quote))
        source_card(f"{key}-{i}", None, c.doc, c.article, c.paragraph, c.subparagraph, c.quote, c.language,
                    cite_label(c))


# ------------------------------------------------------------------ chat

def hard_breaks(markdown: str) -> str:
    """The card is written line by line; keep its line breaks (markdown would merge them)."""
    return markdown.replace("\n", "  \n")


def ask(question: str, extra: dict[str, Any], shown: str) -> None:
    """Streams one answer (card first, then the explanation) and adds the turn to the history."""
    with st.chat_message("user"):
        st.markdown(shown)
    with st.chat_message("assistant"):
        card, explanation = st.empty(), st.empty()
        answer: Answer | None = None
        streamed = ""
        lock = llm_lock() if settings().llm_backend == "local" else None
        try:
            if lock:
                lock.acquire()
            for ev in assistant().stream(question, extra_facts=extra or None):
                if ev.kind == "card":
                    card.markdown(hard_breaks(ev.answer.card))
                elif ev.kind == "token":
                    streamed += ev.text
                    explanation.markdown(streamed + "▌")
                elif ev.kind == "final":
                    answer = ev.answer
        except Exception as exc:  # noqa: BLE001 - the agent must see a message, never a traceback
            log.exception("erro ao responder a %r", redact(question))
            st.error(f"Ocorreu um erro interno ao responder ({type(exc).__name__}). Tente novamente.")
            return
        finally:
            if lock:
                lock.release()
    if answer is not None:
        log.info("pergunta respondida: %r (%s)", redact(question), answer.treaty)
        st.session_state.turns.append({"id": uuid.uuid4().hex[:8], "question": question, "extra": extra,
                                       "shown": shown, "answer": answer, "feedback": None})
    st.rerun()


def quick_input_widget(q: QuickInput, key: str) -> dict[str, Any]:
    if q.kind == "choice":
        value = st.radio(q.label, list(q.options or {}), format_func=(q.options or {}).get, index=None,
                         horizontal=True, key=key)
    elif q.kind == "bool":
        value = st.radio(q.label, [True, False], format_func=yes_no, index=None, horizontal=True, key=key)
    elif q.kind == "percent":
        value = st.number_input(q.label, min_value=0.0, max_value=100.0, value=None, step=1.0, key=key)
    elif q.kind == "years":
        value = st.number_input(q.label, min_value=0.0, value=None, step=1.0, key=key)
    else:                                           # "since": the holding date and the payment date
        cols = st.columns(2)
        value = cols[0].date_input(q.label, value=None, max_value=date.today(), format="DD/MM/YYYY", key=key)
        paid = cols[1].date_input("Data do pagamento", value=date.today(), format="DD/MM/YYYY", key=f"{key}-paid")
        return to_facts(q, value, paid)
    return to_facts(q, value)


def reading_choices(turn: dict[str, Any]) -> None:
    """One button per candidate treaty of an uncertain question: re-asks it with that assumption stated."""
    answer: Answer = turn["answer"]
    if not answer.readings:
        return
    st.markdown("**Qual é o seu caso?**")
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
        if st.form_submit_button("Voltar a responder com estes factos", type="primary"):
            if not added:
                st.warning("Indique pelo menos um dos factos em falta.")
                return
            st.session_state.pending = {"question": turn["question"], "extra": {**turn["extra"], **added},
                                        "shown": f"{turn['question']}\n\n*(+ {describe_facts(added)})*"}
            st.rerun()


def feedback(turn: dict[str, Any]) -> None:
    if turn["feedback"] is not None:
        st.caption(f"Feedback registado: {'👍' if turn['feedback'] > 0 else '👎'}. Obrigado!")
        return
    with st.form(f"fb-{turn['id']}", border=False):
        comment = st.text_input("Comentário (opcional)", key=f"fb-{turn['id']}-comment",
                                placeholder="O que estava certo ou errado?")
        up, down = st.columns(2)
        rating = 1 if up.form_submit_button("👍 Útil") else (-1 if down.form_submit_button("👎 Não útil") else 0)
    if rating:
        try:
            feedback_store().record(turn["answer"], rating, comment)
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
        st.markdown(turn["shown"])
    with st.chat_message("assistant"):
        if answer.error:
            st.error(answer.error)
            return
        main, side = st.columns([2.3, 1])
        with main:
            with st.container(border=True):
                st.markdown(hard_breaks(answer.card or answer.answer))
            if answer.abstained:
                covered = "; ".join(f"{c.treaty} ({' – '.join(state_pt(p) for p in c.parties) or 'multilateral'})"
                                    for c in rules.coverage())
                st.warning(f"Sem resposta segura a partir do corpus. O corpus cobre: {covered}.")
            if answer.explanation:
                st.markdown(answer.explanation)
            for notice in answer.notices:
                st.info(notice)
            if answer.follow_up:
                st.info(answer.follow_up)
            quick_inputs(turn)
            if answer.citations:
                st.markdown("**Fontes**")
                citation_cards(turn["id"], answer.citations)
            with st.expander("Rascunho de resposta para o ticket"):
                st.code(reply_draft(answer), language=None, wrap_lines=True)
                st.caption("Use o ícone de cópia no canto do bloco para copiar para a área de transferência.")
            feedback(turn)
        with side:
            triage(answer)


def chat_tab() -> None:
    st.caption("Pergunte em português, espanhol ou inglês; a resposta segue a língua da pergunta.")
    for turn in st.session_state.turns:
        show_turn(turn)
    pending = st.session_state.pop("pending", None)
    if pending:
        ask(pending["question"], pending["extra"], pending["shown"])
    question = st.chat_input("Escreva a pergunta (ex.: Sou residente em Portugal e recebo dividendos do Brasil)",
                             max_chars=settings().max_question_chars)
    if question is not None:
        problem = validate_question(question, settings().max_question_chars)
        if problem:
            st.error(problem)
        else:
            ask(question, {}, question)


# ------------------------------------------------------------------ tools (all call rules/ directly)

def _treaty_label(code: str) -> str:
    parties = rules.known_treaties().get(code, ())
    return f"{code} ({' – '.join(state_pt(p) for p in parties)})" if parties else code


def _covering(topic: str) -> list[str]:
    return [c.treaty for c in rules.coverage() if topic in c.topics and c.treaty in rules.known_treaties()]


def _facts_asked(result: rules.WithholdingResult) -> list[str]:
    conditions = list(result.conditions) + list(result.assumptions) + \
        [c for alt in result.alternatives for c in alt.conditions]
    return list(dict.fromkeys(f for c in conditions for f in c.facts))


def rate_calculator() -> None:
    st.subheader("Calculadora de taxas de retenção")
    treaties = [c.treaty for c in rules.coverage() if c.incomes and c.treaty in rules.known_treaties()]
    cols = st.columns(3)
    treaty = cols[0].selectbox("Convenção", treaties, format_func=_treaty_label, key="rc-treaty")
    coverage = next(c for c in rules.coverage() if c.treaty == treaty)
    incomes = sorted(coverage.incomes, key=lambda i: rules.INCOME_TYPES.index(i) if i in rules.INCOME_TYPES else 99)
    income = cols[1].selectbox("Tipo de rendimento", incomes, format_func=lambda i: topic_label(i, "pt"),
                               key="rc-income")
    source = cols[2].radio("Estado da fonte (quem paga)", coverage.parties, format_func=state_pt, horizontal=True,
                           key="rc-source")
    try:
        blank = rules.withholding_cap(treaty, income, source, rules.Facts())
        if isinstance(blank, rules.NotCovered):
            st.warning(blank.message)
            return
        facts: dict[str, Any] = {}
        asked = [name for name in _facts_asked(blank) if name in QUICK_INPUTS]
        with st.expander("Factos", expanded=True):
            for name in asked:
                facts.update(quick_input_widget(QUICK_INPUTS[name], f"rc-{treaty}-{income}-{name}"))
            if not asked:
                st.caption("Nenhum facto altera o resultado para este rendimento.")
        result = rules.withholding_cap(treaty, income, source, rules.Facts(**facts))
    except rules.RulesInputError as exc:
        st.error(str(exc))
        return
    st.markdown(f"### {outcome_pt(result.outcome, result.rate)}")
    st.caption(f"{topic_label(income, 'pt').capitalize()} pagos por residente de {state_pt(source)} a residente de "
               f"{state_pt(result.residence_state)}" + (" · fonte: resumo da convenção" if result.coverage == "summary"
                                                       else ""))
    if result.outcome == "alternatives":
        for alt in result.alternatives:
            with st.container(border=True):
                st.markdown(f"**{outcome_pt(alt.outcome, alt.rate)}**")
                for c in alt.conditions:
                    st.markdown(f"- {condition_line(c)}")
                st.caption(" · ".join(dict.fromkeys(cite_label(c) for c in alt.citations)))
    for c in result.conditions:
        st.markdown(f"- {condition_line(c)}")
    for c in result.assumptions:
        st.markdown(f"- {condition_line(c)}")
    if result.missing_facts:
        st.info("Para uma só taxa, indique: " + ", ".join(
            QUICK_INPUTS[m].label if m in QUICK_INPUTS else m for m in result.missing_facts))
    for note in result.notes:
        st.caption(note)
    st.markdown("**Fontes**")
    rule_citation_cards(f"rc-{treaty}", list(result.citations) + [c for a in result.alternatives for c in a.citations])


def _tristate(label: str, key: str) -> bool | None:
    return st.radio(label, [None, True, False], format_func=lambda v: "não sei" if v is None else yes_no(v),
                    horizontal=True, key=key)


def employment_calculator() -> None:
    import pandas as pd

    st.subheader("Regra dos 183 dias (trabalho dependente)")
    st.caption("Indique as estadias no Estado onde o trabalho é exercido (o primeiro e o último dia contam).")
    default = pd.DataFrame({"Início": [date(date.today().year, 1, 1)], "Fim": [date(date.today().year, 3, 31)]})
    stays_df = st.data_editor(default, num_rows="dynamic", key="emp-stays", width="stretch",
                              column_config={"Início": st.column_config.DateColumn(format="DD/MM/YYYY"),
                                             "Fim": st.column_config.DateColumn(format="DD/MM/YYYY")})
    cols = st.columns(3)
    with cols[0]:
        employer = _tristate("Entidade patronal residente no Estado do trabalho?", "emp-employer")
    with cols[1]:
        borne = _tristate("Remuneração suportada por estabelecimento estável nesse Estado?", "emp-pe")
    year = cols[2].number_input("Ano fiscal (opcional)", min_value=1900, max_value=2200, value=None, step=1,
                                key="emp-year")
    stays, incomplete = [], 0
    for start, end in zip(stays_df["Início"], stays_df["Fim"]):
        if pd.isna(start) or pd.isna(end):
            incomplete += 1
            continue
        stays.append((pd.Timestamp(start).date(), pd.Timestamp(end).date()))
    if incomplete:
        st.warning(f"{incomplete} estadia(s) sem data de início ou de fim foram ignoradas.")
    if not stays:
        st.info("Acrescente pelo menos uma estadia com as duas datas.")
        return
    results: list[rules.EmploymentResult] = []
    try:
        for treaty in _covering("employment"):
            r = rules.employment_183_days(treaty, stays, employer, borne, int(year) if year else None)
            if not isinstance(r, rules.NotCovered):
                results.append(r)
    except rules.RulesInputError as exc:
        st.error(str(exc))
        return
    verdict = {True: "pode tributar", False: "não tributa (só a residência)", None: "indeterminado"}
    st.dataframe(pd.DataFrame([{
        "Convenção": _treaty_label(r.treaty), "Janela de contagem": WINDOW_RULE_PT.get(r.window_rule, r.window_rule),
        "Pior janela": f"{r.window_start:%d/%m/%Y} – {r.window_end:%d/%m/%Y}" if r.window_start else "—",
        "Dias": r.days, "Limite": r.max_days, "Estado do trabalho": verdict[r.taxable_in_work_state],
    } for r in results]), hide_index=True, width="stretch")
    worst = max(results, key=lambda r: (r.days - r.max_days, r.days))
    st.markdown(f"**Pior janela:** {_treaty_label(worst.treaty)} — {worst.window_text}: "
                f"{worst.window_start:%d/%m/%Y} a {worst.window_end:%d/%m/%Y}, **{worst.days} dias** "
                f"(limite {worst.max_days}).")
    pick = st.selectbox("Detalhe da convenção", [r.treaty for r in results], format_func=_treaty_label,
                        key="emp-detail")
    detail = next(r for r in results if r.treaty == pick)
    for c in detail.conditions:
        st.markdown(f"- {condition_line(c)}")
    for note in detail.notes:
        st.caption(note)
    rule_citation_cards(f"emp-{pick}", detail.citations)


_PLACES = {"home": "Onde tem habitação permanente à sua disposição?",
           "abode": "Onde permanece habitualmente?", "nationality": "De que Estado é nacional?"}


def _where(label: str, parties: tuple[str, str], key: str) -> tuple[str, ...] | None:
    a, b = parties
    options = {(a,): f"Só em {state_pt(a)}", (b,): f"Só em {state_pt(b)}", (a, b): "Em ambos", (): "Em nenhum"}
    return st.radio(label, list(options), format_func=options.get, index=None, horizontal=True, key=key)


def tiebreaker_wizard() -> None:
    st.subheader("Desempate da residência (art. 4.º)")
    st.caption("Pessoa considerada residente nos dois Estados: responda passo a passo.")
    cols = st.columns(2)
    treaty = cols[0].selectbox("Convenção", _covering("residence"), format_func=_treaty_label, key="tb-treaty")
    person = cols[1].radio("Pessoa", ["individual", "company"], horizontal=True, key="tb-person",
                           format_func={"individual": "Pessoa singular", "company": "Sociedade / outra"}.get)
    parties = rules.known_treaties()[treaty]
    answers: dict[str, Any] = {}
    key = f"tb-{treaty}-{person}"
    for _ in range(8):
        try:
            result = rules.residence_tiebreaker(treaty, rules.TiebreakerFacts(person=person, **answers))
        except rules.RulesInputError as exc:
            st.error(str(exc))
            return
        if isinstance(result, rules.NotCovered):
            st.warning(result.message)
            return
        if not result.missing_facts:
            break
        fact = result.missing_facts[0]
        if fact in answers:
            break
        st.markdown(f"**Passo {len(result.steps)} — {STEP_PT.get(result.steps[-1].step, result.steps[-1].step)}**")
        if fact == "permanent_home_in":
            value = _where(_PLACES["home"], parties, f"{key}-home")
        elif fact == "habitual_abode_in":
            value = _where(_PLACES["abode"], parties, f"{key}-abode")
        elif fact == "nationality":
            value = _where(_PLACES["nationality"], parties, f"{key}-nat")
        elif fact == "vital_interests_in":
            opts = {p: state_pt(p) for p in parties} | {"undetermined": "Não é possível determinar"}
            value = st.radio("Com que Estado são mais estreitas as relações pessoais e económicas?", list(opts),
                             format_func=opts.get, index=None, horizontal=True, key=f"{key}-vital")
        else:
            value = st.radio("Onde se situa a direção efetiva?", list(parties), format_func=state_pt, index=None,
                             horizontal=True, key=f"{key}-mgmt")
        if value is None:
            break
        answers[fact] = value
    st.divider()
    for step in result.steps:
        icon = {"decided": "✅", "next": "➡️", "unknown": "❔"}.get(step.outcome, "")
        st.markdown(f"{icon} **{STEP_PT.get(step.step, step.step)}** — {step.text}: "
                    f"{STEP_OUTCOME_PT.get(step.outcome, step.outcome)}"
                    + (f" ({state_pt(step.state)})" if step.state else ""))
    if result.result == "mutual_agreement":
        st.success("Decisão: as autoridades competentes resolvem o caso de comum acordo.")
    elif result.result:
        deciding = result.citations[-1] if result.citations else None
        st.success(f"Residente apenas de **{state_pt(result.result)}** — decide o critério "
                   f"«{STEP_PT.get(result.deciding_step, result.deciding_step)}»"
                   + (f" ({cite_label(deciding)})." if deciding else "."))
    for note in result.notes:
        st.caption(note)
    rule_citation_cards(key, result.citations)


def treaty_browser() -> None:
    st.subheader("Navegador de convenções")
    catalog, docs = corpus()
    cols = st.columns([2, 1])
    doc_id = cols[0].selectbox("Documento", list(catalog), format_func=lambda d: f"{d} — {catalog[d].title[:90]}",
                               key="br-doc")
    doc, info = docs[doc_id], catalog[doc_id]
    langs = languages(doc)
    language = cols[1].radio("Língua", langs, format_func=lambda x: LANGUAGE_PT.get(x, x), horizontal=True,
                             key=f"br-lang-{doc_id}") if len(langs) > 1 else (langs[0] if langs else None)
    if info.notes:
        st.caption(info.notes)
    units = articles(doc, language)

    def label(u: Unit) -> str:
        head = f"Artigo {u.article}" if u.article and u.article[0].isdigit() else (u.article or u.uid)
        return f"{head} — {u.heading}" if u.heading and u.heading != u.article else head

    first = next((i for i, u in enumerate(units) if u.kind not in ("preamble", "closing")), 0)
    unit = st.selectbox("Artigo", units, index=first, format_func=label, key=f"br-art-{doc_id}-{language}")
    if unit is None:
        return
    with st.container(border=True):
        show_article(doc, unit)
    items = [i for i in protocol_items(doc, unit.article, unit.language) if i.uid != unit.uid]
    if items:
        st.markdown("**Protocolo e notas que se referem a este artigo**")
        for item in items:
            with st.expander(f"{item.article} — {item.heading}"):
                st.markdown(f"<div class='passage'>{highlight_html(item.text)}</div>", unsafe_allow_html=True)
    relations = rules.applicable_documents(info.applies_to or info.treaty)
    if not isinstance(relations, rules.NotCovered):
        for rel in relations:
            if rel.relation == "modifies":
                st.info(f"**MLI** ({rel.doc}): {rel.text}")
            elif rel.relation == "not_established":
                st.caption(f"MLI ({rel.doc}): {rel.text}")
            elif rel.doc != doc_id:
                st.caption(f"Outro documento desta convenção: {rel.doc} — {rel.title}")


# ------------------------------------------------------------------ page

def sidebar() -> None:
    with st.sidebar:
        st.markdown("### Assistente de convenções fiscais")
        st.caption("Taxas e testes vêm de regras determinísticas com citação do artigo; o modelo de linguagem "
                   "só explica. " + "Informação geral, não constitui aconselhamento jurídico.")
        with st.expander("O que o corpus cobre"):
            for c in rules.coverage():
                parties = " – ".join(state_pt(p) for p in c.parties) or "instrumento multilateral"
                st.markdown(f"**{c.treaty}** ({parties}, {COVERAGE_PT.get(c.coverage, c.coverage)}): "
                            + ", ".join(topic_label(t, "pt") for t in c.topics))
        st.markdown("**Feedback**")
        try:
            data = feedback_store().export_csv()
        except FeedbackError as exc:
            st.error(str(exc))
        else:
            st.download_button("Exportar feedback (CSV)", data=data.encode("utf-8"), file_name="feedback.csv",
                               mime="text/csv", key="fb-export")
        st.caption(f"Modelo configurado: {settings().llm_backend}")


def main() -> None:
    try:
        settings()
    except ValueError as exc:
        st.error(f"Configuração inválida: {exc}")
        st.stop()
    st.session_state.setdefault("turns", [])
    sidebar()
    chat, rates, days, residence, browser = st.tabs(
        ["💬 Assistente", "🧮 Calculadora de taxas", "📅 183 dias", "🏠 Desempate da residência",
         "📚 Navegador de convenções"])
    with rates:
        rate_calculator()
    with days:
        employment_calculator()
    with residence:
        tiebreaker_wizard()
    with browser:
        treaty_browser()
    with chat:
        chat_tab()


main()
