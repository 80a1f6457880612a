"""The assistant: understand -> rules -> retrieve -> generate -> verify -> Answer.

Models and indexes load once per Assistant; `stream` yields the deterministic card first, then the
explanation's tokens, then the final Answer (whose explanation the guardrail may have replaced).
"""
from __future__ import annotations

import dataclasses
import json
import re
import time
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterator, Sequence

import rules
from assistant.answer import Answer, AnswerPart, CitationRef, Guardrail, RateLine, ReadingChoice
from assistant.apply_rules import RELIEF_TOPICS, RuleRun, merge_facts, run_rules
from assistant.claims import Grounds, check_sentence, tax_outcome
from assistant.guardrail import numbers_in, without_percentages
from assistant.lexicon.quantities import amount_per_year, usd_per_year
from assistant.lexicon.text import fold, tokenize
from assistant.llm import LlmInfo, LlmUnavailable, SentenceBuffer, make_chat_model, stream_tokens
from assistant.machine import threads_for_load
from assistant.presentation.build import Part as CardPart
from assistant.presentation.build import build_card, say
from assistant.presentation.card import Card, Line, Source
from assistant.presentation.grounding import grounding_texts
from assistant.presentation.markdown import card_markdown, follow_up_markdown
from assistant.presentation.reply import refusal, reply, reply_text
from assistant.presentation.values import (
    Formatter,
    Join,
    Phrase,
    StateForm,
    StateName,
    Topic,
    Treaty,
    Value,
    msg,
    render,
)
from assistant.prompting import build_messages
from assistant.retrieve import DenseUnavailable, Hit, HybridSearch, open_dense
from assistant.ticket_query import TicketQuery, ticket_query
from assistant.understand import (
    VISITING_TOPICS,
    DecideTopic,
    Query,
    Reading,
    ReadResidence,
    scheme_named,
    understand,
    validate_question,
)
from assistant.understand.direction_model import DirectionModel, trained_direction
from assistant.understand.exemplars import ExemplarClassifier
from assistant.understand.language import detect_language
from assistant.understand.options import own_option
from assistant.understand.parts import QUESTION_OPENING, PartTopic, out_of_scope_code, read_parts, supposes
from assistant.understand.places import Grammar, assign_roles, find_mentions, roles_of
from assistant.understand.sentences import item_start, sentences
from assistant.understand.topic_model import OUT_OF_SCOPE, TopicModel, context_of, trained_model
from assistant.understand.topics import lexicon_topics, topic_matches
from config import Settings, load_settings
from ingest.catalog import DocumentInfo, load_catalog
from ingest.chunks import Chunk
from ingest.embedding_cache import QueryVectors, named_query_vectors, query_embedder
from ingest.index import read_chunks_file
from ingest.ocr_reading import clean_passage
from ingest.units import normalise_ws
from rules.facts import Facts
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
        self.reader: TopicModel = trained_model(settings.cache_dir, reader_vectors(search.dense, settings))
        self.direction_reader: DirectionModel = trained_direction(settings.cache_dir)

    @classmethod
    def from_settings(cls, settings: Settings | None = None, llm: str | None = None,
                      dense: bool = True) -> "Assistant":
        settings = settings or load_settings()
        chunks = read_chunks_file(settings.index_dir)
        dense_index = None
        backend = llm or settings.llm_backend
        if dense:
            import torch

            from ingest.embeddings import load_embeddings
            # the local model server needs the cores while it writes: one thread then; without it, a long
            # ticket's query embeds ~1.7x faster on 2 idle cores than on one (every core when the machine is idle)
            torch.set_num_threads(1 if backend == "local" else threads_for_load(0.3))
            dense_index = open_dense(settings, load_embeddings(settings), chunks)
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
        """What the card's retrieval finds for a question (the same reading, the same query)."""
        asked, query = self._read(question)
        tq = self._search_query(question, query, asked)
        return self.search.search(tq.text, k, self._docs_for(query), mode, tq.focus, tq.articles, tq.asked)

    def stream(self, question: str, extra_facts: dict[str, Any] | None = None) -> Iterator[StreamEvent]:
        started = time.perf_counter()
        timings: dict[str, float] = {}
        error = validate_question(question, self.settings.max_question_chars)
        if error:
            yield self._abstained(str(question)[:200] if isinstance(question, str) else "", "pt", error, started,
                                  timings, error=error)
            return
        t = time.perf_counter()
        asked, query = self._read(question)
        in_scope = [p for p in asked if not p.out_of_scope]
        lang = query.language
        treaty = query.treaty or ("MLI" if query.mentions_mli else None)
        timings["understand"] = _ms(t)

        refused = _refused_parts(query, asked)
        abstain = self._abstention(query, treaty, lang, [p.out_of_scope for p in refused if p.out_of_scope])
        if abstain:
            yield self._abstained(question, lang, abstain, started, timings, query=query, treaty=treaty,
                                  parts=refused or _refused_parts(query, asked, _refusal_reason(query)))
            return

        t = time.perf_counter()
        if len(asked) > 1 and in_scope:
            query = dataclasses.replace(query, facts=_story_lengths(query.facts, question, in_scope[0], asked))
        if in_scope:      # what kind of income the first question itself names wins; its own words
            words = _asking_words(question, in_scope[0], asked)
            query = dataclasses.replace(query, facts=_own_kinds(query.facts, words, in_scope[0].topic,
                                                                 query.residence_state, question),
                                        asked=in_scope[0].question.text)
        try:
            facts = merge_facts(_others_kinds(query.facts, in_scope[0].question.text, in_scope[0].topic, asked)
                                if in_scope else query.facts, extra_facts)
        except rules.RulesInputError as exc:
            yield self._abstained(question, lang, exc.text_in(lang), started, timings, query=query, treaty=treaty,
                                  error=str(exc))
            return
        parts = [_Part(reading, q, run_rules(q, facts), in_scope[0] if in_scope else None)
                 for reading, q in _readings(query, treaty)]
        # the tie-breaker's answer is the residence every later question is read with ("de que país é residente?
        # E o salário, quem tributa?")
        resident = next((p.run.tiebreaker.result for p in parts if p.run.tiebreaker is not None), None)
        parts += self._other_parts(question, in_scope, treaty, extra_facts, resident, parts[0].reading)
        run = _combined([p.run for p in parts])
        timings["rules"] = _ms(t)

        t = time.perf_counter()
        docs = self._docs_for(query, [p.query.treaty for p in parts], run)
        tq = self._search_query(question, query, asked)
        hits = self.search.search(tq.text, self.settings.retrieval_k, docs, self.default_mode, tq.focus, tq.articles,
                                  tq.asked)
        citations = self._citations(run, hits)
        timings["retrieve"] = _ms(t)
        problem = self.search.dense_problem() if self.default_mode == "hybrid" else None
        degraded = [msg(lang, "dense_unavailable", reason=problem)] if problem else []
        if query.pair_not_covered and treaty == "MLI":   # "¿y el MLI en el convenio España-Portugal?"
            a, b = query.pair_not_covered
            degraded.append(msg(lang, "mli_pair_not_covered", a=state_name(a, lang), b=state_name(b, lang)))

        if not run.has_result and not run.documents and self._weak(hits):
            covered = self._covered(lang)
            text = msg(lang, "abstain_weak", covered=covered)
            if run.not_covered:
                text = msg(lang, "abstain_scope", what=topic_label(query.topic or "", lang), covered=covered)
            event = self._abstained(question, lang, text, started, timings, query=query, treaty=treaty, run=run)
            event.answer.notices.extend(degraded)
            yield event
            return

        answer = self._card_answer(question, query, parts, citations, lang, asked)
        answer.notices.extend(degraded)
        answer.timings_ms = dict(timings)
        yield StreamEvent("card", dataclasses.replace(answer, notices=list(answer.notices)))

        t = time.perf_counter()
        if self.chat_model is not None and query.injection:  # a flagged injection never reaches the model
            answer.guardrail = Guardrail(checked=True, action="skipped",
                                         notes=["injeção assinalada: o modelo não foi chamado"])
        elif self.chat_model is not None:
            yield from self._generate(answer, query)
            if answer.explanation and answer.card_data is not None:   # else the deterministic reply stays
                answer.reply = reply(answer.card_data, paragraph=answer.explanation).text
        elif self.llm_error:
            answer.notices.append(msg(lang, "llm_failed", reason=self.llm_error))
        timings["generate"] = _ms(t)
        answer.answer = _compose(answer)
        timings["total"] = _ms(started)
        answer.timings_ms = {**answer.timings_ms, **timings}   # with the model's first token and sentence
        yield StreamEvent("final", answer)

    def _abstained(self, question: str, lang: str, text: str, started: float, timings: dict[str, float],
                   query: Query | None = None, treaty: str | None = None, run: RuleRun | None = None,
                   error: str | None = None, parts: list[AnswerPart] | None = None) -> StreamEvent:
        """Every refusal goes through here: bad input, out of scope, no treaty, nothing relevant. `parts`: the
        questions of a ticket refused as a whole, each out of scope."""
        for stage in ("rules", "retrieve", "generate"):
            timings.setdefault(stage, 0.0)
        timings["total"] = _ms(started)
        return StreamEvent("final", Answer(
            question=question, language=lang, answer=text, card="" if error else text, abstained=True,
            reply="" if error else refusal(lang, text).text,
            treaty=treaty, error=error, llm=self._llm_dict(), timings_ms=timings,
            query=query, rule_results=run, parts=parts or []))

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

    def _read(self, question: str) -> tuple[list[PartTopic], Query]:
        """The questions the ticket asks, each with its topic by the trained reader, and the Query of the
        first one in scope (its out-of-scope questions as side notes)."""
        asked = read_parts(question, self.reader)
        main = next((p for p in asked if not p.out_of_scope), None)
        first = main.topic if main else None
        aside = _only_asked_about(question, asked) if main else set()
        read = self.direction_reader.residence
        # a question on one of the options the ticket weighs is read with that option's statement only
        query = understand(own_option(question, main.question.text) if main else question, rules.known_treaties(),
                           self._decide_topic(question), topic=first,
                           read_residence=_enterprise_residence(read, main.question.text, first) if main else read,
                           set_aside=aside)
        asked = _third_country_parts(asked, query)
        kept = _with_parts(query, asked)
        if main is None and asked and kept.out_of_scope is None and query.topic and not asked[0].other_treaty and \
                max(p.confidence for p in asked) < OUT_OF_SCOPE_SURE:
            # every question read as out of scope, none surely, and the ticket is answered as the word lists read
            # it: the first question is the one answered ("paga IRS em Portugal?" of a pension), not refused
            asked = [dataclasses.replace(asked[0], topic=query.topic, runner_up=None), *asked[1:]]
            kept = _with_parts(query, asked)
        return asked, kept

    def _other_parts(self, question: str, asked: list[PartTopic], treaty: str | None,
                     extra_facts: dict[str, Any] | None, resident: str | None = None,
                     reading: Reading | None = None) -> list["_Part"]:
        """The second and later questions of a ticket, and a close second topic of each question: each is read
        with its own topic and answered in its own section, under the main question's treaty, or the first
        question's first `reading` when the pair of States is not certain; `resident`: the State the
        tie-breaker made the person resident of, the residence of every question on an income."""
        if treaty is None and reading is not None:
            treaty = reading.treaty
        else:
            reading = None
        if treaty is None:
            return []
        trained = self.direction_reader.residence

        def settled(text, tokens, mentions, parties, topic, grammar):
            if resident in parties and topic not in ("residence", *VISITING_TOPICS) and not supposed:
                return resident, 1.0
            return trained(text, tokens, mentions, parties, topic, grammar)
        wanted: list[tuple[PartTopic, str, bool]] = []
        for k, part in enumerate(asked):
            if k:
                wanted.append((part, part.topic, False))
            second = part.runner_up[0] if part.runner_up else None
            if second in rules.TOPICS and second not in {a.topic for a in asked}:
                wanted.append((part, second, True))
        out = []
        asked_texts = [p.question.text for p in asked]
        for part, topic, alternative in wanted:
            # "Y si soy residente en Brasil, ¿quién grava mi pensión?": a question that names its own residence
            supposed = _roles_named(part.question.text).get("residence", ())
            # a second question on a topic already asked ("And hers?") is read without the other questions, so
            # its own words decide its facts (a fund's pension after an INSS one)
            repeated = not alternative and any(p.topic == topic for p in asked[:asked.index(part)])
            text = own_option(question, part.question.text)
            text = context_of(text, part.question.text, asked_texts) if repeated else text
            q = dataclasses.replace(understand(text, rules.known_treaties(), topic=topic,
                                               read_residence=_enterprise_residence(settled, part.question.text,
                                                                                    topic)),
                                    treaty=treaty)
            if repeated and topic == "pensions":
                q = _own_scheme(q, part.question.text)
            if not alternative:   # what kind of income the question itself names wins ("E a do fundo de pensões?")
                own = _own_kinds(q.facts, _asking_words(question, part, asked), topic, q.residence_state, question)
                q = dataclasses.replace(q, facts=_others_kinds(own, part.question.text, topic, asked),
                                        asked=part.question.text)
            q = _relief_of_first(q, topic, asked[0].topic, part.question.text)
            if reading is not None:       # the States the reading assumes, where the question names none
                q = dataclasses.replace(q, residence_state=q.residence_state or reading.residence_state,
                                        source_state=q.source_state or reading.source_state, treaty_inferred=True,
                                        host_state=q.host_state or reading.visited)
            if topic in RELIEF_TOPICS and q.topics[1:2] == (asked[0].topic,):
                # the kind of the income it is about, as the first question's reading reads it ("a villa": an
                # immovable gain), which a relief question's own reading does not look for
                first = understand(question, rules.known_treaties(), topic=asked[0].topic, read_residence=settled)
                kinds = {k: getattr(first.facts, k) for k in INCOME_KINDS
                         if getattr(q.facts, k) is None and getattr(first.facts, k) is not None}
                q = dataclasses.replace(q, facts=dataclasses.replace(q.facts, **kinds)) if kinds else q
            out.append(_Part(None, q, run_rules(q, merge_facts(q.facts, extra_facts)), part, alternative))
        return out

    # ---- steps ------------------------------------------------------------------------------
    def _llm_dict(self) -> dict[str, Any]:
        return {"backend": self.llm_info.backend, "model": self.llm_info.model}

    def _covered(self, lang: str) -> str:
        return ", ".join(f"{Formatter(lang).treaty(t)} ({t})" for t in rules.known_treaties()) + \
            ", MLI"

    def _abstention(self, query: Query, treaty: str | None, lang: str, subjects: Sequence[str] = ()) -> str | None:
        """The refusal, if the ticket gets one; `subjects`: what each question of a ticket out of scope as a
        whole asks about."""
        covered = self._covered(lang)
        if query.evasion:
            return msg(lang, "abstain_evasion")
        if query.pair_not_covered and treaty != "MLI":
            a, b = query.pair_not_covered
            return msg(lang, "abstain_pair", a=state_name(a, lang), b=state_name(b, lang), covered=covered)
        if query.out_of_scope:
            what = "; ".join(dict.fromkeys(msg(lang, f"out_of_scope.{code}", default=msg(lang, "out_of_scope.other"))
                                           for code in (query.out_of_scope, *subjects)))
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

    def _search_query(self, question: str, query: Query, asked: list[PartTopic]) -> TicketQuery:
        """The whole question, the sentences that ask and the articles of the topics its questions ask (each part's
        topic first, in order, then the rest the words name: assistant/ticket_query.py)."""
        treaties = [query.treaty] if query.treaty else [r.treaty for r in query.readings]
        if query.mentions_mli:
            treaties.append("MLI")
        topics = tuple(dict.fromkeys([*(p.topic for p in asked if not p.out_of_scope), *query.topics]))
        return ticket_query(question, topics, treaties, self.search.headings)

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
                     lang: str, asked: Sequence[PartTopic] = ()) -> Answer:
        index = {(c.doc, c.article, c.paragraph, c.subparagraph, c.quote): c.n
                 for c in citations if c.source == "rule"}

        def cite(c: rules.Citation) -> int | None:
            return index.get((c.doc, c.article or "", c.paragraph, c.subparagraph, self._quote(c)))

        kinds = {d.id: (d.kind[0] if d.kind else "") for d in self.catalog}
        sources = [Source(c.n, c.doc, kinds.get(c.doc, ""), c.treaty, c.article, c.paragraph, c.subparagraph,
                          c.heading, c.quote) for c in citations]
        treaties = list(dict.fromkeys(p.query.treaty for p in parts if p.query.treaty))
        intro, outro = [], []
        if sum(p.reading is not None for p in parts) > 1:
            intro.append(say("readings_intro"))
        elif len(query.readings) > 1 and parts[0].reading is not None:   # the likeliest, the others offered
            others = tuple(_reading_label(r) for r in query.readings if r != parts[0].reading)
            outro.append(say("readings_others", others=Join(others)))
        run = _combined([p.run for p in parts])
        missing = list(run.missing_facts)
        card = build_card([CardPart(_part_label(p, parts), p.query.topic, p.run) for p in parts], cite, lang,
                          treaties, sources, missing,
                          intro=[Line("intro", x) for x in intro], outro=[Line("intro", x) for x in outro],
                          stated_rates=query.stated_rates)
        notices = []
        if query.injection:
            notices.append(msg(lang, "injection_notice"))
        notices += [msg(lang, "side_note",
                        what=msg(lang, f"out_of_scope.{code}", default=msg(lang, "out_of_scope.other")))
                    for code in query.side_notes]
        fmt = Formatter(lang)
        choices = [ReadingChoice(r.treaty, render(_reading_label(r), fmt), _clarification(r, lang))
                   for r in (query.readings if parts[0].reading is not None else ())]
        premise = render(card.premise.text, fmt) if card.premise else ""
        return Answer(question=question, language=lang, answer="", abstained=False,
                      treaty=treaties[0] if treaties else None, rates=_rate_lines(card), citations=citations,
                      card=card_markdown(card), card_data=card, llm=self._llm_dict(), missing_facts=missing,
                      follow_up=follow_up_markdown(card), notices=notices, query=query,
                      rule_results=run, readings=choices, premise=premise, reply=reply_text(card),
                      parts=_answer_parts(query, parts, asked, cite))

    def _generate(self, answer: Answer, query: Query) -> Iterator[StreamEvent]:
        """The model's paragraph, sentence by sentence: each finished sentence is checked against the card's
        data (assistant.claims) and shown only if it passes; a failed sentence is dropped and counted. A
        timeout or a backend failure keeps the sentences already verified."""
        lang = answer.language
        grounds = self._grounds(answer, query)
        guard = Guardrail(checked=True, attempts=1)
        buffer = SentenceBuffer()
        kept: list[str] = []
        started = time.perf_counter()

        def judge(sentences: list[str]) -> Iterator[StreamEvent]:
            for sentence in sentences:
                verdict = check_sentence(sentence, grounds)
                guard.numbers_checked += numbers_in(sentence)
                if verdict.ok:
                    if not kept:
                        answer.timings_ms["first_sentence"] = _ms(started)
                    yield StreamEvent("token", text=(" " if kept else "") + sentence)
                    kept.append(sentence)
                else:
                    guard.dropped.append(f"{sentence[:120]} — {'; '.join(verdict.problems)}")
                    guard.contradicted_claims += len(verdict.contradictions)

        failure = ""
        try:
            for token in stream_tokens(self.chat_model, self._messages(answer), self.settings.llm_timeout_s):
                answer.timings_ms.setdefault("first_token", _ms(started))
                yield from judge(buffer.feed(token))
        except TimeoutError as exc:
            failure = str(exc)
            guard.notes.append(f"tempo esgotado: {exc}")
        except Exception as exc:  # noqa: BLE001 - any backend failure degrades to the card
            failure = str(exc)[:160]
            guard.notes.append(f"falha do LLM: {failure}")
        done, tail = buffer.finish()
        yield from judge(done)
        if tail and not buffer.released and not failure:   # a one-sentence answer without a full stop
            yield from judge([tail])
        guard.sentences_kept, guard.sentences_dropped = len(kept), len(guard.dropped)
        answer.explanation = " ".join(kept)
        guard.action = "passed" if kept and not guard.dropped else "trimmed" if kept else "fallback"
        if failure:
            answer.notices.append(msg(lang, "llm_interrupted" if kept else "llm_failed", reason=failure))
        elif not kept:
            answer.notices.append(msg(lang, "llm_fallback"))
        answer.guardrail = guard

    @staticmethod
    def _grounds(answer: Answer, query: Query) -> Grounds:
        """The card's data the model's sentences are checked against. The user's asserted rates ground
        nothing: the premise line that repeats them is left out, and the question keeps its facts only."""
        card = grounding_texts(answer.card_data) if answer.card_data else ()
        texts = (*card, *(c.passage for c in answer.citations), *(c.label() for c in answer.citations))
        run = answer.rule_results
        return Grounds(outcome=tax_outcome(run), exemption=run is not None and run.gives_exemption, texts=texts,
                       refs=frozenset(c.n for c in answer.citations),
                       question=without_percentages(answer.question, query.stated_rates), language=answer.language)

    def _messages(self, answer: Answer) -> list:
        return build_messages(answer)


