"""The card answers who may tax and how the residence State relieves, in pt/es/en, from real rule results."""
from __future__ import annotations

from assistant.apply_rules import RuleRun
from assistant.presentation.build import Part, build_card
from assistant.presentation.markdown import card_markdown
from rules import Facts, taxing_rights


def _cite(c) -> int | None:
    return int(c.article) if c.article and c.article.isdigit() else None


def render_card(run: RuleRun, topic: str, language: str) -> str:
    return card_markdown(build_card([Part(None, topic, run)], _cite, language, [], [], []))


def _card(result, language: str) -> str:
    return render_card(RuleRun(rights=[result]), "pensions", language)


def test_social_security_pension_card_in_three_languages() -> None:
    result = taxing_rights("PT-BR", "pensions", "PT", Facts(pension_kind="social_security"))
    pt, es, en = (_card(result, lang) for lang in ("pt", "es", "en"))
    assert "Quem pode tributar" in pt and "só **o Brasil" in pt and "art. 18.º" in pt and "Portugal" in pt
    assert "isenção" in pt and "[23]" in pt                              # relief: art. 23(4)
    assert "Quién puede gravar" in es and "solo **Brasil" in es and "exención" in es
    assert "Who may tax" in en and "only **Brazil" in en and "exemption" in en


def test_alternatives_name_the_deciding_fact_and_notes_follow_the_language() -> None:
    result = taxing_rights("BR-ES", "dividends", "ES")
    en = _card(result, "en")
    assert "at most 15%" in en and "exemption" in en
    assert "Protocol, item 3" in en and "Protocolo, ponto 3" not in en   # notes rendered in English
    alternatives = _card(taxing_rights("PT-BR", "capital_gains", "PT"), "es")
    assert "Depende de hechos" in alternatives and "inmueble" in alternatives and "en los demás casos" in alternatives


def test_shared_taxation_says_both_states_in_words() -> None:
    """Shares sold (art. 13(4) PT-BR): the card says that both States may tax, not only who."""
    result = taxing_rights("PT-BR", "capital_gains", "BR", Facts(gain_kind="other"))
    assert "ambos os Estados podem tributar" in _card(result, "pt")
    assert "both States may tax" in _card(result, "en")
    exclusive = taxing_rights("PT-BR", "pensions", "PT", Facts(pension_kind="social_security"))
    assert "ambos" not in _card(exclusive, "pt")


def test_card_names_the_failed_condition_of_the_lower_rate() -> None:
    from rules import withholding_cap
    result = withholding_cap("PT-BR", "dividends", "BR", Facts(beneficiary_kind="company", holding_pct=30,
                                                               direct_holding=True, holding_months=9))
    pt = render_card(RuleRun(withholding=[result]), "dividends", "pt")
    assert "não se aplica" in pt and "✘" in pt and "2 anos" in pt
    en = render_card(RuleRun(withholding=[result]), "dividends", "en")
    assert "does not apply" in en


def test_a_source_state_without_the_treaty_limit_is_not_said_to_tax_with_one() -> None:
    """A free-zone beneficiary (PT-BR Protocol 9) gets no treaty benefit: the source State taxes without the
    treaty's limit, and the card does not say "com limite"."""
    result = taxing_rights("PT-BR", "royalties", "PT", Facts(free_zone_regime=True, royalty_kind="trademark"))
    pt, en = (render_card(RuleRun(rights=[result]), "royalties", lang) for lang in ("pt", "en"))
    assert "sem o limite da convenção" in pt and "com limite" not in pt
    assert "without the treaty's limit" in en and "with a limit" not in en
