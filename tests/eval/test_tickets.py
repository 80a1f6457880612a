"""The ticket bank: every line valid, ids unique, splits by page, the test split sealed."""
from __future__ import annotations

import json

import pytest

from eval import tickets as tk


def _all() -> dict[str, list[tk.Ticket]]:
    return {split: tk.load(split) for split in ("train", "test")}


def test_every_ticket_is_valid_and_ids_are_unique() -> None:
    banks = _all()
    ids = [t.id for items in banks.values() for t in items]
    assert len(ids) == len(set(ids))
    assert len(ids) >= 1


def test_no_source_page_in_two_splits_and_each_ticket_in_its_pages_split() -> None:
    banks = _all()
    pages = {split: {t.page for t in items} for split, items in banks.items()}
    assert not pages["train"] & pages["test"]
    for split, items in banks.items():
        assert all(t.split == split for t in items)


def test_the_test_split_matches_its_sealed_manifest() -> None:
    sealed = json.loads(tk.SEALED.read_text())["tickets"]
    test = {t.id: tk.content_hash(t) for t in tk.load("test")}
    assert test == sealed, "a sealed test ticket was added, removed or edited without re-sealing"


def test_page_key_ignores_scheme_www_query_and_trailing_slash() -> None:
    assert tk.page_key("https://www.Example.org/a/b/?x=1#f") == tk.page_key("http://example.org/a/b")
    assert tk.page_key("https://example.org/a") != tk.page_key("https://example.org/b")


def _ticket(**changes: object) -> dict:
    base = {"id": "tk-t-0001", "text": "Sou reformado do INSS e vivo em Braga. Quem tributa a pensão?",
            "language": "pt", "variant": "pt-PT", "style": "chat", "source_url": "https://example.org/p",
            "treaty": "PT-BR", "residence_state": "PT", "source_state": "BR",
            "facts": [{"name": "pension_kind", "value": "social_security", "span": "reformado do INSS"}],
            "parts": [{"question": "Quem tributa a pensão?", "topic": "pensions",
                       "expected": {"outcome": "source_only", "state": "BR", "articles": ["18(2)"]}}]}
    base.update(changes)
    return base


def test_a_good_ticket_validates() -> None:
    assert tk.Ticket.model_validate(_ticket()).parts[0].topic == "pensions"


@pytest.mark.parametrize("changes", [
    {"facts": [{"name": "pension_kind", "value": "social_security", "span": "not in the text"}]},
    {"facts": [{"name": "pension_kind", "value": "state", "span": "reformado do INSS"}]},
    {"facts": [{"name": "holding_pct", "value": "30%", "span": "reformado do INSS"}]},
    {"facts": [{"name": "shoe_size", "value": 42, "span": "reformado do INSS"}]},
    {"parts": [{"question": "Quem tributa a pensão?", "topic": "pensions", "expected": {"outcome": "capped",
                                                                                         "articles": ["18"]}}]},
    {"parts": [{"question": "Quem tributa a pensão?", "topic": "pensions", "expected": {"outcome": "both"}}]},
    {"parts": [{"question": "Quem tributa a pensão?", "topic": "out_of_scope",
                "expected": {"outcome": "abstain"}}]},
    {"parts": [{"question": "Quem tributa?", "topic": "pensions", "out_of_scope": "vat",
                "expected": {"outcome": "abstain"}}]},
    {"parts": [{"question": "Quem tributa a pensão?", "topic": "pensions",
                "expected": {"outcome": "both", "articles": ["28(2)(b)(i)"]}}]},      # the scorer can't read it
    {"variant": None},
    {"language": "es"},
    {"id": "TK-1"},
    {"source_url": "not a url"},
])
def test_a_bad_ticket_is_rejected(changes: dict) -> None:
    with pytest.raises(ValueError):
        tk.Ticket.model_validate(_ticket(**changes))


def test_split_writes_by_page_and_seals_the_test_tickets(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(tk, "SEALED", tmp_path / "SEALED.json")
    (tmp_path / "incoming").mkdir()
    urls = [f"https://example.org/page-{i}" for i in range(40)]
    lines = [json.dumps(_ticket(id=f"tk-t-{i:04d}", source_url=u)) for i, u in enumerate(urls)]
    (tmp_path / "incoming" / "b1.jsonl").write_text("\n".join(lines) + "\n")
    counts = tk.split_incoming(tmp_path, final=True)
    assert counts["train"] + counts["test"] == 40
    assert counts["test"] == sum(tk.page_split(u) == "test" for u in urls) > 0
    assert not (tmp_path / "incoming" / "b1.jsonl").exists()
    sealed = json.loads((tmp_path / "SEALED.json").read_text())
    assert set(sealed["tickets"]) == {t.id for t in tk.load("test", tmp_path)}
    assert sealed["batches"] == {"b1": counts["test"]}