_CLASSIFIERS: dict[int, ExemplarClassifier] = {}


def reader_vectors(dense, settings: Settings) -> QueryVectors | None:
    """The query vectors the topic reader uses: the dense index's model, when it is a named one; what users ask
    is embedded through the index's memory, so dense search reads the asking sentences' vectors for free."""
    embeddings = getattr(dense, "embeddings", None)
    return None if embeddings is None else named_query_vectors(embeddings, settings, dense.embed_many)


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
    """One reading of the question (None when it is certain) and what the rules said for it; `asked`: the
    ticket's question it answers (None without the trained reader), `alternative`: a close second topic."""
    reading: Reading | None
    query: Query
    run: RuleRun
    asked: PartTopic | None = None
    alternative: bool = False


OUT_OF_SCOPE_SURE = 0.5


# The facts a second question on a topic may name for itself, against the ticket's story: the kind of
# pension, gain, royalty, job, beneficiary, a student's money, a loan.
OWN_KINDS = ("pension_kind", "gain_kind", "royalty_kind", "employment_kind", "beneficiary_kind",
             "student_payment_origin", "loan_purpose")


# What a question may state for itself against the story's ("E se o contrato for renovado e ele ficar 3 anos no
# total?", "And if we keep the shares 18 months?", "…transferring the shares to a company licensed in the Madeira
# free zone; would the limits still apply?"): the stay (as one group), the holding, a free-zone regime, and what
# an enterprise does in the other State ("¿Y si solo recopilara información?").
STAY_FACTS = ("stays", "stay_days", "stay_months", "stay_unit", "stay_in_one_year", "stay_low_days")
OWN_SUPPOSED = ("holding_pct", "holding_months", "free_zone_regime")


