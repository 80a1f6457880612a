from ingest.chunks import _SENTENCE_END, MAX_CHARS, split_sentences
from ingest.corpus import DEFAULT_CORPUS_DIR
from ingest.index import build_chunks


def test_chunks_follow_paragraphs_with_heading_context():
    chunks = build_chunks(DEFAULT_CORPUS_DIR)
    dividends = [c for c in chunks if c.doc == "pt-br-2000" and c.article == "10" and c.paragraph == "2"]
    assert len(dividends) == 1
    chunk = dividends[0]
    assert chunk.context == "Artigo 10 — Dividendos"
    assert "10%" in chunk.text and "15%" in chunk.text
    assert chunk.embed_text.startswith("Artigo 10 — Dividendos\n")


def test_chunk_ids_are_unique_and_deterministic():
    first = [c.id for c in build_chunks(DEFAULT_CORPUS_DIR)]
    assert len(first) == len(set(first))
    assert first == [c.id for c in build_chunks(DEFAULT_CORPUS_DIR)]


def test_bilingual_document_is_chunked_in_both_languages():
    chunks = [c for c in build_chunks(DEFAULT_CORPUS_DIR) if c.doc == "br-es-1974" and c.article == "11"]
    assert {c.language for c in chunks} == {"pt", "es"}


def test_article_lead_in_is_not_lost():
    chunks = build_chunks(DEFAULT_CORPUS_DIR)
    portaria_i = [c for c in chunks if c.doc == "br-portaria-pt-br" and c.article == "I"]
    assert any("Banco Central do Brasil" in c.text for c in portaria_i)


def test_long_paragraphs_split_between_sentences_only():
    sentence = "Esta frase tem exatamente algumas palavras para encher espaço. "
    text = (sentence * 60).strip()
    pieces = split_sentences(text, limit=300)
    assert len(pieces) > 1
    assert all(len(p) <= 300 for p in pieces)
    assert all(p.endswith(".") for p in pieces)
    assert " ".join(pieces) == text


def test_no_chunk_is_a_blind_window():
    """Over the limit only when it is one sentence that cannot be cut between sentences."""
    for chunk in build_chunks(DEFAULT_CORPUS_DIR):
        assert len(chunk.text) <= MAX_CHARS or not _SENTENCE_END.search(chunk.text), chunk.id
