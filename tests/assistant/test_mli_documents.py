"""Retrieval adds the MLI's text only to a treaty the corpus says it modifies (PT-JP), never to PT-BR or BR-ES."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from assistant.pipeline import Assistant
from assistant.understand.query import Query
from ingest.catalog import load_catalog
from ingest.corpus import DEFAULT_CORPUS_DIR


def _docs(treaty: str) -> set[str]:
    fake = SimpleNamespace(catalog=load_catalog(DEFAULT_CORPUS_DIR))
    return Assistant._docs_for(fake, Query(text="MLI?", language="pt", treaty=treaty, mentions_mli=True))


def test_mli_text_never_joins_pt_br_or_br_es_answers() -> None:
    assert "mli-pt-2019" not in _docs("PT-BR") and "pt-br-2000" in _docs("PT-BR")
    assert "mli-pt-2019" not in _docs("BR-ES")
    assert "mli-pt-2019" in _docs("PT-JP")                    # the summary says MLI art. 9(4) applies


def test_a_dividend_question_under_the_mli_gets_its_holding_period(make_assistant) -> None:
    """No treaty pair named, the MLI named: the dividend question is answered with MLI art. 8's 365 days (the
    MLI caps no rate), not abstained for want of a pair."""
    from assistant.understand.sentences import asking
    from tests.fakes import ScriptedTopics
    text = ("Our Lisbon holding bought 12% of a foreign opco in January and wants dividends in June. Under the MLI "
            "dividend-transfer rule, do we meet the holding requirement?")
    assistant = make_assistant()
    assistant.reader = ScriptedTopics({asking(text)[-1].text: (("dividends", 0.8), ("anti_abuse", 0.1))})
    answer = assistant.ask(text)
    assert not answer.abstained
    assert any(c.article == "8" for f in answer.rule_results.figures for c in f.citations)
    assert "365" in answer.card


def test_an_mli_question_on_a_treaty_it_may_not_modify_gets_the_mli_text_under_the_caveat(make_assistant) -> None:
    """PT-BR named, the MLI's dividend-transfer rule asked about: the card says the corpus does not establish
    that the MLI modifies PT-BR, then what the MLI's own text sets (365 days, art. 8(1)), not the caveat alone."""
    from assistant.understand.sentences import asking
    from tests.fakes import ScriptedTopics
    text = ("A nossa SGPS do Porto tem 20% de uma sociedade de Curitiba. Que período de detenção exige a regra do "
            "MLI sobre transferência de dividendos?")
    assistant = make_assistant()
    assistant.reader = ScriptedTopics({asking(text)[-1].text: (("anti_abuse", 0.8), ("dividends", 0.1))})
    answer = assistant.ask(text)
    card = answer.card
    assert "PT-BR" in card and "365" in card
    assert card.index("Convenção Multilateral") < card.index("365")        # the caveat comes first
    assert any(c.doc == "mli-pt-2019" and c.article == "8" for c in answer.citations)


def test_a_map_question_naming_the_mli_gets_its_three_years_beside_the_treatys_own_article(make_assistant) -> None:
    """A MAP question that names the MLI, about a treaty whose own article sets two years (PT-BR 25(1)): the card
    keeps the treaty's figure and adds the MLI's own (art. 16(1), three years) under the caveat, cited."""
    from assistant.understand.sentences import asking
    from tests.fakes import ScriptedTopics
    text = ("A nossa sociedade de Braga foi alvo de uma correção no Brasil. Ao abrigo do MLI, que prazo temos para "
            "apresentar o caso em procedimento amigável?")
    assistant = make_assistant()
    assistant.reader = ScriptedTopics({asking(text)[-1].text: (("mutual_agreement", 0.9), ("anti_abuse", 0.05))})
    answer = assistant.ask(text)
    assert "PT-BR" in answer.card and "2 anos" in answer.card and "3 anos" in answer.card
    assert any(c.doc == "mli-pt-2019" and c.article == "16" for c in answer.citations)


@pytest.mark.parametrize("text, topic, figure", [
    ("Somos uma fabricante de Aveiro com uma filial em Osaka que vende por nossa conta. Pelo MLI, a partir de que "
     "percentagem de capital uma empresa é estreitamente relacionada connosco?", "permanent_establishment", "50 %"),
    ("Our Lisbon holding gets dividends from its Osaka subsidiary. Under the MLI's dividend-transfer rule, for how "
     "long must the holding be kept?", "dividends", "365"),
])
def test_a_pe_or_dividend_question_naming_the_mli_gets_its_own_figures(make_assistant, text, topic, figure) -> None:
    """A permanent-establishment or dividend question about a treaty that names the MLI gets the instrument's own
    figures on that subject (art. 15(1)'s more than 50%, art. 8(1)'s 365 days) beside the treaty's answer."""
    from assistant.understand.sentences import asking
    from tests.fakes import ScriptedTopics
    assistant = make_assistant()
    assistant.reader = ScriptedTopics({asking(text)[-1].text: ((topic, 0.9), ("anti_abuse", 0.05))})
    answer = assistant.ask(text)
    assert figure in answer.card and any(c.doc == "mli-pt-2019" for c in answer.citations)