# A what-if that lengthens the story's stay ("E se ficar mais uma semana?", "extended by two weeks", "dos semanas
# más"), not one that states a new one ("mais de 6 meses" is a length).
_EXTENSION = re.compile(r"\b(?:extended by|(?:prorrogad|prolongad|alargad)[oa]s? (?:por|em)|another|"
                        r"(?<!ou )(?<!or )(?<!o )(?:mais|mas|more|extra|additional|adicionais|adicionales)\b"
                        r"(?! (?:de|than|do que)\b))")


def _lengths(facts: Facts, stated: Facts, asking: str = "") -> dict[str, Any]:
    """The stay, holding, regime and activity `stated` reads, to put over `facts`'; a stay the asking words
    add to the story's ("mais duas semanas") is the sum of both, and one they restate ("por esos diez meses",
    after "diez meses, de marzo a diciembre de este año") leaves the story's, with its dates."""
    out: dict[str, Any] = {k: getattr(stated, k) for k in OWN_SUPPOSED if getattr(stated, k) is not None}
    stay = stated.employment
    restated = not stay.stays and stay.stated_days is not None and stay.stated_days == facts.employment.stated_days
    if (stay.stays or stay.stay_days is not None or stay.stay_months is not None) and not restated:
        story, added = facts.employment.total_days, stay.total_days
        if story is not None and added is not None and _EXTENSION.search(fold(asking)):
            stay = dataclasses.replace(stay, stays=(), stay_days=story + added, stay_months=None, stay_unit="days",
                                       stay_in_one_year=facts.employment.stay_in_one_year)
        out["employment"] = dataclasses.replace(facts.employment, **{k: getattr(stay, k) for k in STAY_FACTS})
        out["stay_years"] = stated.stay_years
    if stated.pe_activity is not None:
        out.update(pe_activity=stated.pe_activity, attributable_to_pe=stated.attributable_to_pe)
    elif stated.attributable_to_pe is not None:
        # "…an employee there who habitually signs contracts. Would that change anything in that case?": the PE its
        # own words state, over the activity the story tells (an independent agent)
        out.update(pe_activity=None, attributable_to_pe=stated.attributable_to_pe)
    return out


