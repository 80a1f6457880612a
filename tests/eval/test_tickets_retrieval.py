"""Retrieval-only scoring of the ticket bank on a hand-made ticket: recall@5 per answered part, abstaining
parts left out, and the tables."""
from __future__ import annotations

from eval.tickets import Ticket
from eval.tickets_retrieval import markdown, score, summary

TICKET = Ticket.model_validate({
    "id": "tk-hand-0003", "language": "es", "style": "email", "source_url": "https://example.org/jubilado",
    "treaty": "BR-ES", "residence_state": "ES", "source_state": "BR",
    "text": ("Hola, cobro la pensión del INSS y vivo en Málaga. ¿Tengo que tributar esa pensión en España? "
             "¿Y el IVA de mis compras en Brasil?"),
    "parts": [
        {"question": "¿Tengo que tributar esa pensión en España?", "topic": "pensions",
         "expected": {"outcome": "source_only", "state": "BR", "articles": ["19(4)", "23(1)"]}},
        {"question": "¿Y el IVA de mis compras en Brasil?", "topic": "out_of_scope", "out_of_scope": "vat",
         "expected": {"outcome": "abstain"}}]})


def test_recall_counts_each_gold_article_of_an_answered_part():
    parts = score(TICKET, [("BR-ES", "18"), ("BR-ES", "19"), ("BR-ES", "2"), ("BR-ES", "3"), ("BR-ES", "4"),
                           ("BR-ES", "23")])
    assert len(parts) == 1                       # the out-of-scope part has no article to find
    assert parts[0].recall == 0.5                # 19 in the top 5, 23 only sixth
    assert not parts[0].top1


def test_an_article_of_another_treaty_does_not_count():
    (part,) = score(TICKET, [("PT-BR", "19"), ("PT-BR", "23")])
    assert part.recall == 0.0


def test_summary_and_tables_split_by_language_and_topic():
    parts = score(TICKET, [("BR-ES", "19"), ("BR-ES", "23")]) + score(TICKET, [("BR-ES", "1")])
    rep = summary(parts)
    assert rep["recall_at_5"] == 0.5 and rep["top1"] == 0.5 and rep["all_gold_at_5"] == 0.5
    assert rep["by"]["topic"]["pensions"]["parts"] == 2 and rep["by"]["parts"]["multi"]["recall_at_5"] == 0.5
    table = markdown(rep, {"p50": 40.0, "p95": 90.0})
    assert "recall@5 50.0%" in table and "| pensions | 2 | 50.0% |" in table
