"""The explanation prompt: a fixed prefix the server can cache and a small variable part, built from real
cards of the real corpus and rules."""
from __future__ import annotations

from assistant.presentation.build import Part, build_card
from assistant.presentation.prompt import prompt_facts
from assistant.prompting import CARD_CHARS, PASSAGE_CHARS, build_messages, clip_around
from assistant.apply_rules import RuleRun
from rules import figures

DIVIDENDS_PT = "Sou residente em Portugal e recebo dividendos de uma empresa brasileira. Qual a taxa?"
ROYALTIES_ES = "Soy residente en España y recibo regalías de una empresa brasileña. ¿Cuál es la retención máxima?"


def card_answer(assistant, question):
    return next(e.answer for e in assistant.stream(question) if e.kind == "card")


def test_system_prompt_is_the_same_for_every_question(make_assistant):
    assistant = make_assistant()
    first = build_messages(card_answer(assistant, DIVIDENDS_PT))
    second = build_messages(card_answer(assistant, ROYALTIES_ES))
    assert first[0].content == second[0].content and "{" not in first[0].content
    assert "paragraph in European Portuguese" in first[1].content and "paragraph in Spanish" in second[1].content
    assert DIVIDENDS_PT in first[1].content


def test_prompt_facts_keep_the_facts_and_drop_the_rest(make_assistant):
    answer = card_answer(make_assistant(), DIVIDENDS_PT)
    assert "Assume-se" in answer.card and answer.card.startswith("###") and "**" in answer.card
    compact = prompt_facts(answer.card_data, {1, 2}, CARD_CHARS)
    assert "10%" in compact and "15%" in compact and "?" in compact
    assert "Assume-se" not in compact and "#" not in compact and "**" not in compact
    assert "[1]" in compact and "[3]" not in compact and "[4]" not in compact
    assert len(compact) < len(answer.card)


def test_prompt_facts_keep_whole_lines_up_to_the_limit():
    found = figures("PT-BR", "permanent_establishment")
    card = build_card([Part(None, "permanent_establishment", RuleRun(figures=found * 5))], lambda c: None, "pt",
                      ["PT-BR"], [], [])
    everything = prompt_facts(card, set(), 100_000)
    compact = prompt_facts(card, set(), limit=350)
    assert len(everything) > 350 and 0 < len(compact) <= 350 and everything.startswith(compact)
    assert all(line in everything.splitlines() for line in compact.splitlines())


def test_variable_part_stays_small(make_assistant):
    answer = card_answer(make_assistant(), DIVIDENDS_PT)
    user = build_messages(answer)[1].content
    assert len(user) < 1600, len(user)      # ~450 tokens: read in a few seconds on 2 cores
    assert "[1] PT-BR art. 10(2)(a): 10% do montante bruto" in user   # a rule quote keeps its start


def test_clip_around_finds_the_question_words():
    text = " ".join(["palavra"] * 80) + " os royalties pagos ao beneficiário " + " ".join(["outra"] * 80)
    clipped = clip_around(text, {"royalties", "beneficiario"}, PASSAGE_CHARS)
    assert "royalties pagos ao beneficiário" in clipped
    assert clipped.startswith("… ") and clipped.endswith(" …") and len(clipped) <= PASSAGE_CHARS + 4
    assert clip_around("curto", {"x"}) == "curto"


def test_a_long_ticket_gives_its_asking_sentences():
    from assistant.prompting import QUESTION_CHARS, asking_part

    ticket = ("Bom dia. " + "Conto a minha história com muitos pormenores. " * 12
              + "Essa aposentadoria vai ser tributada aqui em Portugal? Obrigado, Everaldo")
    part = asking_part(ticket)
    assert part == "Essa aposentadoria vai ser tributada aqui em Portugal?"
    assert asking_part("Curta?") == "Curta?"
    assert len(asking_part("sem pergunta " * 60)) <= QUESTION_CHARS + 2
