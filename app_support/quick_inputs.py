"""Which widget asks for which missing fact, and how its answer becomes `extra_facts` for the assistant.

Only Facts fields are offered (the assistant re-runs the question with them); facts the rules may ask for
that are not Facts fields (stays, tie-breaker facts) are asked for in the answer's text instead.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from assistant.answer import ReadingChoice
from rules.facts import BENEFICIARY_KINDS, ROYALTY_KINDS

BENEFICIARY_PT = {"individual": "Pessoa singular", "company": "Sociedade",
                  "government": "Governo ou entidade pública do outro Estado",
                  "financial_institution": "Instituição financeira"}
ROYALTY_PT = {"copyright": "Direitos de autor (obras literárias, artísticas ou científicas)",
              "copyright_film": "Filmes/gravações produzidos por residente de um dos Estados",
              "copyright_film_other": "Filmes/gravações produzidos por outros",
              "patent": "Patentes", "trademark": "Marcas", "design_model_plan": "Desenhos, modelos ou planos",
              "know_how": "Know-how (fórmulas, processos, experiência)", "equipment": "Uso de equipamento",
              "technical_services": "Assistência técnica / serviços técnicos", "other": "Outro"}
LOAN_PURPOSE_PT = {"equipment": "Aquisição de bens de equipamento", "other": "Outra finalidade"}


@dataclass(frozen=True)
class QuickInput:
    fact: str                         # the missing fact it answers (a Facts field name)
    label: str                        # Portuguese question
    kind: str                         # "choice" | "percent" | "since" | "years" | "bool"
    options: dict[str, str] | None = None


QUICK_INPUTS: dict[str, QuickInput] = {q.fact: q for q in (
    QuickInput("beneficiary_kind", "Quem é o beneficiário: uma sociedade ou uma pessoa singular?", "choice",
               {k: BENEFICIARY_PT.get(k, k) for k in BENEFICIARY_KINDS}),
    QuickInput("holding_pct", "Que percentagem do capital da sociedade que paga detém?", "percent"),
    QuickInput("holding_months", "Desde quando detém a participação?", "since"),
    QuickInput("direct_holding", "A participação é detida diretamente?", "bool"),
    QuickInput("voting_capital", "A participação é de capital com direito a voto?", "bool"),
    QuickInput("loan_term_years", "Qual o prazo do empréstimo (anos)?", "years"),
    QuickInput("loan_purpose", "Qual a finalidade do empréstimo?", "choice", LOAN_PURPOSE_PT),
    QuickInput("royalty_kind", "Que tipo de royalties?", "choice", {k: ROYALTY_PT.get(k, k) for k in ROYALTY_KINDS}),
    QuickInput("registered_central_bank", "O investimento ou contrato está registado no Banco Central do Brasil?",
               "bool"),
    QuickInput("attributable_to_pe", "O rendimento está ligado a um estabelecimento estável no Estado da fonte?",
               "bool"),
    QuickInput("paid_to_pe_third_state", "É pago a um estabelecimento estável num terceiro Estado?", "bool"),
    QuickInput("free_zone_regime", "O beneficiário tem benefícios de zona franca (Madeira, Manaus…)?", "bool"),
    QuickInput("interest_on_equity", "São juros sobre o capital próprio?", "bool"),
)}


def quick_inputs_for(missing: list[str]) -> list[QuickInput]:
    return [QUICK_INPUTS[m] for m in missing if m in QUICK_INPUTS]


def with_reading(question: str, choice: ReadingChoice) -> str:
    """The question with the chosen candidate treaty's assumption stated, for the assistant to re-read."""
    return f"{question.rstrip()} {choice.clarification}"


def to_facts(q: QuickInput, value: Any, payment_date: date | None = None) -> dict[str, Any]:
    """The Facts fields one answered quick input sets; {} when left unanswered."""
    if value is None or value == "":
        return {}
    if q.kind == "since":
        if not isinstance(value, date):
            return {}
        return {"holding_since": value, "payment_date": payment_date or date.today()}
    if q.kind == "bool":
        return {q.fact: bool(value)}
    if q.kind in ("percent", "years"):
        return {q.fact: float(value)}
    return {q.fact: value}


def describe_facts(extra: dict[str, Any]) -> str:
    """The added facts in words, for the re-run question shown in the chat."""
    out = []
    for name, value in extra.items():
        if name == "beneficiary_kind":
            out.append(f"beneficiário: {BENEFICIARY_PT.get(value, value).lower()}")
        elif name == "holding_pct":
            out.append(f"participação: {value:g}%")
        elif name == "holding_since":
            out.append(f"participação detida desde {value.isoformat()}")
        elif name == "payment_date":
            out.append(f"pagamento em {value.isoformat()}")
        elif name == "royalty_kind":
            out.append(f"royalties: {ROYALTY_PT.get(value, value).lower()}")
        elif name == "loan_purpose":
            out.append(f"empréstimo: {LOAN_PURPOSE_PT.get(value, value).lower()}")
        elif name == "loan_term_years":
            out.append(f"prazo do empréstimo: {value:g} anos")
        elif isinstance(value, bool):
            label = QUICK_INPUTS[name].label.rstrip("?") if name in QUICK_INPUTS else name
            out.append(f"{label}: {'sim' if value else 'não'}")
        else:
            out.append(f"{name}: {value}")
    return "; ".join(out)
