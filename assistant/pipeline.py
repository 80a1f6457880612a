"""The assistant: understand -> rules -> retrieve -> generate -> verify -> Answer.

Models and indexes load once per Assistant; `stream` yields the deterministic card first, then the
explanation's tokens, then the final Answer (whose explanation the guardrail may have replaced).
"""
from __future__ import annotations

import dataclasses
import json
import time
from dataclasses import dataclass
from typing import Any, Iterator

import rules
from assistant.answer import Answer, CitationRef, Guardrail, RateLine, ReadingChoice
from assistant.apply_rules import RuleRun, merge_facts, run_rules
from assistant.guardrail import verify, without_percentages
from assistant.llm import LlmInfo, LlmUnavailable, make_chat_model, stream_tokens, whole_sentences
from assistant.prompting import build_messages, prompt
from assistant.render import fmt_rate, follow_up, msg, render_card, treaty_name
from assistant.retrieve import DenseUnavailable, HybridSearch, Hit, open_dense
from assistant.understand import DecideTopic, Query, Reading, understand, validate_question
from assistant.understand.exemplars import ExemplarClassifier
from config import Settings, load_settings
from ingest.catalog import DocumentInfo, load_catalog
from ingest.embedding_cache import query_embedder
from ingest.ocr_reading import clean_passage
from ingest.chunks import Chunk
from ingest.index import read_chunks_file
from ingest.units import normalise_ws
from rules.labels import state_name, topic_label

# Below this cosine similarity, with no rule result and no keyword match, retrieval is too weak to ground an answer.
WEAK_SIMILARITY = 0.30


@dataclass(frozen=True)
class StreamEvent:
    kind: str                      # "card" | "token" | "final"
    answer: Answer | None = None
    text: str = ""


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 1)


