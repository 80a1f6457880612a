"""assistant/lexicon/text.py, the one text module: folding keeps offsets; strip_accents keeps case (dictionary
words for language identification and the OCR reading)."""
from __future__ import annotations

import pytest

from assistant.lexicon.text import fold, strip_accents, tokenize


def test_fold_keeps_offsets_and_lowers():
    text = "Açores, 1º de Março — Ñandú"
    assert len(fold(text)) == len(text)
    assert fold(text) == "acores, 1o de marco — nandu"
    assert [t.orig for t in tokenize("São Paulo")] == ["São", "Paulo"]


def test_strip_accents_keeps_case_and_other_characters():
    assert strip_accents("Imposição ÑANDÚ") == "Imposicao NANDU"
    assert strip_accents("1ª") == "1ª"
    assert strip_accents("plain") == "plain"


def test_one_number_reader_for_the_reader_and_the_guardrail():
    from assistant.guardrail import numbers_in
    from assistant.lexicon.quantities import number_value, words_value
    assert words_value("doscientos mil") == 200000 and words_value("two hundred") == 200
    assert number_value("vinte e cinco", "pt") == 25 and number_value("dos", "pt") is None   # pt "dos" = "of the"
    assert numbers_in("Retém-se vinte e cinco por cento durante três anos") == ["25", "3"]
    assert numbers_in("a year and a half") == []                                            # articles, not counts


@pytest.mark.parametrize("text, days", [
    ("fui ao brasil 3 vezes este ano (30 + 45 + 40 dias). devo imposto la?", 115),
    ("tres viajes a espana: 20+25 dias en total", 45),
    ("stayed 60 days in japan", 60),
])
def test_stays_added_up_with_plus_signs_are_one_duration(text, days):
    from assistant.lexicon.quantities import durations
    found = durations(text, "pt")
    assert [(q.value, q.unit) for q in found] == [(days, "days")]


@pytest.mark.parametrize("text, lang, found", [
    ("about 600 euros a month from the cafe", "en", []),            # the sum's period, not a stay
    ("they pay me €1,500 a month net", "en", []),
    ("recebo uns 200.000 ienes um mes", "pt", []),
    ("ganho r$ 4 mil um mes e outro nao", "pt", []),
    ("i stayed a month in lisbon", "en", [(1.0, "months")]),       # a stay, with no sum before it
    ("earning 2,000 dollars a month for a year", "en", [(1.0, "years")]),
])
def test_a_period_after_a_sum_of_money_is_no_duration(text, lang, found):
    from assistant.lexicon.quantities import durations
    assert [(q.value, q.unit) for q in durations(text, lang)] == found


@pytest.mark.parametrize("text, found", [
    ("i fly to osaka twice a year, two weeks each time", [(2.0, "weeks")]),      # how often, not a stay of a year
    ("three or four business trips a year to recife", []),
    ("she spends 100 days a year in madrid", [(100.0, "days")]),
    ("he will stay for a year in porto", [(1.0, "years")]),                        # a stay of a year
])
def test_a_period_after_what_it_counts_is_how_often_not_a_stay(text, found):
    from assistant.lexicon.quantities import durations
    assert [(q.value, q.unit) for q in durations(text, "en")] == found


@pytest.mark.parametrize("text, months, expected", [
    ("uma bolsa de 800 € por mês", None, (9600.0, "EUR")),            # paid all year
    ("um estágio de 6 meses com bolsa de 800 € por mês", 6, (4800.0, "EUR")),   # paid for the stay's months
    ("de unos 2.300 reales al mes", None, (27600.0, "BRL")),
    ("R$ 9 mil no total", None, (9000.0, "BRL")),
    ("a pension of 150,000 yen a month", None, (1800000.0, "JPY")),
    ("cobra 9.000 euros al año", None, (9000.0, "EUR")),
    ("a casa vale 300 mil euros", None, None),                       # no period: no yearly amount
    ("recebo 500 € por mês e 300 € por mês do outro", None, None),    # two amounts: none
    ("we bought 500 real estate shares a year", None, None),         # "real" is no currency
    # "monthly" said before the amount
    ("cobro una renta mensual de unos 500 € del plan de la empresa", None, (6000.0, "EUR")),
    ("recebo uma pensão mensal de R$ 1.200 do fundo Petros", None, (14400.0, "BRL")),
    ("a monthly company pension of EUR 240", None, (2880.0, "EUR")),
])
def test_a_yearly_amount_in_euros_reais_or_yen(text, months, expected):
    from assistant.lexicon.quantities import amount_per_year
    from assistant.lexicon.text import fold

    found = amount_per_year(fold(text), months)
    assert (None if found is None else (found.value, found.currency)) == expected