@lru_cache(maxsize=256)
def _roles_named(asking: str) -> dict[str, tuple[str, ...]]:
    """The States a question's own words give a role: resident of ("y si soy residente en Brasil"), a PE in
    ("…passa a ter um estabelecimento estável em Portugal?"), work done in ("o trabalho que faço em Setúbal")."""
    tokens = tokenize(asking)
    mentions = find_mentions(asking, tokens, detect_language(asking))
    assign_roles(mentions, Grammar(tokens), False)
    return roles_of(mentions)


# Questions about an enterprise's profits: the residence is the enterprise's State, never where its PE is (a
# branch's remittance names the head office beside it: "a la central en España", left to the direction reader).
ENTERPRISE_TOPICS = ("permanent_establishment", "business_profits")


def _enterprise_residence(read: ReadResidence, asking: str, topic: str | None) -> ReadResidence:
    """The residence reader of a question on an enterprise's profits whose own words place the PE: the State
    of the PE is the source, so a residence read there (the agent in Leiria asking whether the Brazilian
    exporter has a PE in Portugal) is the other State."""
    pe = _roles_named(asking).get("pe", ()) if topic in ENTERPRISE_TOPICS else ()
    if not pe:
        return read

    def reading(text, tokens, mentions, parties, topic_, grammar):
        state, confidence = read(text, tokens, mentions, parties, topic_, grammar)
        if state in pe and state in parties:
            return parties[1 - parties.index(state)], confidence
        return state, confidence
    return reading