class Assistant:
    def __init__(self, settings: Settings, catalog: list[DocumentInfo], search: HybridSearch,
                 chat_model=None, llm_info: LlmInfo = LlmInfo("none", ""), llm_error: str | None = None):
        self.settings = settings
        self.catalog = catalog
        self.search = search
        self.chat_model = chat_model
        self.llm_info = llm_info
        self.llm_error = llm_error
        self.default_mode = "hybrid" if search.dense is not None else "bm25"
        self.classifier = _classifier_for(search.dense, settings)

    @classmethod
    def from_settings(cls, settings: Settings | None = None, llm: str | None = None,
                      dense: bool = True) -> "Assistant":
        settings = settings or load_settings()
        chunks = read_chunks_file(settings.index_dir)
        dense_index = None
        if dense:
            import torch

            from ingest.embeddings import load_embeddings
            # one short query at a time: a second thread only contends with the LLM and other sessions
            torch.set_num_threads(1)
            dense_index = open_dense(settings, load_embeddings(settings), chunks)
        backend = llm or settings.llm_backend
        try:
            model, info = make_chat_model(settings, backend)
            error = None
        except LlmUnavailable as exc:
            model, info, error = None, LlmInfo(backend, ""), str(exc)
        assistant = cls(settings, load_catalog(settings.corpus_dir), HybridSearch(chunks, dense_index), model, info,
                        error)
        assistant.warm_up()
        return assistant

    def warm_up(self) -> None:
        """Load lexicons and rule data now, so the first user question is as fast as the next."""
        query = understand("Sou residente em Portugal e recebo dividendos do Brasil", rules.known_treaties())
        run_rules(query, query.facts)
        if self.search.dense is not None:  # the first query embedding pays torch's start-up
            self.search.search(query.text, 1, None, "hybrid")

    # ---- public API -------------------------------------------------------------------------
    def ask(self, question: str, extra_facts: dict[str, Any] | None = None) -> Answer:
        final = None
        for event in self.stream(question, extra_facts):
            if event.kind == "final":
                final = event.answer
        assert final is not None
        return final

    def retrieve(self, question: str, k: int = 5, mode: str = "hybrid") -> list[Hit]:
        query = understand(question, rules.known_treaties())
        return self.search.search(self._search_text(question, query), k, self._docs_for(query), mode,
                                  _heading_terms(query))

    def stream(self, question: str, extra_facts: dict[str, Any] | None = None) -> Iterator[StreamEvent]:
        started = time.perf_counter()
        timings: dict[str, float] = {}
        error = validate_question(question, self.settings.max_question_chars)
        if error:
            yield self._abstained(str(question)[:200] if isinstance(question, str) else "", "pt", error, started,
                                  timings, error=error)
            return
        t = time.perf_counter()
        query = understand(question, rules.known_treaties(), self._decide_topic(question))
        lang = query.language
        treaty = query.treaty or ("MLI" if query.mentions_mli else None)
        timings["understand"] = _ms(t)

        abstain = self._abstention(query, treaty, lang)
        if abstain:
            yield self._abstained(question, lang, abstain, started, timings, query=query, treaty=treaty)
            return

        t = time.perf_counter()
        try:
            facts = merge_facts(query.facts, extra_facts)
        except rules.RulesInputError as exc:
            yield self._abstained(question, lang, exc.text_in(lang), started, timings, query=query, treaty=treaty,
                                  error=str(exc))
            return
        parts = [_Part(reading, q, run_rules(q, facts)) for reading, q in _readings(query, treaty)]
        run = _combined([p.run for p in parts])
        timings["rules"] = _ms(t)

        t = time.perf_counter()
        docs = self._docs_for(query, [p.query.treaty for p in parts], run)
        hits = self.search.search(self._search_text(question, query), self.settings.retrieval_k, docs,
                                  self.default_mode, _heading_terms(query))
        citations = self._citations(run, hits)
        timings["retrieve"] = _ms(t)
        problem = self.search.dense_problem() if self.default_mode == "hybrid" else None
        degraded = [msg(lang, "dense_unavailable", reason=problem)] if problem else []

        if not run.has_result and not run.documents and self._weak(hits):
            covered = self._covered(lang)
            text = msg(lang, "abstain_weak", covered=covered)
            if run.not_covered:
                text = msg(lang, "abstain_scope", what=topic_label(query.topic or "", lang), covered=covered)
            event = self._abstained(question, lang, text, started, timings, query=query, treaty=treaty, run=run)
            event.answer.notices.extend(degraded)
            yield event
            return

        answer = self._card_answer(question, query, parts, citations, lang)
        answer.notices.extend(degraded)
        answer.timings_ms = dict(timings)
        yield StreamEvent("card", dataclasses.replace(answer, notices=list(answer.notices)))

        t = time.perf_counter()
        if self.chat_model is not None and query.injection:  # a flagged injection never reaches the model
            answer.guardrail = Guardrail(checked=True, action="skipped",
                                         notes=["injeção assinalada: o modelo não foi chamado"])
        elif self.chat_model is not None:
            yield from self._generate(answer, query)
        elif self.llm_error:
            answer.notices.append(msg(lang, "llm_failed", reason=self.llm_error))
        timings["generate"] = _ms(t)
        answer.answer = _compose(answer)
        timings["total"] = _ms(started)
        answer.timings_ms = timings
        yield StreamEvent("final", answer)

    def _abstained(self, question: str, lang: str, text: str, started: float, timings: dict[str, float],
                   query: Query | None = None, treaty: str | None = None, run: RuleRun | None = None,
                   error: str | None = None) -> StreamEvent:
        """Every refusal goes through here: bad input, out of scope, no treaty, nothing relevant."""
        for stage in ("rules", "retrieve", "generate"):
            timings.setdefault(stage, 0.0)
        timings["total"] = _ms(started)
        return StreamEvent("final", Answer(
            question=question, language=lang, answer=text, card="" if error else text, abstained=True,
            treaty=treaty, error=error, llm=self._llm_dict(), timings_ms=timings,
            query=query, rule_results=run))

    def _decide_topic(self, question: str) -> DecideTopic | None:
        """The nearest-example classifier on the question's embedding (the one dense retrieval uses)."""
        if self.classifier is None or self.search.dense is None:
            return None
        dense = self.search.dense

        def decide(among: tuple[str, ...]) -> str | None:
            try:
                return self.classifier.decide(dense.embed_query(question), among)
            except DenseUnavailable:
                return None
        return decide

    # ---- steps ------------------------------------------------------------------------------
    def _llm_dict(self) -> dict[str, Any]:
        return {"backend": self.llm_info.backend, "model": self.llm_info.model}

    def _covered(self, lang: str) -> str:
        return ", ".join(f"{treaty_name(t, lang)} ({t})" for t in rules.known_treaties()) + \
            ", MLI"

    def _abstention(self, query: Query, treaty: str | None, lang: str) -> str | None:
        covered = self._covered(lang)
        if query.evasion:
            return msg(lang, "abstain_evasion")
        if query.pair_not_covered:
            a, b = query.pair_not_covered
            return msg(lang, "abstain_pair", a=state_name(a, lang), b=state_name(b, lang), covered=covered)
        if query.out_of_scope:
            what = msg(lang, f"out_of_scope.{query.out_of_scope}", default=msg(lang, "out_of_scope.other"))
            return msg(lang, "abstain_scope", what=what, covered=covered)
        if treaty is None and not query.readings:
            return msg(lang, "abstain_no_treaty", covered=covered)
        return None

    def _docs_for(self, query: Query, treaties: list[str | None] | None = None,
                  run: RuleRun | None = None) -> set[str] | None:
        wanted = {t for t in (treaties or [query.treaty or ("MLI" if query.mentions_mli else None)]) if t}
        if not wanted:
            return None
        docs = {d.id for d in self.catalog if d.treaty in wanted or d.applies_to in wanted}
        with_mli = query.mentions_mli or (run and any(d.relation == "modifies" for d in run.documents))
        if with_mli:   # only an instrument the corpus says modifies the treaty (never for PT-BR or BR-ES)
            for t in wanted:
                found = rules.applicable_documents(t)
                docs |= set() if isinstance(found, rules.NotCovered) else \
                    {d.doc for d in found if d.relation == "modifies"}
        return docs

    @staticmethod
    def _search_text(question: str, query: Query) -> str:
        # The corpus is Portuguese first: adding the topic's Portuguese name helps es/en questions. A topic
        # the classifier chose came from the question's own embedding, which retrieval then reuses.
        if query.topic and query.topic_method == "lexicon":
            return f"{question} {topic_label(query.topic, 'pt')}"
        return question

    @staticmethod
    def _weak(hits: list[Hit]) -> bool:
        if not hits:
            return True
        best = max((h.dense_similarity or 0.0) for h in hits)
        keyword = any(h.bm25_rank is not None for h in hits)
        return best < WEAK_SIMILARITY and not keyword

    def _citations(self, run: RuleRun, hits: list[Hit]) -> list[CitationRef]:
        refs: list[CitationRef] = []
        used_chunks: set[str] = set()
        for c in run.citations():
            chunk = self._chunk_for(c)
            refs.append(CitationRef(
                n=len(refs) + 1, doc=c.doc, treaty=c.treaty, article=c.article or "", paragraph=c.paragraph,
                subparagraph=c.subparagraph, quote=self._quote(c), chunk_id=chunk.id if chunk else None,
                heading=chunk.heading if chunk else "", language=c.language, source="rule",
                passage=chunk.text if chunk else self._quote(c),
                spans=_spans(chunk)))
            if chunk:
                used_chunks.add(chunk.id)
        room = max(self.settings.retrieval_k - len(refs), 2)
        for hit in hits:
            if room == 0:
                break
            chunk = hit.chunk
            if chunk.id in used_chunks:
                continue
            used_chunks.add(chunk.id)
            refs.append(CitationRef(
                n=len(refs) + 1, doc=chunk.doc, treaty=chunk.treaty, article=chunk.article,
                paragraph=chunk.paragraph or None, subparagraph=chunk.subparagraph or None, quote=chunk.text,
                chunk_id=chunk.id, heading=chunk.heading, language=chunk.language, source="retrieval",
                passage=chunk.text, spans=_spans(chunk)))
            room -= 1
        return refs

    def _quote(self, c: rules.Citation) -> str:
        """A rule's quote as people read it: in the corrected reading when its document is an OCR scan
        (the rule data quote the raw text, which is what tests verify)."""
        quote = normalise_ws(c.quote)
        info = next((d for d in self.catalog if d.id == c.doc), None)
        if info is None or not info.ocr:
            return quote
        return clean_passage(quote, c.language, next((x for x in info.languages if x != c.language), None))

    def _chunk_for(self, c: rules.Citation) -> Chunk | None:
        """The chunk holding a rule's quote: same document, article and paragraph, containing the words."""
        quote = self._quote(c)
        candidates = [ch for ch in self.search.chunks
                      if ch.doc == c.doc and ch.article == (c.article or "") and ch.language == c.language]
        exact = [ch for ch in candidates if ch.paragraph == (c.paragraph or "")]
        for group in (exact, candidates):
            for ch in group:
                if quote in normalise_ws(ch.text):
                    return ch
        return exact[0] if exact else (candidates[0] if candidates else None)

    def _card_answer(self, question: str, query: Query, parts: list["_Part"], citations: list[CitationRef],
                     lang: str) -> Answer:
        index = {(c.doc, c.article, c.paragraph, c.subparagraph, c.quote): c.n
                 for c in citations if c.source == "rule"}

        def cite(c: rules.Citation) -> str:
            n = index.get((c.doc, c.article or "", c.paragraph, c.subparagraph, self._quote(c)))
            return f"[{n}]" if n else ""

        rates: list[RateLine] = []
        sections: list[str] = []
        stated: list[str] = []
        for part in parts:
            card = render_card(part.run, part.query.topic, lang, cite)
            rates += card.rates
            stated += card.stated
            if part.reading is not None and card.markdown:
                sections.append(f"#### {_reading_label(part.reading, lang)}\n{card.markdown}")
            elif card.markdown:
                sections.append(card.markdown)
        body = "\n\n".join(sections)
        if not body:  # no rule speaks to this: point at the passages themselves
            body = msg(lang, "passages_intro") + "\n" + "\n".join(
                f"- [{c.n}] {c.label()}{' — ' + c.heading if c.heading else ''}" for c in citations)
        treaties = list(dict.fromkeys(p.query.treaty for p in parts if p.query.treaty))
        names = " · ".join(treaty_name(t, lang) for t in treaties)
        title = f"### {msg(lang, 'treaty_title', name=names)}"
        if len(parts) > 1:
            body = msg(lang, "readings_intro") + "\n\n" + body
        elif len(query.readings) > 1 and parts[0].reading is not None:   # the likeliest, the others offered
            others = "; ".join(_reading_label(r, lang) for r in query.readings if r != parts[0].reading)
            body += "\n\n" + msg(lang, "readings_others", others=others)
        premise = _premise(query.stated_rates, rates, lang)
        if premise:
            body = premise + "\n\n" + body
        notices = []
        if query.injection:
            notices.append(msg(lang, "injection_notice"))
        notices += [msg(lang, "side_note", what=msg(lang, f"out_of_scope.{code}", default=msg(lang, "out_of_scope.other")))
                    for code in query.side_notes]
        run = _combined([p.run for p in parts])
        missing = list(run.missing_facts)
        choices = [ReadingChoice(r.treaty, _reading_label(r, lang), _clarification(r, lang))
                   for r in (query.readings if parts[0].reading is not None else ())]
        return Answer(question=question, language=lang, answer="", abstained=False,
                      treaty=treaties[0] if treaties else None, rates=rates, citations=citations,
                      card=f"{title}\n{body}", llm=self._llm_dict(), missing_facts=missing,
                      follow_up=follow_up(missing, lang), notices=notices, query=query,
                      rule_results=run, readings=choices, premise=premise, stated=stated)

    def _generate(self, answer: Answer, query: Query) -> Iterator[StreamEvent]:
        lang = answer.language
        valid = {c.n for c in answer.citations}  # every passage shown to the user may be cited
        card = answer.card.replace(answer.premise, "") if answer.premise else answer.card  # the user's rate is no ground
        for shown in answer.stated:                     # nor are the user's numbers set against a threshold
            card = card.replace(shown, "")
        grounding = [card, *(c.passage for c in answer.citations), *(c.label() for c in answer.citations)]
        question = without_percentages(answer.question, query.stated_rates)  # facts only, never asserted rates
        guard = Guardrail(checked=True)
        retry_note = ""
        for attempt in (1, 2):
            guard.attempts = attempt
            messages = self._messages(answer, retry_note)
            pieces: list[str] = []
            try:
                for token in stream_tokens(self.chat_model, messages, self.settings.llm_timeout_s):
                    pieces.append(token)
                    if attempt == 1:
                        yield StreamEvent("token", text=token)
            except Exception as exc:  # noqa: BLE001 - any backend failure degrades to the card
                answer.notices.append(msg(lang, "llm_failed", reason=str(exc)[:160]))
                guard.action, guard.notes = "fallback", [f"falha do LLM: {str(exc)[:160]}"]
                answer.guardrail = guard
                return
            text = whole_sentences("".join(pieces))
            verdict = verify(text, grounding, valid, question,
                             answer.rule_results is not None and answer.rule_results.gives_exemption)
            guard.numbers_checked = verdict.numbers
            guard.ungrounded_numbers = verdict.ungrounded
            guard.invalid_citations = verdict.invalid_refs
            if verdict.ok:
                guard.action = "passed" if attempt == 1 else "regenerated"
                answer.explanation = text
                answer.guardrail = guard
                return
            guard.notes.append(f"tentativa {attempt}: {verdict.problems()}")
            retry_note = prompt("retry_note").format(problems=verdict.problems(),
                                                     valid_refs=", ".join(map(str, sorted(valid))))
        guard.action = "fallback"
        answer.notices.append(msg(lang, "llm_fallback"))
        answer.guardrail = guard

    def _messages(self, answer: Answer, retry_note: str) -> list:
        return build_messages(answer, retry_note)