@pytest.mark.parametrize("text, lang, found", [
    ("entre 4 e 8 meses", "pt", [(8.0, 4.0, "months")]),
    ("somewhere between 3 and 5 weeks", "en", [(5.0, 3.0, "weeks")]),
    ("pode ficar quatro meses como pode chegar aos oito", "pt", [(8.0, 4.0, "months")]),
    ("two months or closer to 6", "en", [(6.0, 2.0, "months")]),
    ("serán tres o cuatro meses", "es", [(4.0, 3.0, "months")]),
    ("fico 3 meses ou 5 meses", "pt", [(5.0, 3.0, "months")]),       # the upper end read once, with the range
    # not ranges: another unit, a number that is no length, a sum before the length, a bare figure after
    ("2 months or 100 days", "en", [(2.0, None, "months"), (100.0, None, "days")]),
    ("paguei 500 e 3 meses depois o resto", "pt", [(3.0, None, "months")]),
    ("6 meses a 15%", "pt", [(6.0, None, "months")]),
])
def test_a_length_given_as_a_range_keeps_both_ends(text, lang, found):
    from assistant.lexicon.quantities import durations
    assert [(q.value, q.low, q.unit) for q in durations(text, lang)] == found


@pytest.mark.parametrize("text, lang, found", [
    ("a minha filha vai fazer um semestre em coimbra", "pt", [(6.0, "months")]),
    ("me quedo dos semestres en la USP", "es", [(12.0, "months")]),
    ("one trimester at a lab in Kyoto", "en", [(3.0, "months")]),
    # a term that is not counted is no length: "cada trimestre", "no primeiro semestre", "this semester"
    ("entrego o modelo cada trimestre", "pt", []),
    ("no primeiro semestre de 2026 recebi a bolsa", "pt", []),
    ("this semester I teach in Porto", "en", []),
])
def test_a_counted_semester_or_trimester_is_a_length_in_months(text, lang, found):
    from assistant.lexicon.quantities import durations
    assert [(q.value, q.unit) for q in durations(text, lang)] == found


def _found(index, text: str) -> list[tuple[str, bool]]:
    from assistant.lexicon.text import tokenize
    return [(m.value, m.exact) for m in index.find(tokenize(text))]


def test_a_lexicon_phrase_typed_with_a_typo_still_matches_but_not_a_near_common_word():
    from assistant.lexicon.text import PhraseIndex
    index = PhraseIndex([("segurança social", "ss"), ("brasil", "br"), ("apartamento", "flat"), ("são paulo", "sp"),
                         ("renda", "rent")])
    # two letters swapped in a word of five or six, one edit in a longer one, in a phrase's later word too
    assert _found(index, "Moro no Brsail") == [("br", False)]
    assert _found(index, "um apratamento arrendado") == [("flat", False)]
    assert _found(index, "a pensão da Seguraçna Social") == [("ss", False)]
    assert _found(index, "vivo em São Pualo") == [("sp", False)]
    # exact words stay exact; a short word one other edit away, or a swap in a word under five letters, is no match
    assert _found(index, "a renda do Brasil") == [("rent", True), ("br", True)]
    assert _found(index, "a venda do Brazil") == []
    assert _found(index, "rneda") == [("rent", False)]
    # an index built without typos allowed matches only what is written
    assert _found(PhraseIndex([("brasil", "br")], fuzzy=False), "Brsail") == []



def test_a_phones_shorthand_is_read_as_the_word_it_stands_for_with_its_offsets_as_typed():
    text = "vc sabe qto retem? e tenho q declarar tbm"
    tokens = [t for t in tokenize(text) if t.is_word]
    assert [t.norm for t in tokens] == ["voce", "sabe", "quanto", "retem", "e", "tenho", "que", "declarar",
                                        "tambem"]
    assert [text[t.start:t.end] for t in tokens][2] == "qto"
    # a word or a letter that is not shorthand stays as typed ("Q1", "x")
    assert [t.norm for t in tokenize("no Q1 paguei 3 x 100")] == ["no", "q1", "paguei", "3", "x", "100"]


def test_ir_before_where_one_goes_is_the_verb_not_the_brazilian_income_tax():
    from assistant.lexicon import cues
    def taxes(text: str) -> bool:
        return bool(cues().treaty_question.find(tokenize(text)))
    assert not taxes("Preciso de visto para ir trabalhar no Japão")
    assert not taxes("vamos ir morar em Braga")
    # the tax, typed in capitals or in lower case before other words
    assert taxes("o Brasil pode cobrar IR a partir de quando")
    assert taxes("tenho q pagar ir em cima desses dividendos")