@lru_cache(maxsize=256)
def _asked_facts(asking: str, topic: str) -> Facts:
    """The facts the asking words alone state, read as a question on `topic` (a later question's own words are
    read both for the first question's story and for its own section: once)."""
    return understand(asking, rules.known_treaties(), topic=topic).facts


# A question that asks about the case the sentences before it suppose ("A administração pondera passar a marca
# para a Zona Franca da Madeira. Nesse caso, o Brasil continua obrigado…?", "In that case, …?").
_THAT_CASE = (r"(?:nesse|neste|nessa|nesta|naquele|em tal|en ese|en este|en tal|en dicho|in that|in this|in such a)"
              r" (?:caso|cenario|hipotese|supuesto|escenario|case|scenario|event)")
_IN_THAT_CASE = re.compile(QUESTION_OPENING + _THAT_CASE + r"\b")
# ... or a short question that ends on it ("¿Cambiaría algo en ese caso?", "What changes in that case?")
_THAT_CASE_LAST = re.compile(r"\b" + _THAT_CASE + r"\W*$")
THAT_CASE_WORDS = 8     # the longest such question that ends on it, in words


def _asks_that_case(question: str) -> bool:
    """The question asks about the case the sentences before it suppose."""
    folded = fold(question)
    return bool(_IN_THAT_CASE.match(folded) or
                (_THAT_CASE_LAST.search(folded) and len(folded.split()) <= THAT_CASE_WORDS))


def _asking_words(question: str, part: PartTopic, asked: list[PartTopic]) -> tuple[str, str]:
    """What a question's own facts are read from: its own words (its item's, or the case it asks about: "¿Cambiaría
    algo en ese caso?" after the employee it supposes), and the story's sentences on the person it names."""
    return _own_words(question, part, asked), _person_words(question, part)


def _item_words(question: str, part: PartTopic) -> str:
    """A question's own words with the statement of the list item it closes ("2) My own pension is the basic
    kokumin nenkin. Is that one taxed only in Portugal?")."""
    return question[item_start(question, part.question):part.question.end]


# Who a question is about when it is not the writer: a colleague, or a person by name ("¿Y el de la Dra. Mori?")
_PEERS = {"colleague", "colleagues", "coworker", "colega", "colegas", "companero", "companera", "companeros"}
# …or one of several the story counts off ("- La primera participa en un campo de gas…", "¿la primera filial…?")
_ORDINALS = {"primeira", "primeiro", "primera", "primero", "first", "segunda", "segundo", "second", "terceira",
             "terceiro", "tercera", "tercero", "third"}
_NAME_LETTERS = 3


def _person_words(question: str, part: PartTopic) -> str:
    """The ticket's sentences on the person a question names, by name, as a colleague or by its rank in a list ("- La
    Dra. Mori se queda hasta diciembre, unos 240 días" for "¿Y el de la Dra. Mori?", "- La segunda sólo mantiene una
    oficina…" for "¿Y la oficina de la segunda filial?"): that one's stay or activity, not the one the ticket tells
    first. Empty when the question names nobody the story tells of."""
    asking = part.question.text
    tokens = tokenize(asking)
    words = [(i, t) for i, t in enumerate(tokens) if t.is_word]
    capitals = {i for k, (i, t) in enumerate(words)
                if k > 0 and t.orig[:1].isupper() and not t.orig.isupper() and len(t.norm) >= _NAME_LETTERS}
    if capitals:      # a capitalised word that names a place is no person ("Portugal", "Évora")
        capitals -= {i for m in find_mentions(asking, tokens, detect_language(asking)) for i in range(m.start, m.end)}
    names = {t.norm for i, t in words if t.norm in _PEERS or t.norm in _ORDINALS or i in capitals}
    if not names:
        return ""
    told = [s.text for s in sentences(question) if not part.question.start <= s.start < part.question.end and
            names & {t.norm for t in tokenize(s.text)}]
    return " ".join(told)


def _own_words(question: str, part: PartTopic, asked: list[PartTopic]) -> str:
    """A later question's own words: the question with the statement of the list item it closes ("2. O diretor de
    obra estará no Brasil 107 dias … O seu salário pode ser tributado no Brasil?"), and when it asks about the case
    the sentences before it suppose, those sentences too, back to the question before it."""
    if not _asks_that_case(part.question.text):
        return _item_words(question, part)
    before = max((p.question.end for p in asked if p.question.end <= part.question.start), default=None)
    return part.question.text if before is None else question[before:part.question.end]