_CLASSIFIERS: dict[int, ExemplarClassifier] = {}


def _classifier_for(dense, settings: Settings) -> ExemplarClassifier | None:
    """One nearest-example classifier per dense index, its bank embedded with the same model; the bank's
    vectors are kept in the embedding cache (by model fingerprint), so a restart does not re-embed them."""
    embeddings = getattr(dense, "embeddings", None)
    if embeddings is None:
        return None
    if id(dense) not in _CLASSIFIERS:
        _CLASSIFIERS[id(dense)] = ExemplarClassifier(query_embedder(embeddings, settings))
    return _CLASSIFIERS[id(dense)]


@dataclass(frozen=True)
class _Part:
    """One reading of the question (None when it is certain) and what the rules said for it."""
    reading: Reading | None
    query: Query
    run: RuleRun


def _readings(query: Query, treaty: str | None) -> list[tuple[Reading | None, Query]]:
    """The question as read, or one query per candidate treaty when the pair is not certain."""
    if treaty is not None or not query.readings:
        return [(None, dataclasses.replace(query, treaty=treaty))]
    chosen = query.readings[:1] if query.readings[0].likely else query.readings
    return [(r, dataclasses.replace(query, treaty=r.treaty, residence_state=r.residence_state,
                                    source_state=r.source_state, treaty_inferred=True))
            for r in chosen]


