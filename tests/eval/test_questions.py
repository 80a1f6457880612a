"""The evaluation set is well formed, balanced, covers the corpus, and its gold agrees with the sources."""
from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from eval.gold import DEFAULT_QUESTIONS, GoldError, item_from_record, load_questions, normalise_article, normalise_part
from ingest.catalog import load_catalog
from ingest.corpus import DEFAULT_CORPUS_DIR, cached_corpus, read_source

ITEMS = load_questions()
CATALOG = {d.id: d for d in load_catalog(DEFAULT_CORPUS_DIR)}
SOURCES = {doc_id: read_source(info.path) for doc_id, info in CATALOG.items()}
TREATIES = {d.treaty for d in CATALOG.values()}

REQUIRED_CATEGORIES = {
    "dividends", "interest", "royalties", "technical_services", "branch_profits", "employment_183",
    "tiebreaker", "pe_threshold", "students", "professors", "pensions", "tax_sparing", "relief",
    "mutual_agreement", "mli", "portaria", "applicability", "out_of_corpus_pair", "out_of_scope_topic",
    "hostile", "empty_or_garbage",
}


def test_size_and_unique_ids():
    assert len(ITEMS) >= 130
    ids = [i.id for i in ITEMS]
    assert len(ids) == len(set(ids)), [x for x, n in Counter(ids).items() if n > 1]
    assert all(re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)+", i) for i in ids)


def test_language_mix():
    counts = Counter(i.language for i in ITEMS)
    share = {k: v / len(ITEMS) for k, v in counts.items()}
    assert 0.62 <= share["pt"] <= 0.78
    assert 0.10 <= share["es"] <= 0.22
    assert 0.10 <= share["en"] <= 0.22
    variants = Counter(i.variant for i in ITEMS if i.language == "pt" and i.question.strip())
    pt_total = sum(variants.values())
    assert variants["pt-PT"] / pt_total >= 0.3 and variants["pt-BR"] / pt_total >= 0.3
    assert all(i.variant is None for i in ITEMS if i.language != "pt")


def test_categories_cover_the_brief():
    assert REQUIRED_CATEGORIES <= {i.category for i in ITEMS}


def test_every_document_is_covered_and_docs_exist():
    covered = Counter(d for i in ITEMS for d in i.docs)
    assert set(covered) <= set(CATALOG), set(covered) - set(CATALOG)
    for doc_id in CATALOG:
        assert covered[doc_id] >= 5, f"{doc_id} só tem {covered[doc_id]} perguntas"


def test_treaties_and_docs_agree():
    for item in ITEMS:
        assert item.treaty is None or item.treaty in TREATIES, item.id
        treaties_cited = {a.treaty for a in item.articles + item.articles_ok}
        doc_treaties = {CATALOG[d].treaty for d in item.docs}
        assert treaties_cited <= doc_treaties, (item.id, treaties_cited, doc_treaties)


def test_abstain_items_have_no_gold_answer():
    for item in ITEMS:
        if item.abstain:
            assert not (item.rates or item.articles or item.key_facts or item.forbidden_rates), item.id
        else:
            assert item.treaty is not None and item.articles, item.id
    out = [i for i in ITEMS if i.category in {"out_of_corpus_pair", "out_of_scope_topic", "empty_or_garbage"}]
    assert len(out) >= 20 and all(i.abstain for i in out)


def test_rates_are_consistent():
    for item in ITEMS:
        assert not set(item.rates) & set(item.forbidden_rates), item.id
        assert not set(item.rates_allowed) & set(item.forbidden_rates), item.id
        assert all(0 <= r <= 100 for r in item.rates + item.rates_allowed + item.forbidden_rates), item.id


def test_income_types_have_items_with_and_without_enough_facts():
    for category in ("dividends", "interest", "royalties"):
        sized = Counter(min(len(i.rates), 2) for i in ITEMS if i.category == category)
        assert sized[1] >= 3 and sized[2] >= 1, (category, sized)


def test_hostile_items_include_injections_inside_valid_questions():
    hostile = [i for i in ITEMS if i.category == "hostile"]
    injected = [i for i in hostile if not i.abstain and i.forbidden_rates and i.rates]
    assert len(injected) >= 6
    assert any(i.abstain for i in hostile)


def test_employment_items_use_concrete_dates_in_each_counting_window():
    dated = [i for i in ITEMS if i.category == "employment_183" and re.search(r"\b20\d\d\b", i.question)]
    assert {i.treaty for i in dated} >= {"PT-BR", "BR-ES", "PT-JP"}


def test_paragraphs_belong_to_cited_articles():
    for item in ITEMS:
        articles = {(a.treaty, a.article) for a in item.articles + item.articles_ok}
        for p in item.paragraphs:
            assert (p.treaty, p.article) in articles, (item.id, p)


def _rate_written(rate: float, text: str) -> bool:
    number = str(int(rate)) if rate == int(rate) else str(rate)
    return re.search(rf"(?<![\d.,]){re.escape(number)}\s?%", text) is not None


def test_every_gold_rate_is_written_in_one_of_the_items_documents():
    for item in ITEMS:
        texts = [SOURCES[d] for d in item.docs]
        for rate in item.rates + item.rates_allowed:
            if rate == 0:
                assert any(re.search(r"isent|exent", t, re.I) for t in texts), item.id
            else:
                assert any(_rate_written(rate, t) for t in texts), (item.id, rate)


def _addressable(item_docs: tuple[str, ...], treaty: str | None) -> list:
    _, parsed = cached_corpus()
    return [u for d in item_docs if CATALOG[d].treaty == treaty for u in parsed[d].units]


def test_every_gold_address_exists_in_the_parsed_corpus():
    """A gold article or paragraph nobody can cite would make recall unreachable."""
    for item in ITEMS:
        for a in item.articles + item.articles_ok:
            units = _addressable(item.docs, a.treaty)
            assert any(normalise_article(u.article) == a.article for u in units if u.article), (item.id, a)
        for p in item.paragraphs:
            units = _addressable(item.docs, p.treaty)
            assert any(normalise_article(u.article) == p.article and normalise_part(u.paragraph) == p.paragraph
                       and (p.subparagraph is None or normalise_part(u.subparagraph) == p.subparagraph)
                       for u in units if u.article), (item.id, p)


def _ngrams(text: str, n: int = 8) -> set[tuple[str, ...]]:
    words = re.findall(r"\w+", text.lower())
    return {tuple(words[i:i + n]) for i in range(len(words) - n + 1)}


def test_questions_are_not_copied_from_the_corpus():
    corpus = set().union(*(_ngrams(t) for t in SOURCES.values()))
    copied = [i.id for i in ITEMS if _ngrams(i.question) & corpus]
    assert not copied


def test_loader_rejects_bad_records(tmp_path: Path):
    good = json.loads(DEFAULT_QUESTIONS.read_text(encoding="utf-8").splitlines()[0])
    for broken, message in (
        ({**good, "language": "fr"}, "língua"),
        ({**good, "key_facts": ["(unclosed"]}, "expressão regular"),
        ({**good, "rates": ["10%"]}, "rates"),
        ({**good, "paragraphs": ["10-2-a"]}, "número"),
        ({k: v for k, v in good.items() if k != "abstain"}, "abstain"),
    ):
        with pytest.raises(GoldError, match=message):
            item_from_record(broken)
    bad_file = tmp_path / "q.jsonl"
    bad_file.write_text(json.dumps(good) + "\n{not json\n", encoding="utf-8")
    with pytest.raises(GoldError, match="linha 2"):
        load_questions(bad_file)
