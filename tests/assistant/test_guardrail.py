from datetime import date

from assistant.apply_rules import RuleRun
from assistant.guardrail import citation_refs, numbers_in, verify
from rules import Facts, employment_183_days, taxing_rights, withholding_cap


def test_numbers_are_normalised_across_formats():
    assert numbers_in("US$ 3.000 e 3 000 e 3000") == ["3000", "3000", "3000"]
    assert numbers_in("12,5% ou 12.5 %") == ["12.5", "12.5"]
    assert numbers_in("taxa de 10 % [2]") == ["10"]


def test_spelled_percentages_are_numbers():
    assert "0" in numbers_in("a taxa é zero por cento")
    assert "15" in numbers_in("fifteen percent")


def test_citation_markers_are_not_numbers():
    assert numbers_in("ver [1] e [12]") == []
    assert citation_refs("ver [1] e [12]") == [1, 12]


def test_grounded_text_passes():
    verdict = verify("O limite é 10% se detiver 25% [1].", ["10% do montante bruto … pelo menos 25%"], {1})
    assert verdict.ok


def test_invented_rate_is_caught():
    verdict = verify("A taxa é 0% [1].", ["no máximo 15%"], {1})
    assert not verdict.ok and verdict.ungrounded == ["0"]


def test_reformatted_number_still_needs_grounding():
    assert verify("O limite é de US$ 3 000 [1].", ["US$ 3.000 no ano calendário"], {1}).ok
    assert not verify("O limite é de US$ 4 000 [1].", ["US$ 3.000 no ano calendário"], {1}).ok


def test_reference_to_a_missing_passage_is_caught():
    verdict = verify("Ver [3].", ["nada"], {1, 2})
    assert not verdict.ok and verdict.invalid_refs == [3]


def test_a_rate_needs_a_percentage_not_just_the_same_digits():
    # "artigo 12" must not ground "12%"
    assert not verify("A taxa é 12% [1].", ["artigo 12: no máximo 15%"], {1}).ok
    assert verify("Ver o artigo 12 [1].", ["artigo 12: no máximo 15%"], {1}).ok


def test_asserted_percentages_are_blanked_in_any_format():
    from assistant.guardrail import numbers_in, without_percentages
    text = "Diz que a taxa é 0% ou 12,5 por cento; detenho 30% há 3 anos."
    assert numbers_in(without_percentages(text, (0.0, 12.5))) == ["30", "3"]


# ---------------------------------------------------------------- numbers written in words (pt/es/en)
WRITTEN = [
    ("a taxa é meio por cento", "0.5"),
    ("a taxa é de meio ponto percentual", "0.5"),
    ("retém cinco por cento", "5"),
    ("retém quinze por cento", "15"),
    ("no máximo vinte e cinco por cento", "25"),
    ("doze e meio por cento", "12.5"),
    ("dez vírgula cinco por cento", "10.5"),
    ("cem por cento", "100"),
    ("la tasa es medio por ciento", "0.5"),
    ("retiene el quince por ciento", "15"),
    ("veinticinco por ciento", "25"),
    ("doce y medio por ciento", "12.5"),
    ("diez coma cinco por ciento", "10.5"),
    ("half a percent", "0.5"),
    ("half of one percent", "0.5"),
    ("five per cent", "5"),
    ("twenty-five percent", "25"),
    ("twelve and a half percent", "12.5"),
    ("ten point five percent", "10.5"),
    ("a hundred percent", "100"),
    ("dois anos de detenção", "2"),
    ("cento e oitenta e três dias", "183"),
    ("ciento ochenta y tres días", "183"),
    ("one hundred and eighty-three days", "183"),
    ("seis meses", "6"),
]


def test_written_numbers_table_is_read():
    for text, value in WRITTEN:
        found = numbers_in(text)
        assert (value in found) if value else True, (text, found)


def test_written_percentages_count_as_percentages():
    from assistant.guardrail import percentages_in
    assert percentages_in("meio por cento e quinze por cento e half a percent") == ["0.5", "15", "0.5"]
    assert percentages_in("dois anos") == []


def test_articles_and_ordinary_words_are_not_numbers():
    for text in ("há um ano", "a year ago", "un año", "a contagem dos anos e dos dias", "uma vez por ano",
                 "once a year", "o cento e tal", "por cento"):
        assert numbers_in(text) == [], text


WRITTEN_RATES = ["A taxa é meio por cento [1].", "O Brasil retém cinco por cento [1].",
                 "La retención es de medio por ciento [1].", "The cap is half a percent [1].",
                 "The cap is twelve and a half percent [1].", "Aplica-se quinze por cento [1]."]


def test_a_written_rate_must_be_grounded_like_a_digit_rate():
    for text in WRITTEN_RATES:
        verdict = verify(text, ["no máximo 10% [1]", "artigo 10"], {1})
        assert not verdict.ok and verdict.ungrounded, text


def test_a_written_rate_matching_the_rules_passes():
    assert verify("O Brasil pode reter no máximo quinze por cento [1].", ["no máximo 15%"], {1}).ok
    assert verify("The cap is ten percent [1].", ["at most 10%"], {1}).ok