def _combined(runs: list[RuleRun]) -> RuleRun:
    """The runs of every reading as one, for citations, retrieval scope and the triage panel."""
    if len(runs) == 1:
        return runs[0]
    out = RuleRun()
    for run in runs:
        out.withholding += run.withholding
        out.figures += run.figures
        out.documents += [d for d in run.documents if d not in out.documents]
        out.errors += run.errors
        out.missing_facts += [m for m in run.missing_facts if m not in out.missing_facts]
        out.employment = out.employment or run.employment
        out.tiebreaker = out.tiebreaker or run.tiebreaker
        out.not_covered = out.not_covered or run.not_covered
    return out


def _reading_label(reading: Reading, lang: str) -> str:
    key = {"residence": "reading_residence", "source": "reading_source"}.get(reading.assumed_role or "",
                                                                            "reading_other")
    return msg(lang, key, state=state_name(reading.assumed or "", lang), treaty=treaty_name(reading.treaty, lang))


def _clarification(reading: Reading, lang: str) -> str:
    key = {"residence": "clarify_residence", "source": "clarify_source"}.get(reading.assumed_role or "",
                                                                            "clarify_other")
    return msg(lang, key, state=state_name(reading.assumed or "", lang))


def _premise(stated: tuple[float, ...], rates: list[RateLine], lang: str) -> str:
    """The rate the user took for granted, confirmed or corrected against the rules' rates."""
    if not stated or not rates:
        return ""
    shown = sorted({r.value for r in rates})
    fixed = " / ".join(fmt_rate(v, lang) for v in shown)
    wrong = [v for v in dict.fromkeys(stated) if v not in shown]
    if wrong:
        return msg(lang, "stated_rate_correction", stated=", ".join(fmt_rate(v, lang) for v in wrong), fixed=fixed)
    return msg(lang, "stated_rate_confirmed", stated=", ".join(fmt_rate(v, lang) for v in dict.fromkeys(stated)))


def _heading_terms(query: Query) -> tuple[str, ...]:
    return tuple(topic_label(t, lang) for t in query.topics[:1] for lang in ("pt", "es"))


def _spans(chunk: Chunk | None) -> tuple[tuple[int, int], ...]:
    return tuple(tuple(s) for s in json.loads(chunk.spans)) if chunk else ()


def _compose(answer: Answer) -> str:
    parts = [answer.card]
    if answer.follow_up:
        parts.append(f"**{answer.follow_up}**")
    if answer.explanation:
        parts.append(answer.explanation)
    parts += [f"> {n}" for n in answer.notices]
    if answer.citations:
        parts.append(f"**{msg(answer.language, 'sources')}:** " + "; ".join(
            f"[{c.n}] {c.label()}" for c in answer.citations))
    return "\n\n".join(parts)
