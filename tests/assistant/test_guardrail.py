from assistant.guardrail import citation_refs, numbers_in, verify


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