def _story_lengths(facts: Facts, question: str, first: PartTopic, asked: list[PartTopic]) -> Facts:
    """A later question's what-if ("E se ficar 9 meses?", "¿Y si solo recopilara información?", "Nesse caso…?"
    after the case it supposes) is not the story: what it states for itself, the first question takes from the
    ticket without its later questions."""
    later = [p for p in asked if p is not first and not p.out_of_scope]
    own = {id(p): _own_words(question, p, asked) for p in later}
    # a list item's statement tells its own case: its stay is not a restatement of the story's, even when the
    # ticket's reading took it from there ("2) O engenheiro vai ficar lá 90 dias … O salário dele…?")
    unstayed = dataclasses.replace(facts, employment=dataclasses.replace(facts.employment, stays=(), stay_days=None,
                                                                         stay_months=None))
    stated = {id(p): _asked_facts(own[id(p)], p.topic) for p in later}
    restated = {k for p in later
                for k in _lengths(facts if own[id(p)] == p.question.text else unstayed, stated[id(p)])}
    # "E se mais pra frente eles contratarem um gerente que assina contratos aqui, aí muda?": how the business
    # would be done there is the supposition's, not the story's
    restated |= {k for p in later if supposes(own[id(p)]) and stated[id(p)].attributable_to_pe is not None
                 for k in ("attributable_to_pe", "pe_activity")}
    # a length only a later question states is that question's ("y otra cosa, la obra (dura como 3 años) cuenta
    # como establecimiento permanente?" after "del 1 de febrero al 31 de mayo"), not the story's restated
    told = "employment" not in restated and facts.employment.stated_days is not None and \
        any(stated[id(p)].employment.stated_days == facts.employment.stated_days for p in later)
    if not restated and not told:
        return facts
    story = understand(context_of(question, first.question.text,
                                  [own.get(id(p), p.question.text) for p in asked]),
                       rules.known_treaties(), topic=first.topic).facts
    if told and story.employment.stated_days != facts.employment.stated_days:
        restated.add("employment")
    if not restated:
        return facts
    kept = {k: getattr(story, k) for k in restated if k != "employment"}
    if "employment" in restated:
        kept["employment"] = dataclasses.replace(facts.employment,
                                                 **{k: getattr(story.employment, k) for k in STAY_FACTS})
    return dataclasses.replace(facts, **kept)


# The kinds that belong to one income: named in a question on another topic, they are that question's
# ("Portugal pode tributar o meu salário? E as senhas de presença do conselho?": the board is the fees').
INCOME_KINDS = ("pension_kind", "gain_kind", "royalty_kind", "employment_kind", "student_payment_origin")


def _others_kinds(facts: Facts, asking: str, topic: str, asked: Sequence[PartTopic]) -> Facts:
    """The facts a question's rules read: without a kind of income that another question, on another topic,
    names in its own words and this one does not (the ticket's reading keeps it). A relief question is about
    the income another question asks: the kinds are both's."""
    if topic in RELIEF_TOPICS:
        return facts
    own = _asked_facts(asking, topic)
    theirs: dict[str, Any] = {}
    for other in (p for p in asked if p.topic not in (topic, *RELIEF_TOPICS) and not p.out_of_scope
                  and p.question.text != asking):
        named = _asked_facts(other.question.text, other.topic)
        theirs.update({k: None for k in INCOME_KINDS if getattr(own, k) is None and getattr(named, k) is not None
                       and getattr(named, k) == getattr(facts, k)})
        # "E a remuneração do conselho?": the board the story names is the fees question's, even when its own
        # short words do not name it
        theirs.update({k: None for k, value in TOPIC_KINDS.get(other.topic, {}).items()
                       if getattr(own, k) is None and getattr(facts, k) == value})
    for other in (p for p in asked if p.topic == topic and p.question.text != asking):
        # "¿Puede Brasil gravar los intereses del CDB…? ¿Y los intereses del Tesouro…?": the public debt the
        # story names is the question's that names it, not the other's on the same income
        named = _asked_facts(other.question.text, topic)
        theirs.update({k: None for k in _SAME_TOPIC_FLAGS if getattr(named, k) and getattr(own, k) is None})
    return dataclasses.replace(facts, **theirs) if theirs else facts


# A flag of the income itself that one of two questions on the same income names for itself.
_SAME_TOPIC_FLAGS = ("government_debt",)


# The kind of income a topic is about, which a question on another topic does not take from the story.
TOPIC_KINDS: dict[str, dict[str, str]] = {"directors_fees": {"employment_kind": "director"}}


# a kind the story states more narrowly than the question's words ("these shares", of a company whose value is
# buildings): the story's stands
_REFINED: dict[tuple[str, str], frozenset[str]] = {("gain_kind", "shares"): frozenset({"shares_immovable"})}


_CLAUSE_CUT = re.compile(r"[,;]|\s(?:e|y|and|mas|pero|but)\s")


def _amount_kind(story: str, usd: bool) -> str | None:
    """The kind of the pension the story tells a yearly amount of (in US dollars, or else in another currency):
    named in the amount's clause or the nearest clause before it in its sentence ("cobra una pensión de la
    Seguridad Social española, unos 410 euros al mes")."""
    for sentence in sentences(story):
        clauses = _CLAUSE_CUT.split(sentence.text)
        told = [k for k, c in enumerate(clauses)
                if (usd_per_year(fold(c)) if usd else amount_per_year(fold(c))) is not None]
        for k in reversed(range(told[0] + 1)) if told else ():
            kind = _asked_facts(clauses[k], "pensions").pension_kind
            if kind is not None:
                return kind
    return None