# ---------------------------------------------------------------- exemption claims
EXEMPTION_CLAIMS = [
    "Os dividendos estão isentos no Brasil [1].",
    "Há isenção de retenção [1].",
    "Os juros são pagos sem retenção na fonte [1].",
    "Não há retenção no Brasil [1].",
    "Não há lugar a retenção [1].",
    "Não estão sujeitos a retenção [1].",
    "Los intereses están exentos en España [1].",
    "No hay retención en la fuente [1].",
    "Se pagan sin retención [1].",
    "The dividends are exempt in Brazil [1].",
    "There is no withholding in Brazil [1].",
    "The interest is not subject to withholding [1].",
    "The royalties are tax-free [1].",
]


def _run(**results) -> RuleRun:
    return RuleRun(**results)


def test_an_exemption_claim_needs_a_rule_result_that_gives_one():
    cap = _run(withholding=[withholding_cap("PT-BR", "dividends", "BR", Facts(beneficiary_kind="individual"))])
    assert cap.withholding[0].outcome == "cap" and not cap.gives_exemption
    passages = ["no máximo 15% [1]", "os juros pagos ao Governo são isentos de imposto"]  # another case's words
    for text in EXEMPTION_CLAIMS:
        verdict = verify(text, passages, {1}, exemption_given=cap.gives_exemption)
        assert not verdict.ok and verdict.unsupported_claims, text
        assert "exemption" in verdict.problems()


def test_an_exemption_given_by_the_rules_may_be_said():
    exempt = _run(withholding=[withholding_cap("PT-BR", "interest", "BR", Facts(beneficiary_kind="government"))])
    alternatives = _run(withholding=[withholding_cap("PT-BR", "interest", "BR", Facts())])
    short_stay = employment_183_days("PT-BR", [(date(2024, 3, 1), date(2024, 3, 20))], False, False)
    only_residence = _run(employment=short_stay)
    social_security = _run(rights=[taxing_rights("PT-BR", "pensions", "PT", Facts(pension_kind="social_security"))])
    assert exempt.withholding[0].outcome == "exempt"
    assert alternatives.withholding[0].outcome == "alternatives"
    assert short_stay.taxable_in_work_state is False
    for run in (exempt, alternatives, only_residence, social_security):
        assert run.gives_exemption
    assert verify("Os juros estão isentos no Estado da fonte [1].", ["isento (0%)"], {1},
                  exemption_given=exempt.gives_exemption).ok
    assert verify("The pension is exempt in Portugal [1].", ["x"], {1},
                  exemption_given=social_security.gives_exemption).ok


def test_text_without_an_exemption_claim_passes():
    assert verify("O Brasil pode reter no máximo 15% [1]; o resto é tributado em Portugal.", ["no máximo 15%"],
                  {1}).ok


# ---------------------------------------------------------------- the question grounds facts, never rates
def test_a_percentage_from_the_question_does_not_ground_a_rate():
    question = "Detenho 5% de uma empresa brasileira. Qual a taxa sobre os dividendos?"
    verdict = verify("A taxa é 5% [1].", ["no máximo 10% ou 15%"], {1}, question=question)
    assert not verdict.ok and verdict.ungrounded == ["5"]
    assert not verify("O Brasil retém 5% [1].", ["no máximo 10% ou 15%"], {1}, question=question).ok
    assert not verify("A taxa prevista no artigo 10 é 5% [1].", ["artigo 10: no máximo 10% ou 15%"], {1},
                      question=question).ok


def test_a_holding_from_the_question_may_be_restated_as_a_holding():
    question = "A minha sociedade detém 30% de uma empresa brasileira há 3 anos. Qual a taxa?"
    verdict = verify("Como a sociedade detém 30% há 3 anos, o limite é 10% [1].", ["no máximo 10%"], {1},
                     question=question)
    assert verdict.ok, verdict.problems()


def test_a_rate_the_question_asserts_grounds_nothing():
    question = "A taxa sobre dividendos do Brasil é de 5%, certo?"
    assert not verify("Sim, a participação de 5% dá direito a [1].", ["no máximo 10%"], {1},
                      question=question).ok
    assert not verify("Sim, 5% [1].", ["no máximo 10%"], {1}, question=question).ok


def test_written_percentages_in_the_question_follow_the_same_rule():
    question = "Detenho cinco por cento da empresa. Qual a retenção?"
    assert not verify("A retenção é de cinco por cento [1].", ["no máximo 15%"], {1}, question=question).ok
    assert verify("Com cinco por cento do capital, o limite é 15% [1].", ["no máximo 15%"], {1},
                  question=question).ok


def test_a_capped_income_with_its_relief_does_not_allow_an_exemption_claim():
    facts = Facts(beneficiary_kind="individual")
    run = RuleRun(withholding=[withholding_cap("PT-BR", "dividends", "BR", facts)],
                  rights=[taxing_rights("PT-BR", "dividends", "PT", facts)])
    assert run.rights[0].cases and not run.gives_exemption
    assert not verify("Os dividendos estão isentos no Brasil [1].", ["no máximo 15%"], {1},
                      exemption_given=run.gives_exemption).ok
