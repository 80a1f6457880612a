"""The small, stable set of condition codes the data files may use, and how each reads the facts.

A condition evaluates to True (met), False (not met) or None (a fact it needs was not stated). Codes
and params are the contract with the assistant; condition_text() renders them in pt/es/en, the
Portuguese being the reference wording. The list is documented in rules/README.md.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any, Callable

from rules.facts import Facts
from rules.labels import LANGUAGES, normalise_language
from rules.results import Condition, RulesInputError

Evaluator = Callable[[Facts, dict[str, Any]], "bool | None"]


@dataclass(frozen=True)
class ConditionSpec:
    code: str
    facts: tuple[str, ...]
    text: str                  # Portuguese, str.format()-ed with the params
    evaluate: Evaluator


def _years_before(day: date, years: int) -> date:
    try:
        return day.replace(year=day.year - years)
    except ValueError:         # 29 February in a non-leap target year
        return day.replace(year=day.year - years, day=28)


def _holding_years(f: Facts, p: dict[str, Any]) -> bool | None:
    years = p["years"]
    if f.holding_months is not None:
        return f.holding_months >= years * 12
    if f.holding_since is not None and f.payment_date is not None:
        return f.holding_since <= _years_before(f.payment_date, int(years))
    return None


def _kind_in(kinds: tuple[str, ...]) -> Evaluator:
    return lambda f, p: None if f.beneficiary_kind is None else f.beneficiary_kind in kinds


def _flag(name: str) -> Evaluator:
    return lambda f, p: getattr(f, name)


def _at_least(name: str, param: str) -> Evaluator:
    return lambda f, p: None if getattr(f, name) is None else getattr(f, name) >= p[param]


SPECS: dict[str, ConditionSpec] = {s.code: s for s in (
    ConditionSpec("otherwise", (), "nos restantes casos", lambda f, p: True),
    ConditionSpec("beneficiary_company", ("beneficiary_kind",),
                  "o beneficiário efetivo é uma sociedade", _kind_in(("company", "financial_institution"))),
    ConditionSpec("beneficiary_government", ("beneficiary_kind",),
                  "o beneficiário efetivo é o Governo do outro Estado, uma sua subdivisão política ou "
                  "administrativa, autarquia local, ou instituição (inclusive financeira) de sua propriedade "
                  "exclusiva", _kind_in(("government",))),
    ConditionSpec("beneficiary_financial_institution", ("beneficiary_kind",),
                  "o beneficiário é uma instituição financeira", _kind_in(("financial_institution",))),
    ConditionSpec("holding_min_pct", ("holding_pct",),
                  "detém pelo menos {pct}% do capital da sociedade que paga", _at_least("holding_pct", "pct")),
    ConditionSpec("holding_direct", ("direct_holding",), "a participação é detida diretamente",
                  _flag("direct_holding")),
    ConditionSpec("holding_min_years", ("holding_months",),
                  "a participação foi detida durante um período ininterrupto de pelo menos {years} anos "
                  "antes do pagamento", _holding_years),
    ConditionSpec("loan_min_years", ("loan_term_years",),
                  "o empréstimo ou crédito foi concedido por um prazo mínimo de {years} anos",
                  _at_least("loan_term_years", "years")),
    ConditionSpec("loan_purpose_equipment", ("loan_purpose",),
                  "o empréstimo destina-se a financiar a aquisição de bens de equipamento",
                  lambda f, p: None if f.loan_purpose is None else f.loan_purpose == "equipment"),
    ConditionSpec("royalty_copyright", ("royalty_kind",),
                  "royalties por direitos de autor sobre obras literárias, artísticas ou científicas "
                  "(filmes e gravações só quando produzidos por um residente de um dos Estados)",
                  lambda f, p: None if f.royalty_kind is None
                  else f.royalty_kind in ("copyright", "copyright_film")),
    ConditionSpec("attributable_to_pe", ("attributable_to_pe",),
                  "o rendimento está efetivamente ligado a um estabelecimento estável do beneficiário no "
                  "Estado da fonte", _flag("attributable_to_pe")),
    ConditionSpec("paid_to_pe_third_state", ("paid_to_pe_third_state",),
                  "o rendimento é pago a um estabelecimento estável do beneficiário situado num terceiro "
                  "Estado", _flag("paid_to_pe_third_state")),
    ConditionSpec("free_zone_regime", ("free_zone_regime",),
                  "o beneficiário tem direito a benefícios fiscais de um regime de zona franca ou similar "
                  "excluído pelo Protocolo", _flag("free_zone_regime")),
    ConditionSpec("registered_central_bank", ("registered_central_bank",),
                  "o investimento ou contrato está registado no Banco Central do Brasil",
                  _flag("registered_central_bank")),
    ConditionSpec("interest_on_equity", ("interest_on_equity",),
                  "o rendimento são juros sobre o capital próprio (legislação brasileira)",
                  _flag("interest_on_equity")),
)}

# Codes used by employment_183_days(), not read from Facts; kept here so every code is in one place.
OTHER_TEXTS = {
    "days_within_limit": "a permanência no Estado onde o emprego é exercido não excede, no total, {max_days} dias "
                         "no período de contagem (contados: {days})",
    "employer_not_resident_in_work_state": "as remunerações são pagas por (ou em nome de) uma entidade patronal "
                                           "que não é residente do Estado onde o emprego é exercido",
    "not_borne_by_pe_in_work_state": "as remunerações não são suportadas por um estabelecimento estável da "
                                     "entidade patronal nesse Estado",
}


# Spanish and English wording of every code, with the same params as the Portuguese reference.
TRANSLATIONS: dict[str, dict[str, str]] = {
    "otherwise": {"es": "en los demás casos", "en": "in all other cases"},
    "beneficiary_company": {"es": "el beneficiario efectivo es una sociedad",
                            "en": "the beneficial owner is a company"},
    "beneficiary_government": {
        "es": "el beneficiario efectivo es el Gobierno del otro Estado, una de sus subdivisiones políticas o "
              "administrativas, una entidad local, o una institución (incluso financiera) de su propiedad exclusiva",
        "en": "the beneficial owner is the Government of the other State, a political or administrative "
              "subdivision or local authority thereof, or an institution (including a financial one) wholly "
              "owned by them"},
    "beneficiary_financial_institution": {"es": "el beneficiario es una institución financiera",
                                          "en": "the beneficiary is a financial institution"},
    "holding_min_pct": {"es": "posee al menos el {pct}% del capital de la sociedad que paga",
                        "en": "holds at least {pct}% of the capital of the paying company"},
    "holding_direct": {"es": "la participación se posee directamente", "en": "the holding is direct"},
    "holding_min_years": {
        "es": "la participación se ha poseído durante un período ininterrumpido de al menos {years} años antes "
              "del pago",
        "en": "the holding was owned for an uninterrupted period of at least {years} years before the payment"},
    "loan_min_years": {"es": "el préstamo o crédito se concedió por un plazo mínimo de {years} años",
                       "en": "the loan or credit was granted for a minimum term of {years} years"},
    "loan_purpose_equipment": {"es": "el préstamo financia la adquisición de bienes de equipo",
                               "en": "the loan finances the purchase of capital equipment"},
    "royalty_copyright": {
        "es": "cánones por derechos de autor sobre obras literarias, artísticas o científicas (películas y "
              "grabaciones solo cuando las produce un residente de uno de los Estados)",
        "en": "royalties for copyright of literary, artistic or scientific works (films and recordings only "
              "when produced by a resident of one of the States)"},
    "attributable_to_pe": {
        "es": "la renta está vinculada efectivamente a un establecimiento permanente del beneficiario en el "
              "Estado de la fuente",
        "en": "the income is effectively connected with a permanent establishment of the beneficiary in the "
              "source State"},
    "paid_to_pe_third_state": {
        "es": "la renta se paga a un establecimiento permanente del beneficiario situado en un tercer Estado",
        "en": "the income is paid to a permanent establishment of the beneficiary situated in a third State"},
    "free_zone_regime": {
        "es": "el beneficiario disfruta de beneficios fiscales de un régimen de zona franca o similar excluido "
              "por el Protocolo",
        "en": "the beneficiary enjoys tax benefits of a free-zone or similar regime excluded by the Protocol"},
    "registered_central_bank": {"es": "la inversión o el contrato está registrado en el Banco Central do Brasil",
                                "en": "the investment or contract is registered with the Banco Central do Brasil"},
    "interest_on_equity": {
        "es": "la renta son intereses sobre el capital propio (juros sobre o capital próprio, legislación brasileña)",
        "en": "the income is interest on net equity (juros sobre o capital próprio, Brazilian law)"},
    "days_within_limit": {
        "es": "la permanencia en el Estado donde se ejerce el empleo no excede, en total, de {max_days} días en "
              "el período de cómputo (contados: {days})",
        "en": "the stay in the State where the employment is exercised does not exceed {max_days} days in total "
              "in the counting period (counted: {days})"},
    "employer_not_resident_in_work_state": {
        "es": "las remuneraciones las paga un empleador (o se pagan en su nombre) que no es residente del Estado "
              "donde se ejerce el empleo",
        "en": "the remuneration is paid by, or on behalf of, an employer who is not a resident of the State "
              "where the employment is exercised"},
    "not_borne_by_pe_in_work_state": {
        "es": "las remuneraciones no las soporta un establecimiento permanente del empleador en ese Estado",
        "en": "the remuneration is not borne by a permanent establishment of the employer in that State"},
}


def _portuguese(code: str) -> str:
    if code in OTHER_TEXTS:
        return OTHER_TEXTS[code]
    if code in SPECS:
        return SPECS[code].text
    raise RulesInputError(f"Código de condição desconhecido: {code!r} (códigos: "
                          f"{', '.join(sorted(set(SPECS) | set(OTHER_TEXTS)))}).")


def condition_text(code: str, params: dict[str, Any], language: str) -> str:
    """The condition in "pt", "es" or "en" (any other language → pt), filled with its params."""
    template = _portuguese(code)
    lang = normalise_language(language)
    if lang != "pt":
        template = TRANSLATIONS[code][lang]
    try:
        return template.format(**params)
    except KeyError as exc:
        raise RulesInputError(f"A condição {code} precisa do parâmetro {exc}.") from exc


def condition_texts(code: str, params: dict[str, Any]) -> dict[str, str]:
    return {lang: condition_text(code, params, lang) for lang in LANGUAGES}


def evaluate(code: str, params: dict[str, Any], facts: Facts) -> Condition:
    spec = SPECS[code]
    value = spec.evaluate(facts, params)
    status = "unknown" if value is None else ("met" if value else "not_met")
    texts = condition_texts(code, params)
    return Condition(code=code, params=dict(params), text=texts["pt"], status=status, facts=spec.facts,
                     texts=texts)


def describe(code: str, params: dict[str, Any], status: str = "unknown") -> Condition:
    """A condition shown without evaluating it (alternatives, figures, the employment test)."""
    texts = condition_texts(code, params)
    facts = SPECS[code].facts if code in SPECS else ()
    return Condition(code=code, params=dict(params), text=texts["pt"], status=status, facts=facts, texts=texts)