def _own_kinds(facts: Facts, words: tuple[str, str], topic: str, residence: str | None, story: str) -> Facts:
    """The facts with the kinds of income the asking words themselves name ("o complemento do fundo de
    pensões", "the company pension") over those the rest of the ticket names (an INSS pension beside it), and
    the stay, holding or activity they state over the story's. `words`: the question's item and the story's
    sentences on whom it names; what the item's words say the enterprise does there ("o simples facto de a
    controlarmos a 100%") wins over what those sentences tell (a branch it may open instead)."""
    item, person = words
    asking = f"{item} {person}".strip()
    own = _asked_facts(asking, topic)
    said = _asked_facts(item, topic) if person else own
    if said.pe_activity is not None:
        own = dataclasses.replace(own, pe_activity=said.pe_activity, attributable_to_pe=said.attributable_to_pe)
    elif own.pe_activity is None:
        # a PE only the story's sentences on the person deny ("Inês … no office there") is the story's, which the
        # question's own words ("Does Inês signing the contracts create a PE?") do not restate
        own = dataclasses.replace(own, attributable_to_pe=said.attributable_to_pe)
    kinds: dict[str, Any] = {k: getattr(own, k) for k in OWN_KINDS if getattr(own, k) is not None
                             and getattr(facts, k) not in _REFINED.get((k, getattr(own, k)), ())}
    kinds.update(_lengths(facts, own, asking))
    if facts.pension_kind not in (None, kinds.get("pension_kind", facts.pension_kind)) and \
            own.pension_annual_usd is None and own.pension_annual_amount is None and \
            _amount_kind(story, facts.pension_annual_usd is not None) not in (None, kinds["pension_kind"]):
        # "¿Y la complementaria de la empresa quién la grava?" after "una pensión de la Seguridad Social de unos 410
        # euros al mes": the amount the story tells is the other pension's
        kinds.update(pension_annual_usd=None, pension_annual_amount=None)
    worked = {c for role in ("work", "base") for c in _roles_named(asking).get(role, ())}
    if topic == "employment" and residence is not None and worked == {residence}:
        # "o Brasil pode tributar a parte do salário do trabalho que faço em Setúbal?": the part of the pay the
        # question asks about is earned where its words place the work, whatever stay the story tells elsewhere
        kinds["services_in_residence_state"] = True
    if topic == "dividends" and facts.interest_on_equity and own.interest_on_equity is None and \
            any(m.value == "dividends" for m in topic_matches(tokenize(asking), detect_language(asking))):
        kinds["interest_on_equity"] = None   # "(i) a taxa sobre os JCP; (ii) a taxa sobre os dividendos"
    managed = own.residence.effective_management_in if own.residence is not None else None
    if managed is not None and facts.residence is not None and facts.residence.effective_management_in != managed:
        # "a job with a tanker operator managed from Lisbon - in that case…?" after a ship managed from Rio
        kinds["residence"] = dataclasses.replace(facts.residence, effective_management_in=managed)
    return dataclasses.replace(facts, **kinds) if kinds else facts


def _own_scheme(query: Query, asked: str) -> Query:
    """A second pension question that names its scheme ("…would Portugal then get to tax the INSS money?") is
    on the pension that scheme pays: its State is the source, whatever scheme the first question was on."""
    parties = rules.known_treaties().get(query.treaty or "", ())
    payer = scheme_named(asked, (parties[0], parties[1])) if len(parties) == 2 else None
    if payer is None or payer == query.source_state:
        return query
    return dataclasses.replace(query, source_state=payer, residence_state=parties[1 - parties.index(payer)])


def _third_country_parts(asked: list[PartTopic], query: Query) -> list[PartTopic]:
    """A later question whose own words name only a country outside the ticket's treaty, one that no treaty of the
    corpus joins to the person's residence ("e a parte de Madrid, como fica o imposto com a Espanha?" of a resident
    of Portugal, under Portugal–Brazil), asks about a treaty the corpus does not hold: out of scope."""
    treaties = rules.known_treaties()
    parties = set(treaties.get(query.treaty or "", ()))
    home = query.residence_state
    if len(parties) != 2 or home not in parties:
        return asked
    out = asked[:1]
    for part in asked[1:]:
        named = {m.code for m in find_mentions(part.question.text, tokenize(part.question.text), query.language)}
        joined = any({home, *named} <= set(pair) for pair in treaties.values())
        if part.out_of_scope or not named or named & parties or joined:
            out.append(part)
            continue
        out.append(dataclasses.replace(part, topic=OUT_OF_SCOPE, runner_up=None, other_treaty=True,
                                       outside=tuple(sorted(named))))
    return out


def _only_asked_about(question: str, asked: list[PartTopic]) -> set[str]:
    """The countries outside every treaty that only the ticket's questions on other treaties name ("¿Y los
    clientes de EE.UU.?"), not one the story names too ("soy colombiano … y en colombia tengo q declarar algo"):
    that one is where the person lives."""
    outside = {c for p in asked if p.other_treaty for c in p.outside}
    if not outside:
        return outside
    rest = context_of(question, "", [p.question.text for p in asked if p.other_treaty])
    tokens = tokenize(rest)
    return outside - {m.code for m in find_mentions(rest, tokens, detect_language(rest, tokens))}


def _with_parts(query: Query, asked: list[PartTopic]) -> Query:
    """The out-of-scope questions of a ticket become its side notes (each a one-line note on the card); a
    ticket whose every question is out of scope is out of scope, unless no out-of-scope word is in it and the
    word lists read a treaty topic or the model is unsure (< OUT_OF_SCOPE_SURE): the model's guess alone does not
    refuse a question on a clause it has seen little of (a Portaria item, a free zone, exchange of
    information); the question is then read as the word lists read it."""
    codes = tuple(out_of_scope_code(query.text, p) for p in asked if p.out_of_scope)
    if not codes:
        return query
    if len(codes) == len(asked):
        unsure = max(p.confidence for p in asked) < OUT_OF_SCOPE_SURE
        if query.out_of_scope is None and (unsure or (query.topic is not None and query.topic_method == "lexicon")):
            return query
        return dataclasses.replace(query, out_of_scope=query.out_of_scope or codes[0])
    return dataclasses.replace(query, side_notes=tuple(dict.fromkeys(query.side_notes + codes)))


