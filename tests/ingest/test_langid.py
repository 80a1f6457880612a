"""Word-level Portuguese/Spanish identification on short mixed strings."""
from ingest.langid import ES, PT, label_tokens, word_score


def labels(text: str) -> list[tuple[str, str]]:
    tokens = text.split()
    return list(zip(tokens, label_tokens(tokens)))


def test_switch_falls_between_the_two_clauses():
    got = labels("o imposto não excederá 15% el impuesto no podrá exceder")
    assert [lang for _, lang in got] == [PT] * 5 + [ES] * 5


def test_spanish_run_inside_portuguese_sentence():
    text = ("os rendimentos pagos a um residente do outro Estado los intereses procedentes de un "
            "Estado cuando el deudor sea residente são tributáveis nesse outro Estado")
    got = dict(labels(text))
    assert got["intereses"] == ES and got["cuando"] == ES and got["deudor"] == ES
    assert got["rendimentos"] == PT and got["tributáveis"] == PT


def test_enumerator_goes_with_the_words_after_it():
    got = labels("aos impostos sobre a renda . 2 . Se consideran impuestos sobre la renta los que")
    tokens = [t for t, _ in got]
    assert got[tokens.index("2")][1] == ES
    assert got[tokens.index("renda")][1] == PT


def test_word_scores_have_the_right_sign():
    for word in ("juros", "tributação", "obrigações", "nesse", "pagamento"):
        assert word_score(word) > 0, word
    for word in ("intereses", "imposición", "cuando", "del", "españa"):
        assert word_score(word) < 0, word
    # OCR misreadings absent from any word list still lean the right way by their letters
    assert word_score("lmposiclón") < 0
    assert word_score("tributaçáo") > 0


def test_numbers_and_marks_carry_no_evidence():
    for token in ("15%", "3.000", "2.", "(", "~"):
        assert word_score(token) == 0.0


def test_blank_line_starts_a_new_run():
    tokens = "la renta entrada en vigor A presente Convenção será ratificada".split()
    breaks = frozenset({5})
    got = label_tokens(tokens, breaks=breaks)
    assert got[5] == PT and got[4] == ES
