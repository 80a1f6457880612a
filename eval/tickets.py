"""The labelled ticket bank: real-style support tickets with what a reader must get out of them.

One JSON object per line in eval/tickets/<split>/<batch>.jsonl. A ticket is a whole message as a support
agent receives it (an e-mail, a one-liner, a forwarded thread) and its labels: the treaty (or the candidate
treaties when only one country is named), the residence and source States, the parts (one per question
asked), each part's topic code (rules.facts.TOPICS, or "out_of_scope"), the facts stated in the text with
their values and the exact words that state them, and the expected outcome per part.

Splits are by source page, never by ticket: every ticket built from the same public page lands in the
same split (`page_split`), so the test split measures pages the reader has never seen. New tickets are
written to eval/tickets/incoming/ and moved into train/ or test/ by `python -m eval.tickets split`; the
test split is sealed by a manifest of content hashes (eval/tickets/SEALED.json) that a test checks.
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Annotated, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt, StrictStr, model_validator

from eval.gold import parse_article_ref, parse_paragraph_ref
from rules.facts import TOPICS

TICKETS_DIR = Path(__file__).resolve().parent / "tickets"
SEALED = TICKETS_DIR / "SEALED.json"
TEST_SHARE = 30          # percent of source pages in the test split

Topic = Literal[TOPICS + ("out_of_scope",)]  # type: ignore[valid-type]
OutOfScope = Literal["vat", "inheritance", "wealth_property_tax", "social_security_contributions", "customs",
                     "domestic_rate", "financial_transactions_tax", "immigration", "other_treaty", "procedure",
                     "evasion", "other"]
State = Literal["PT", "BR", "ES", "JP"] | Annotated[StrictStr, Field(pattern=r"^[A-Z]{2}$")]
Treaty = Annotated[StrictStr, Field(pattern=r"^(?:[A-Z]{2}-[A-Z]{2}|MLI)$")]

# Facts a ticket can state. Names are the flat fields of rules.facts.Facts and of its two groups (employment,
# residence: the tie-breaker's), plus a few durations; the value type is checked per name below.
FACT_TYPES: dict[str, type | tuple[type, ...] | tuple[str, ...]] = {
    # rules.facts.Facts
    "beneficiary_kind": ("individual", "company", "government", "financial_institution"),
    "holding_pct": (int, float), "voting_capital": bool, "holding_months": (int, float),
    "payment_date": str, "loan_term_years": (int, float), "loan_purpose": ("equipment",),
    "interest_on_equity": bool,
    "royalty_kind": ("copyright", "copyright_film", "copyright_film_other", "patent", "trademark",
                     "design_model_plan", "know_how", "equipment", "technical_services", "other"),
    "attributable_to_pe": bool, "paid_to_pe_third_state": bool, "free_zone_regime": bool,
    "registered_central_bank": bool, "direct_holding": bool,
    "pension_kind": ("private", "social_security", "government", "annuity"),
    "pension_annual_usd": (int, float),
    "gain_kind": ("immovable", "pe_assets", "ships_aircraft", "shares_immovable", "shares", "other"),
    "employment_kind": ("general", "ship_aircraft", "director"),
    "student_payment_origin": ("abroad", "local"), "student_practical_training": bool,
    "student_annual_usd": (int, float), "stay_years": (int, float), "invited_to_teach_or_research": bool,
    "exchange_programme_visit": bool,
    "national_of_paying_state": bool, "national_of_residence_state": bool,
    "services_in_residence_state": bool, "government_debt": bool, "government_business": bool,
    "public_funds_visit": bool, "paid_by_source_resident": bool, "fixed_base_in_source": bool,
    # Facts.employment's (the 183-day test, a site's or a visit's length)
    "stay_days": (int, float),            # days present in the work State (183-day test)
    "stay_months": (int, float),          # months of a stay, a building site or a project
    "employer_resident_in_work_state": bool, "borne_by_pe": bool,
    "fiscal_year": int,
    # the tie-breaker's (art. 4): lists of State codes; vital_interests_in is one code
    "permanent_home_in": list, "habitual_abode_in": list, "nationality": list, "vital_interests_in": str,
    "effective_management_in": str, "person": ("individual", "company"),
    # where a permanent establishment / branch / fixed base is (a State code)
    "pe_in": str,
}

Outcome = Literal[
    "residence_only",   # only the residence State may tax
    "source_only",      # only the source State (where the property/work/payer is) may tax
    "both",             # both may tax, no cap (residence relieves)
    "capped",           # source may tax at most `rate` (or `rates`, when a fact is missing)
    "exempt",           # the source State may not tax / the income is exempt there
    "depends",          # the answer turns on a fact the ticket does not give: `depends_on` names it
    "resident_of",      # tie-breaker: the person is resident of `state` (or "undetermined")
    "figure",           # a figure, date, deadline or procedure from the text (`figures`)
    "abstain",          # out of scope or not in the corpus: the reader must say so
]


class Fact(BaseModel):
    """A fact the ticket states: its name, its value, and the words of the ticket that state it."""
    model_config = ConfigDict(extra="forbid", frozen=True)
    name: StrictStr
    value: StrictBool | StrictInt | StrictFloat | StrictStr | list[StrictStr]
    span: StrictStr = Field(min_length=1)

    @model_validator(mode="after")
    def _typed(self) -> "Fact":
        kind = FACT_TYPES.get(self.name)
        if kind is None:
            raise ValueError(f"facto desconhecido {self.name!r} (use um de eval.tickets.FACT_TYPES)")
        value = self.value
        if isinstance(kind, tuple) and kind and isinstance(kind[0], str):
            if value not in kind:
                raise ValueError(f"{self.name}: valor {value!r} fora de {kind}")
        elif kind is bool:
            if not isinstance(value, bool):
                raise ValueError(f"{self.name}: deve ser true/false")
        elif isinstance(value, bool) or not isinstance(value, kind):  # type: ignore[arg-type]
            raise ValueError(f"{self.name}: valor {value!r} de tipo errado")
        return self


class Expected(BaseModel):
    """What a correct answer to one part says (all from the corpus text, never from the code)."""
    model_config = ConfigDict(extra="forbid", frozen=True)
    outcome: Outcome
    rate: StrictFloat | StrictInt | None = None          # the cap, when `capped` with the facts given
    rates: list[StrictFloat | StrictInt] = []            # every alternative cap when a fact is missing
    state: StrictStr | None = None                       # who taxes (`*_only`) or where resident
    depends_on: list[StrictStr] = []                     # fact names that decide (`depends`)
    figures: list[StrictStr] = []                        # "183 dias", "2 anos", "365 days" (`figure`)
    articles: list[StrictStr] = []                       # gold citations: "18(2)", "10", "Protocolo 4", "MLI:9(4)"

    @model_validator(mode="after")
    def _consistent(self) -> "Expected":
        if self.outcome == "capped" and self.rate is None and not self.rates:
            raise ValueError("'capped' precisa de 'rate' ou 'rates'")
        if self.outcome == "depends" and not self.depends_on:
            raise ValueError("'depends' precisa de 'depends_on'")
        if self.outcome != "abstain" and not self.articles:
            raise ValueError("uma parte que se responde precisa de 'articles'")
        unknown = [f for f in self.depends_on if f not in FACT_TYPES]
        if unknown:
            raise ValueError(f"depends_on com factos desconhecidos {unknown}")
        return self


class Part(BaseModel):
    """One question the ticket asks."""
    model_config = ConfigDict(extra="forbid", frozen=True)
    question: StrictStr = Field(min_length=3)            # the asking words, an exact span of the text
    topic: Topic
    out_of_scope: OutOfScope | None = None
    expected: Expected

    @model_validator(mode="after")
    def _scope(self) -> "Part":
        if (self.topic == "out_of_scope") != (self.out_of_scope is not None):
            raise ValueError("'out_of_scope' é dado exatamente quando topic é 'out_of_scope'")
        if self.topic == "out_of_scope" and self.expected.outcome != "abstain":
            raise ValueError("uma parte fora do âmbito espera 'abstain'")
        return self


class Ticket(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: Annotated[StrictStr, Field(pattern=r"^tk-[a-z0-9]+-[0-9]{4}$")]
    text: StrictStr = Field(min_length=10, max_length=2000)
    language: Literal["pt", "es", "en"]
    variant: Literal["pt-PT", "pt-BR"] | None = None
    style: Literal["email", "one_liner", "chat", "forwarded", "formal", "forum"]
    source_url: Annotated[StrictStr, Field(pattern=r"^https?://\S+$")]
    treaty: Treaty | None                                 # None: out of scope, or no treaty decidable
    candidate_treaties: list[Treaty] = []                 # when only one covered country is named
    residence_state: State | None = None
    source_state: State | None = None
    facts: list[Fact] = []
    parts: list[Part] = Field(min_length=1)
    notes: StrictStr = ""

    @model_validator(mode="after")
    def _spans(self) -> "Ticket":
        if self.language == "pt" and self.variant is None:
            raise ValueError("um ticket em português precisa de 'variant' (pt-PT ou pt-BR)")
        if self.language != "pt" and self.variant is not None:
            raise ValueError("'variant' só para português")
        for fact in self.facts:
            if fact.span not in self.text:
                raise ValueError(f"facto {fact.name}: o trecho {fact.span!r} não está no texto")
        for part in self.parts:
            if part.question not in self.text:
                raise ValueError(f"parte {part.topic}: a pergunta {part.question!r} não está no texto")
            for ref in part.expected.articles:       # the scorer reads each one ("10(2)(a)", "Protocolo 4", "MLI:9")
                (parse_paragraph_ref if "(" in ref else parse_article_ref)(ref, self.treaty)
        return self

    @property
    def page(self) -> str:
        return page_key(self.source_url)

    @property
    def split(self) -> Literal["train", "test"]:
        return page_split(self.source_url)


def page_key(url: str) -> str:
    """The source page a URL names, without scheme, 'www.', query, fragment or trailing slash."""
    parts = urlsplit(url.strip())
    host = parts.netloc.lower().removeprefix("www.")
    return f"{host}{parts.path.rstrip('/')}".lower()


def page_split(url: str) -> Literal["train", "test"]:
    """Deterministic by page: sha256 of the page key, TEST_SHARE of 100 buckets to test."""
    bucket = int(hashlib.sha256(page_key(url).encode()).hexdigest()[:8], 16) % 100
    return "test" if bucket < TEST_SHARE else "train"


def content_hash(ticket: Ticket) -> str:
    return hashlib.sha256(json.dumps(ticket.model_dump(), sort_keys=True, ensure_ascii=False).encode()).hexdigest()


class TicketError(ValueError):
    """A malformed ticket line; the message names the file and the line."""


def read_file(path: Path) -> list[Ticket]:
    out: list[Ticket] = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            out.append(Ticket.model_validate_json(line))
        except ValueError as exc:
            raise TicketError(f"{path.name} linha {n}: {exc}") from exc
    return out


def load(split: Literal["train", "test", "incoming"], root: Path = TICKETS_DIR) -> list[Ticket]:
    """Every ticket of one split folder, in file then line order."""
    out: list[Ticket] = []
    for path in sorted((root / split).glob("*.jsonl")):
        out.extend(read_file(path))
    return out


def _write(path: Path, tickets: list[Ticket]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as fh:
        for t in tickets:
            fh.write(json.dumps(t.model_dump(exclude_defaults=True), ensure_ascii=False) + "\n")


def split_incoming(root: Path = TICKETS_DIR, final: bool = False) -> dict[str, int]:
    """Write each incoming batch's tickets to train/<batch>.jsonl and test/<batch>.jsonl by their page (a batch
    being written is split again as it grows); `final` removes the incoming file once split. The sealed
    manifest records every test ticket's content hash and each batch's test count."""
    counts = {"train": 0, "test": 0}
    sealed = json.loads(SEALED.read_text()) if SEALED.exists() else {"batches": {}, "tickets": {}}
    for path in sorted((root / "incoming").glob("*.jsonl")):
        by_split: dict[str, list[Ticket]] = {"train": [], "test": []}
        for t in read_file(path):
            by_split[t.split].append(t)
        for split, items in by_split.items():
            _write(root / split / path.name, items)
            counts[split] += len(items)
        sealed["batches"][path.stem] = len(by_split["test"])
        if final:
            path.unlink()
    sealed["tickets"] = {t.id: content_hash(t) for t in load("test", root)}
    SEALED.write_text(json.dumps(sealed, indent=1, sort_keys=True) + "\n")
    return counts


def check(paths: list[Path]) -> int:
    """Validate every line of the files (all errors, not just the first) and ids unique; print a summary."""
    bad, ids = 0, set()
    for path in paths:
        good = 0
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                t = Ticket.model_validate_json(line)
            except ValueError as exc:
                bad += 1
                print(f"{path.name} linha {n}: {exc}")
                continue
            if t.id in ids:
                bad += 1
                print(f"{path.name} linha {n}: id repetido {t.id}")
            ids.add(t.id)
            good += 1
        print(f"{path}: {good} tickets válidos")
    return bad


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["split"]:
        print(json.dumps(split_incoming(final="--final" in args)))
        return 0
    if args[:1] == ["check"]:
        paths = [Path(a) for a in args[1:]] or [p for s in ("incoming", "train", "test")
                                                 for p in sorted((TICKETS_DIR / s).glob("*.jsonl"))]
        return 1 if check(paths) else 0
    print("uso: python -m eval.tickets check [FILE...] | split [--final]")
    return 2


if __name__ == "__main__":
    sys.exit(main())