def _refused_parts(query: Query, asked: list[PartTopic], reason: str | None = None) -> list[AnswerPart]:
    """The questions of a ticket refused as a whole, each a part of the refusal so none goes unanswered: a ticket
    whose every question is out of scope, each with what it asks about ("imposto do selo", "IVA"); or, with
    `reason`, one refused for what it is about as a whole (a pair of States no treaty of the corpus joins:
    "pela convenção entre Portugal e França…? E a da CNAV…?"), each question out of scope for that reason unless
    it names a side matter of its own."""
    if len(asked) < 2 or (reason is None and (not query.out_of_scope or not all(p.out_of_scope for p in asked))):
        return []

    def code(part: PartTopic) -> str:
        own = out_of_scope_code(query.text, part) if part.out_of_scope else "other"
        return reason if reason is not None and own == "other" else own
    return [AnswerPart(question=p.question.text, topic=OUT_OF_SCOPE, confidence=p.confidence, out_of_scope=code(p))
            for p in asked]


def _refusal_reason(query: Query) -> str:
    """What a ticket refused as a whole is out of scope for: another treaty, or what the reading found."""
    return "other_treaty" if query.pair_not_covered or query.treaty is None else query.out_of_scope or "other"


def _relief_of_first(query: Query, topic: str, first: str, asking: str) -> Query:
    """"…can Brazil tax the rent? And how do I avoid paying twice?": a later relief question is about the income
    the ticket's first question asks, not whatever income the ticket's words name first; unless its own words
    (`asking`) name one ("(iii) whether the dividends … remain exempt from Spanish tax")."""
    if topic not in RELIEF_TOPICS or query.treaty is None:
        return query
    incomes = rules.rights_incomes(query.treaty)
    own = [t for t in lexicon_topics(tokenize(asking), query.language) if t in incomes]
    income = own[0] if own else first
    if income not in incomes:
        return query
    return dataclasses.replace(query, topics=(topic, income, *(t for t in query.topics if t not in (topic, income))))


def _readings(query: Query, treaty: str | None) -> list[tuple[Reading | None, Query]]:
    """The question as read, or one query per candidate treaty when the pair is not certain."""
    if treaty is not None or not query.readings:
        return [(None, dataclasses.replace(query, treaty=treaty))]
    chosen = query.readings[:1] if query.readings[0].likely else query.readings
    return [(r, dataclasses.replace(query, treaty=r.treaty, residence_state=r.residence_state,
                                    source_state=r.source_state, treaty_inferred=True,
                                    host_state=query.host_state or r.visited))
            for r in chosen]


def _combined(runs: list[RuleRun]) -> RuleRun:
    """The runs of every reading as one, for citations, retrieval scope and the triage panel."""
    if len(runs) == 1:
        return runs[0]
    out = RuleRun()
    for run in runs:
        out.withholding += run.withholding
        out.figures += run.figures
        out.instrument_figures += [f for f in run.instrument_figures if f not in out.instrument_figures]
        out.rights += run.rights
        out.relief += [r for r in run.relief if r not in out.relief]
        out.documents += [d for d in run.documents if d not in out.documents]
        out.errors += run.errors
        out.missing_facts += [m for m in run.missing_facts if m not in out.missing_facts]
        out.stated += [c for c in run.stated if c not in out.stated]
        out.employment = out.employment or run.employment
        out.tiebreaker = out.tiebreaker or run.tiebreaker
        out.site = out.site or run.site
        out.activity = out.activity or run.activity
        out.facts = out.facts or run.facts
        out.not_covered = out.not_covered or run.not_covered
        out.absent = out.absent or run.absent
        out.source_unknown = out.source_unknown or run.source_unknown
    return out


def _part_label(part: _Part, parts: list[_Part]) -> Value | None:
    """A section's heading: the treaty reading, the ticket's question when it asks several, "if this is
    about ..." when a close second topic of the same question is answered too."""
    heads: list[Value] = [_reading_label(part.reading)] if part.reading is not None else []
    asked = [p.asked for p in parts if p.asked is not None and not p.alternative]
    if part.asked is not None and not part.alternative and len(asked) > 1:
        heads.append(say("part_heading", question=_clip(part.asked.question.text)))
    hedged = any(p.alternative and p.asked == part.asked for p in parts)
    if part.asked is not None and (part.alternative or hedged):
        heads.append(say("part_if_topic", topic=Topic(part.query.topic or "")))
    return None if not heads else heads[0] if len(heads) == 1 else Join(tuple(heads), " — ")


def _clip(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + "…"


def _answer_parts(query: Query, parts: list[_Part], asked: Sequence[PartTopic], cite) -> list[AnswerPart]:
    """The ticket's questions as answered: each section's reading and rules, then the out-of-scope ones."""
    out = []
    for part in parts:
        if part.asked is None:
            continue
        cited = {n for n in (cite(c) for c in part.run.citations()) if n}
        confidence = part.asked.runner_up[1] if part.alternative and part.asked.runner_up else part.asked.confidence
        out.append(AnswerPart(question=part.asked.question.text, topic=part.query.topic or "", confidence=confidence,
                              alternative=part.alternative, rule_results=part.run, citations=tuple(sorted(cited))))
    out += [AnswerPart(question=p.question.text, topic=p.topic, confidence=p.confidence,
                       out_of_scope=out_of_scope_code(query.text, p)) for p in asked if p.out_of_scope]
    return out


def _reading_label(reading: Reading) -> Phrase:
    key = {"residence": "reading_residence", "source": "reading_source"}.get(reading.assumed_role or "",
                                                                            "reading_other")
    return say(key, state=StateName(reading.assumed or "", _FORM.get(reading.assumed_role or "", "name")),
               treaty=Treaty(reading.treaty))


def _clarification(reading: Reading, lang: str) -> str:
    key = {"residence": "clarify_residence", "source": "clarify_source"}.get(reading.assumed_role or "",
                                                                            "clarify_other")
    return render(say(key, state=StateName(reading.assumed or "", _FORM.get(reading.assumed_role or "", "name"))),
                  Formatter(lang))


_FORM: dict[str, StateForm] = {"residence": "in", "source": "from"}   # "residente no Brasil", "vem do Brasil"


def _rate_lines(card: Card) -> list[RateLine]:
    """The card's rates as the JSON contract's `rates` (condition in words, citation as a short label)."""
    fmt = Formatter(card.language)
    return [RateLine(value=r.value, income=r.income, source_state=r.source_state, residence_state=r.residence_state,
                     condition=render(r.condition, fmt) if r.condition is not None else "",
                     citation=r.ref.label() if r.ref else "") for r in card.rates()]


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
