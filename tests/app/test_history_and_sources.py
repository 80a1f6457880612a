"""The conversation store (SQLite WAL, per session, versions), the answer link's facts, sources grouped by
paragraph with [n] linked to them, OCR headings fixed for display, the browser's keyword search and the UI
language default."""
from datetime import date
from pathlib import Path

import pytest
from wordfreq import zipf_frequency

from app_support.answer_view import answer_url, cite_link, cite_targets
from app_support.article_search import search_articles
from app_support.history import HistoryStore, facts_from_json, facts_to_json
from app_support.ocr_display import display_heading
from app_support.sources import group_sources
from app_support.ui import browser_language
from assistant.answer import CitationRef
from ingest.corpus import cached_corpus

REPO = Path(__file__).resolve().parents[2]


def test_history_keeps_each_session_turns_and_versions(tmp_path):
    store = HistoryStore(f"sqlite:///{tmp_path / 'app.sqlite3'}")
    store.save("s1", "t1", 0, 0, "Recebo dividendos (NIF 123456789)", {}, "Recebo dividendos")
    store.save("s1", "t1", 1, 0, "Recebo dividendos", {"beneficiary_kind": "individual"}, "+ pessoa")
    store.save("s1", "t2", 0, 1, "Pensão do INSS", {}, "Pensão do INSS", "Explicação.")
    store.save("s2", "t9", 0, 0, "Outra sessão", {}, "Outra sessão")
    turns = store.load("s1")
    assert [[v.version for v in turn] for turn in turns] == [[0, 1], [0]]
    assert turns[0][0].question == "Recebo dividendos (NIF [NIF])"          # identifiers never reach the disk
    assert turns[0][1].facts == {"beneficiary_kind": "individual"} and turns[1][0].explanation == "Explicação."
    store.save("s1", "t2", 0, 1, "Pensão do INSS", {}, "Pensão do INSS", "Outra explicação.")   # model text arrives
    assert store.load("s1")[1][0].explanation == "Outra explicação."
    assert store.load("nobody") == []
    import sqlite3
    with sqlite3.connect(tmp_path / "app.sqlite3") as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_facts_survive_the_url_and_bad_facts_are_refused():
    facts = {"holding_since": date(2021, 5, 1), "holding_pct": 30.0, "beneficiary_kind": "company"}
    assert facts_from_json(facts_to_json(facts)) == facts
    url = answer_url("Recebo dividendos do Brasil?", facts)
    assert url.startswith("?q=Recebo+dividendos+do+Brasil%3F&facts=")
    for bad in ("[1]", '{"no_such_fact": 1}', "{not json"):
        with pytest.raises(ValueError):
            facts_from_json(bad)


def _ref(n, paragraph, source="rule", sub=None):
    return CitationRef(n=n, doc="br-es-1974", treaty="BR-ES", article="12", paragraph=paragraph, subparagraph=sub,
                       quote=f"q{n}", chunk_id=None, language="pt", source=source)


def test_sources_are_one_per_paragraph_and_the_card_links_each_number_to_its_paragraph():
    refs = [_ref(1, "2", sub="a"), _ref(2, "2", sub="b"), _ref(3, "3"), _ref(4, "2", "retrieval"),
            _ref(5, "4", "retrieval")]
    cited, more = group_sources(refs)
    assert [s.numbers for s in cited] == [(1, 2, 4), (3,)] and [s.numbers for s in more] == [(5,)]
    assert cited[0].subparagraph is None             # two alíneas of one paragraph: the paragraph is shown
    targets = cite_targets("t1", refs)
    assert targets[2] == targets[1] == "src-t1-1" and targets[3] == "src-t1-3"
    link = cite_link(targets)
    assert link(2) == "[\\[2\\]](#src-t1-1)" and link(3) == "[\\[3\\]](#src-t1-3)" and link(7) == "[7]"


def test_garbled_spanish_headings_are_fixed_for_display():
    assert display_heading("lntereses", "es") == "intereses"
    assert display_heading("Definiclones generales", "es") == "Definiciones generales"
    assert display_heading("Jmpuestos que on objeto del presente Convenio.", "es").startswith("Impuestos")
    assert display_heading("lntercamblo de lnformacl6n", "es") == "intercambio de información"
    assert display_heading("a ntes", "es") == "antes"
    assert display_heading("Dividendos", "es") == "Dividendos"


def _non_words(texts: list[str]) -> tuple[int, int]:
    import re
    words = [w for text in texts for w in re.findall(r"[^\W\d_]+", text)]
    return sum(zipf_frequency(w.lower(), "es") == 0 for w in words), len(words)


def test_displayed_spanish_br_es_text_is_at_most_one_percent_non_words():
    """What the browser, the calculators and the sources show of the Spanish BR-ES text: the headings as
    displayed and every unit in its clean reading."""
    _, docs = cached_corpus(REPO / "corpus")
    doc = docs["br-es-1974"]
    units = [u for u in doc.units if u.language == "es"]
    leaves = [u for u in units if not any(x.parent == u.uid for x in units)]
    shown = [display_heading(u.heading, "es") for u in doc.articles() if u.language == "es" and u.heading]
    shown += [u.clean_text for u in leaves]
    bad, total = _non_words(shown)
    assert total > 5000 and bad / total <= 0.01, (bad, total)
    raw_bad, _ = _non_words([u.heading for u in doc.articles() if u.language == "es"] + [u.text for u in leaves])
    assert raw_bad > bad          # the raw scan is worse: the measure can fail


def test_keyword_search_finds_articles_in_any_language():
    _, docs = cached_corpus(REPO / "corpus")
    hits = search_articles(docs, "pensões")
    assert {(h.doc, h.article.article) for h in hits[:3]} >= {("pt-br-2000", "18")}
    assert any(h.doc == "br-es-1974" and h.article.language == "es" for h in search_articles(docs, "cánones"))
    assert search_articles(docs, "   ") == []


def test_ui_language_follows_the_browser_then_portuguese():
    assert browser_language("es-ES") == "es" and browser_language("en-GB") == "en"
    assert browser_language("fr-FR") == "pt" and browser_language(None) == "pt"


def test_a_rule_passage_no_card_line_cites_goes_under_more_passages():
    refs = [_ref(1, "2"), _ref(2, "3"), _ref(3, "4", "retrieval")]
    cited, more = group_sources(refs, on_card={1})
    assert [s.numbers for s in cited] == [(1,)] and [s.numbers for s in more] == [(2,), (3,)]


def test_every_source_shown_as_the_cards_is_cited_by_a_line_of_it(real_assistant):
    """Dividends from Brazil: the Portaria's chapeau on registered investments and its proviso on domestic law
    are quoted by the rules but said by no line of the card, so they are not shown as the card's sources."""
    answer = real_assistant.ask("Sou residente em Portugal e recebo dividendos de uma empresa brasileira. "
                                "Qual a retenção máxima?")
    assert answer.card_data is not None
    on_card = answer.card_data.cited()
    rule_numbers = {c.n for c in answer.citations if c.source == "rule"}
    assert rule_numbers - on_card, "the rules quote passages the card does not cite"
    cited, more = group_sources(answer.citations, on_card)
    assert cited and all(set(s.numbers) & on_card for s in cited)
    assert {n for s in more for n in s.numbers} >= rule_numbers - on_card - {n for s in cited for n in s.numbers}