def test_the_mli_figures_of_a_later_part_are_cited(make_assistant) -> None:
    """Two questions, the second on the MLI's MAP deadline: the MLI's figure in the second section carries its
    [n] (the parts' runs are combined for the citations)."""
    from assistant.understand.sentences import asking
    from tests.fakes import ScriptedTopics
    text = ("Somos uma empresa de Lisboa com clientes no Japão. Qual é a taxa máxima de retenção sobre royalties no "
            "Japão? E pelo MLI, quanto tempo temos para pedir um procedimento amigável?")
    first, second = (s.text for s in asking(text)[-2:])
    assistant = make_assistant()
    assistant.reader = ScriptedTopics({first: (("royalties", 0.9), ("interest", 0.05)),
                                       second: (("mutual_agreement", 0.9), ("anti_abuse", 0.05))})
    answer = assistant.ask(text)
    mli = [c for c in answer.citations if c.doc == "mli-pt-2019" and c.article == "16"]
    assert mli and f"[{mli[0].n}]" in answer.card


def test_a_question_on_the_principal_purpose_test_gets_what_the_corpus_lacks(make_assistant) -> None:
    """The PPT (MLI art. 7(1)) is outside the corpus's excerpt: the dividend question is answered, the PPT
    question says the provision is missing instead of giving the MLI's other anti-abuse figures (365 days)."""
    from assistant.understand.sentences import asking
    from tests.fakes import ScriptedTopics
    text = ("Nuestra sociedad de Sevilla cobra dividendos de una filial de Recife. ¿Cuál es la retención máxima? "
            "¿Puede Brasil negar ese tipo con la cláusula del propósito principal del MLI?")
    first, second = (s.text for s in asking(text)[-2:])
    assistant = make_assistant()
    assistant.reader = ScriptedTopics({first: (("dividends", 0.9), ("interest", 0.05)),
                                       second: (("anti_abuse", 0.9), ("dividends", 0.05))})
    card = assistant.ask(text).card
    assert "7(1)" in card and "365" not in card
    assert "15" in card


def test_a_map_question_on_a_treaty_whose_text_is_silent_gets_the_modifying_instruments_figure(make_assistant) -> None:
    """PT-JP's text in the corpus (a one-page summary) has no MAP article and the corpus says the MLI modifies
    PT-JP: a MAP question that does not name the MLI gets the MLI's art. 16(1) under its caveat; PT-BR, whose own
    art. 25 answers and which the MLI is not established to modify, keeps its own figure only."""
    from assistant.understand.sentences import asking
    from tests.fakes import ScriptedTopics
    japan = ("Vivo no Porto e o Japão continua a reter imposto sobre a minha pensão da Nenkin. Até quando posso "
             "pedir às Finanças que tratem disto com o Japão?")
    brazil = ("Vivo no Porto e o Brasil tributou duas vezes os meus juros. Até quando posso pedir às Finanças que "
              "tratem disto com a Receita?")
    assistant = make_assistant()
    assistant.reader = ScriptedTopics({asking(t)[-1].text: (("mutual_agreement", 0.9), ("pensions", 0.05))
                                       for t in (japan, brazil)})
    answer = assistant.ask(japan)
    assert "3 anos" in answer.card
    assert any(c.doc == "mli-pt-2019" and c.article == "16" for c in answer.citations)
    answer = assistant.ask(brazil)
    assert "2 anos" in answer.card and "3 anos" not in answer.card


def test_every_provision_the_rules_data_says_is_absent_can_be_named() -> None:
    """An `absent:` provision no lexicon phrase names would never be answered as missing."""
    from pathlib import Path

    import yaml

    from assistant.understand.topics import named_provisions
    from rules.treaty_data import load_all
    cues_file = Path(__file__).resolve().parents[2] / "assistant" / "lexicon" / "cues.yaml"
    phrases = yaml.safe_load(cues_file.read_text(encoding="utf-8"))["provisions"]
    keys = {key for key, said in phrases.items() if all(named_provisions(p) == (key,) for p in said)}
    absent = {a.provision for data in load_all().values() for a in data.absent}
    assert absent and absent <= keys
