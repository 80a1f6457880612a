"""The facts a question states: holding, periods, dates, beneficiary, royalty kind, employment and
tie-breaker facts. Each number is tied to the cue words nearest to it in its sentence; a percentage
near a rate word is the user's claim about the rate (kept to check it), never a fact."""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import date

from assistant.lexicon import cues
from assistant.lexicon.quantities import date_ranges, dates, durations, percentages
from assistant.lexicon.text import Match, Token, token_at
from assistant.understand.places import Grammar, Mention, denied, unique
from assistant.understand.residence import ResidenceFacts, pointed, read_residence, same_clause
from assistant.understand.topics import is_employment
from rules.facts import INCOME_TYPES, EmploymentFacts, Facts, TiebreakerFacts


class Hits:
    """Every fact cue in the question, found in one pass, by list name."""

    def __init__(self, tokens: list[Token]):
        self._by_name: dict[str, list[Match[frozenset[str]]]] = {}
        self.all = cues().facts.find(tokens)
        for m in self.all:
            for name in m.value:
                self._by_name.setdefault(name, []).append(m)

    def __call__(self, name: str) -> list[Match[frozenset[str]]]:
        return self._by_name.get(name, [])


def _sentence_bounds(tokens: list[Token], i: int) -> tuple[int, int]:
    s = i
    while s > 0 and tokens[s - 1].norm not in ".;?!":
        s -= 1
    e = i
    while e < len(tokens) and tokens[e].norm not in ".;?!":
        e += 1
    return s, e


def _negated(tokens: list[Token], start: int, lang: str, window: int = 3) -> bool:
    """A negation in the few words before; or before the first of alternatives the word closes ("no Brazilian
    entity or branch", "não tem filial ou escritório")."""
    before = range(max(0, start - window), start)
    words = {tokens[i].norm for i in before} & cues().negation
    if words - ({"no"} if lang == "pt" else set()):
        return True
    either = [i for i in before if tokens[i].norm in cues().disjunctions.get(lang, frozenset())]
    return bool(either) and _negated(tokens, either[0], lang, window)


def _nearest(spans: list[Match[bool]], i: int, bounds: tuple[int, int], window: int) -> int | None:
    """Distance in tokens from position i to the nearest span inside the sentence, or None."""
    best = None
    for m in spans:
        if m.start < bounds[0] or m.end > bounds[1]:
            continue
        d = m.start - i if m.start > i else max(0, i - (m.end - 1))
        if d <= window and (best is None or d < best):
            best = d
    return best


def _flag(hits: Hits, tokens: list[Token], lang: str, true_list: str, false_list: str | None = None,
          chosen: bool = False) -> bool | None:
    """A yes/no fact: its false cues, else its true cue unless negated. `chosen`: a regime one opts into, unknown
    where its sentence, or the next one, says the choice is not made yet ("ainda não decidiu se a sociedade ficará
    no regime do CINM ou no regime geral", "…licensed in the Madeira free zone; the board has not decided yet
    whether it will opt into it")."""
    if false_list and hits(false_list):
        return False
    found = hits(true_list)
    if not found:
        return None
    for f in found if chosen else ():
        start, end = _sentence_bounds(tokens, f.start)
        end = _sentence_bounds(tokens, end + 1)[1] if end + 1 < len(tokens) else end
        if any(start <= u.start < end for u in hits("undecided")):
            return None
    return not _negated(tokens, found[0].start, lang)


def _values(m: Match[frozenset[str]], field: str) -> list[str]:
    """The values a cue gives a sub-case field ("pension_kind:social_security" -> "social_security")."""
    prefix = f"{field}:"
    return sorted(name[len(prefix):] for name in m.value if name.startswith(prefix))


def _sub_case(hits: Hits, field: str) -> str | None:
    """The first-mentioned value of a taxing-rights sub-case ("pension_kind:social_security" cues; a royalty's
    "kind:software" ones)."""
    return next((kinds[0] for m in hits.all if (kinds := _values(m, field))), None)


_PE_TOPICS = {"permanent_establishment", "business_profits"}


# "uma empresa de Aveiro que fabrica e monta maquinaria", "una empresa que fabrica muebles": the verb, written
# as the noun "fábrica" is once its accent is folded away
_VERB_LOOKALIKES = {"fabrica"}
_SUBJECT_BEFORE = {"que", "who", "which", "e", "y", "and"}


def _a_verb(tokens: list[Token], start: int) -> bool:
    return tokens[start].orig.lower() in _VERB_LOOKALIKES and start > 0 and tokens[start - 1].norm in _SUBJECT_BEFORE


_OF = {"de", "do", "da", "dos", "das", "of"}
_OWN_PLANT_REACH = 4     # words between a factory word and the place that says whose it is


def _enterprise_itself(m, tokens: list[Token], mentions: list[Mention], home: str | None) -> bool:
    """A place word that names the enterprise itself, by its home ("agente de uma fábrica de móveis de Caxias do
    Sul", "a factory from Minas Gerais") or as one in its residence State `home` ("Temos uma fábrica de calçados
    em Franca/SP e vamos vender para Portugal"): a place in its clause shortly after it, after "from", after "de"
    past what the factory makes (not "a sucursal de Lisboa", the branch there, nor "um campo de gás na bacia de
    Santos", placed), or after "em"/"in" in the home State, that no word makes the PE's."""
    def origin(c: Mention) -> bool:
        before = tokens[c.start - 1].norm
        placed = any(t.norm in _IN_PLACE for t in tokens[m.end:c.start - 1])    # "campo de gás na bacia de Santos"
        return before == "from" or (before in _OF and c.start - 1 > m.end and not placed) or \
            (home is not None and c.code == home and before in _IN_PLACE)
    return any(0 < c.start - m.end <= _OWN_PLANT_REACH and origin(c) and c.role != "pe"
               and all(t.is_word for t in tokens[m.end:c.start]) for c in mentions)


def _pe_activity(hits: Hits, tokens: list[Token], lang: str, topic_list: tuple[str, ...],
                 mentions: list[Mention], home: str | None) -> str | None:
    """What the enterprise does in the other State, in the words art. 5 decides on: an independent agent, or a
    warehouse, a representative office, advertising or information only, or a company it controls there (no PE),
    unless people conclude contracts there or the words name a branch, a factory, an office opened there (a PE)."""
    if not _PE_TOPICS & set(topic_list):
        return None
    place = any(not _negated(tokens, m.start, lang) and not _a_verb(tokens, m.start)
                and not _enterprise_itself(m, tokens, mentions, home) for m in hits("pe_listed_place"))
    if not place and not any(not _negated(tokens, m.start, lang) for m in hits("pe_contracts")):
        if hits("pe_activity:independent_agent"):
            return "independent_agent"
        if hits("pe_activity:auxiliary"):
            return "auxiliary"
        if any(not _negated(tokens, m.start, lang) for m in hits("pe_activity:subsidiary")):
            return "subsidiary"
    return "place_of_business" if place else None


_ISSUER_REACH = 12     # tokens from "emitidos pelo" to the government word that says whose the issuer is


def _issued_by_government(hits: Hits, tokens: list[Token]) -> bool:
    """Securities issued by a government or by a body it owns ("títulos de dívida emitidos pelo Instituto de
    Crédito Oficial (ICO), entidade pública … detida pelo Governo espanhol", "bonds issued by the Japanese
    government"): the government is the payer of the interest (BR-ES 11(4)(b)), not its beneficiary."""
    return any(0 <= m.start - i.end <= _ISSUER_REACH and _sentence_bounds(tokens, m.start)[0] <= i.start
               for i in hits("issued_by") for m in hits("government"))


def _paid_by_government(hits: Hits, g: Grammar) -> bool:
    """"do governo português", "from the Brazilian government", "pelo Estado": a government pays; not "uma
    agência 100% do Governo", "propriedade do Estado": an entity the government owns."""
    owned = {i for m in hits("government_owned") for i in range(m.end, m.end + 4)}
    return any("from_preps" in g.categories_before(m.start - 1, 3) and not owned & set(range(m.start - 3, m.start))
               and not _says_owned(g.tokens[m.start:m.end]) for m in hits("government"))


def _says_owned(phrase: list[Token]) -> bool:
    """A government phrase that itself says the entity is owned ("de propiedad exclusiva del Estado"): the longer
    cue hides its ownership word from the government_owned list, so its words are looked up one by one."""
    return any("government_owned" in m.value for tok in phrase for m in cues().facts.find([tok]))


def _kind_beside_pension(hits: Hits, window: int = 2) -> str | None:
    """The kind named right beside a pension word ("la pensión de Clases Pasivas", "my Social Security
    pension"): it names the pension asked about, over a kind the story names first ("funcionario de la
    Consejería de Empleo y Seguridad Social")."""
    words = hits("pension_words")
    for m in hits.all:
        kinds = _values(m, "pension_kind")
        if kinds and any(0 <= m.start - w.end <= window or 0 <= w.start - m.end <= window
                         for w in words if w is not m):
            return kinds[0]
    return None


def _pension_kind(hits: Hits, g: Grammar, topic_list: tuple[str, ...]) -> str | None:
    """The kind the words name; a pension a government pays, with no other kind named, is a public one. A
    government-service question that names no pension asks about pay: its public words name the employer."""
    if not {"pensions", "government_service"} & set(topic_list):
        return None
    if "pensions" not in topic_list and not hits("pension_words"):
        return None
    named = _kind_beside_pension(hits) or _sub_case(hits, "pension_kind")
    if named is None and "pensions" in topic_list and _paid_by_government(hits, g):
        return "government"
    return named


# Topics about an enterprise's own profits: the enterprise named as a company is the taxpayer.
_ENTERPRISE_TOPICS = {"permanent_establishment", "business_profits", "branch_profits", "shipping"}


# words after a bank that make it the one paying or withholding, not the one receiving
_BANK_PAYS = {"retuvo", "retiene", "retienen", "reteve", "retem", "retinha", "withheld", "withholds",
              "withholding", "deducted", "descontou", "desconta", "me", "nos", "lhe", "le", "les"}


_HOLD_VERBS = {"detem", "detinha", "possui", "posee", "tiene", "tem", "holds", "holding", "owns", "held"}
_FIRST_PERSON = {"eu", "i", "yo", "we", "nos", "sou", "soy", "tenho", "tengo", "my", "meu", "minha", "mi", "mis"}
_OBJECT_PREPS = {"de", "do", "da", "dos", "das", "del", "of", "em", "en", "in", "no", "na", "nos", "nas"}
_ARTICLES = {"a", "o", "uma", "um", "the", "an", "la", "el", "una", "un", "nossa", "nuestra", "our"}
_DOTTED_FORMS = {"sa", "sl", "sau", "slu", "ag", "bv", "nv"}
_LEGAL_FORMS = {"lda", "ltda", "sgps", "gmbh", "inc", "ltd", "sl", "slu", "kk", "plc", "bv", "nv", "ag"}


def _government_business(hits: Hits, g: Grammar, lang: str) -> bool | None:
    """A State-owned business the person serves (art. 19(3)); not the State bank that only holds the account the
    pension is paid into ("paga numa conta do Banco do Brasil")."""
    found = [m for m in hits("government_business") if "account" not in g.categories_before(m.start - 1, 3)]
    return None if not found else not _negated(g.tokens, found[0].start, lang)


def _dotted_form(tokens: list[Token], i: int) -> int | None:
    """Where a dotted legal form ending at token i starts ("S.A.", "S.L.", "S.A.U."), or None."""
    letters, j = [], i
    while j >= 0 and len(tokens[j].norm) == 1 and tokens[j].norm.isalpha():
        letters.append(tokens[j].norm)
        if j < 2 or tokens[j - 1].norm != ".":
            break
        j -= 2
    return j if "".join(reversed(letters)) in _DOTTED_FORMS else None


_STUDY_AID_REACH = 5    # words from "para ayudarme" to the studies it pays for ("con los gastos del máster")
_PURPOSE = {"para", "pra", "to"}     # before a payment word, what it is for ("para pagar el máster")


def _study_job(hits: Hits, tokens: list[Token], lang: str, training: bool | None) -> bool | None:
    """A student's job held to help the studies ("trabajo en una tienda para ayudarme a pagar los estudios"), or
    a traineeship tied to the course (its training): BR-ES 21(2)'s "emprego … com a finalidade de ajudar os seus
    estudos ou a sua formação". `training`: the traineeship flag, already read."""
    if _flag(hits, tokens, lang, "study_help") or training:
        return True
    # said in other words: a purpose of help or payment, then the studies within a few words of it ("para
    # ayudarme con los gastos del máster", "to help cover my tuition fees")
    aids = hits("study_aid") + [m for m in hits("payment") if m.start and tokens[m.start - 1].norm in _PURPOSE]
    return True if any(0 <= c.start - a.end <= _STUDY_AID_REACH and same_clause(tokens, a.end, c.start)
                       and not _negated(tokens, a.start, lang)
                       for a in aids for c in hits("study_costs")) else None


def _company_holds(g: Grammar, verb: int) -> bool:
    """The subject of a holding verb is a company ("uma S.A. brasileira que detém 80%", "a company in Curitiba
    holding 100%", "a Nordeste Alimentos S.A., sediada em Recife, detém"): a company word or legal form in the
    clause before the verb that is not the object of a preposition ("sócio de uma empresa … e tenho 30%")."""
    tokens = g.tokens
    for i in range(verb - 1, max(-1, verb - 12), -1):
        norm = tokens[i].norm
        if norm in _FIRST_PERSON:
            return False
        if norm in ("?", "!", ";", ":") or (norm == "." and not (i > 0 and len(tokens[i - 1].norm) == 1)):
            return False
        start, cat = g.left(i)
        dotted = _dotted_form(tokens, i)
        if cat != "company" and norm not in _LEGAL_FORMS and dotted is None:
            continue
        j = (dotted if dotted is not None else start) - 1
        while j >= 0 and tokens[j].norm in _ARTICLES:
            j -= 1
        if j < 0 or tokens[j].norm not in _OBJECT_PREPS:
            return True
    return False


# "my Japanese broker", "o meu banco brasileiro": where the shares or the money are kept, not the owner's company
_KEEPERS = {"broker", "corretora", "corretor", "bróker", "banco", "bank", "banca", "custodian",
            "custodiante", "depositario", "depositário"}


def _keeper(g: Grammar, m: Mention) -> bool:
    return m.end < len(g.tokens) and g.tokens[m.end].orig.lower() in _KEEPERS


_BANK_WORDS = {"banco", "bancos", "bank", "banks"}
_WORKS_AT_REACH = 6  # tokens from "trabajo" to the bank the writer works at ("trabajo en … en un banco")
_ACTS_REACH = 2      # tokens from a government word to the verb that says it legislates ("o governo já anunciou")


def _beneficiary_kind(hits: Hits, g: Grammar, mentions: list[Mention], employment: bool,
                      topic_list: tuple[str, ...] = ()) -> str | None:
    if any(not denied(g.tokens, m.start) for m in hits("individual")):
        return "individual"                            # not "somos uma sociedade e não uma pessoa física"
    legislating = {i for m in hits("government_acts") for i in range(m.start - _ACTS_REACH, m.start + 1)}
    if any(m.end not in legislating for m in hits("government")) and not _paid_by_government(hits, g) and \
            not _issued_by_government(hits, g.tokens):
        # not "do governo português", "from the Brazilian government": that is the payer; not "o governo quer
        # mexer no JCP": that is the legislator
        return "government"
    lends = any(cat == "lend_verbs" for _, cat in g.by_start.values())
    worked = {m.end for m in hits("works_at")} if lends else set()

    def kept_at(start: int) -> bool:       # where money is kept, not where the lending writer works
        return not any(0 <= start - end <= _WORKS_AT_REACH and same_clause(g.tokens, end, start) for end in worked)
    not_bank = {i for m in hits("not_beneficiary_bank") if kept_at(m.start) for i in range(m.start, m.end)}
    not_bank |= {i for p in hits("bank_place") if kept_at(p.start) for i in range(p.end, p.end + 3)}
    if any(not kept_at(m.start) and {t.norm for t in g.tokens[m.start:m.end]} & _BANK_WORDS
           for m in hits("not_beneficiary_bank")):
        return "financial_institution"                 # "sou gestor num banco do Porto. Vamos emprestar…"
    loan_ends = {m.end for m in hits("loan")}
    for m in hits("financial_institution"):
        if denied(g.tokens, m.start):
            continue                                   # "a sociedade não é um banco"
        loan_from = any(0 <= m.start - end <= 3 for end in loan_ends)   # "empréstimo de um banco": the lender
        if m.start in not_bank or ("from_preps" in g.categories_before(m.start - 1, 2) and not (lends or loan_from)):
            continue                                   # a bank account, or interest "from a bank": the payer
        after = range(m.end, min(m.end + 2, len(g.tokens)))       # "o banco (português) reteve"
        if any(g.tokens[i].norm in _BANK_PAYS or g.right(i)[1] == "pay_verbs" for i in after):
            continue                                   # "el banco retuvo un 15%", "the bank pays me": the payer
        return "financial_institution"
    if employment:
        return None                                    # "a minha empresa destacou-me": the employer, not a beneficiary
    firm = {m.start for m in hits("firm_words")}
    if hits("company") or any(_company_within(g, m.end, firm) for m in hits("we_are")):
        return "company"                               # "a nossa sociedade", "somos una ingeniería de Valencia"
    if hits("person"):
        return "individual"                            # "I live in Kobe … I bought 12% of a Portuguese company"
    if any(_titled_holder(g.tokens, m.start) for m in hits("holding")):
        return "individual"                            # "o Sr. Joaquim Almeida, residente em Viseu, que é sócio (30%)"
    if set(topic_list[:1]) & _ENTERPRISE_TOPICS and any(cat == "company" for _, cat in g.by_start.values()):
        return "company"                               # "uma construtora brasileira vai montar…": the enterprise
    if any("company" in g.categories_before(m.start - 1, 2) for m in hits("holding")):
        return "company"                               # "a empresa tem 35%", "la sociedad posee el 40%"
    if any(m.company and m.role == "residence" and not _keeper(g, m) for m in mentions):
        return "company"
    if any(_company_holds(g, m.start) for m in hits("holding") if g.tokens[m.start].norm in _HOLD_VERBS):
        return "company"
    if any(_held_by_company(g, m.end) for m in hits("holding") if {t.norm for t in g.tokens[m.start:m.end]} & _HELD):
        return "company"                               # "100% owned by the Brazilian parent", "detida pela SGPS"
    return None


# A person's title before the name ("Sr.", "Mrs", "Dña."): a holder so named is an individual
_PERSON_TITLES = {"sr", "sra", "snr", "snra", "senhor", "senhora", "mr", "mrs", "ms", "don", "dona", "dña", "sres",
                  "senor", "senora"}
# words from the title to the holding cue ("o Sr. Joaquim Almeida, residente em Viseu, que é sócio")
_TITLED_REACH = 15


def _titled_holder(tokens: list[Token], cue: int) -> bool:
    """A title and a capitalised name before the holding cue, in its sentence: the first title met going back."""
    for i in range(cue - 1, max(-1, cue - _TITLED_REACH), -1):
        norm = tokens[i].norm
        if norm in ("?", "!", ";", ":") or (norm == "." and not (i > 0 and tokens[i - 1].norm in _PERSON_TITLES)):
            return False
        if norm in _PERSON_TITLES and i + 1 < cue:
            after = i + 2 if tokens[i + 1].norm == "." else i + 1
            return after < cue and tokens[after].orig[:1].isupper()
    return False


_HELD = {"owned", "held", "detida", "detido", "detidas", "detidos", "participada", "participado", "poseida",
         "poseido"}
_HELD_BY_REACH = 4      # words from "by"/"pela" to the company word: "by the Brazilian parent"


def _held_by_company(g: Grammar, end: int) -> bool:
    """A holding said in the passive names its holder after "by" ("owned by the Brazilian parent", "detida pela
    sociedade-mãe", "detida a 100% pela SGPS"): a company word there is the shareholder."""
    by = next((i for i in range(end, min(end + _HELD_BY_REACH, len(g.tokens))) if g.right(i)[1] == "from_preps"),
              None)
    if by is None or any(t.norm in ",.;:?!" for t in g.tokens[end:by]):
        return False
    after = g.right(by)[0]
    return any(g.right(i)[1] == "company" for i in range(after, min(after + _HELD_BY_REACH, len(g.tokens)))
               if g.tokens[i].is_word)


_WE_ARE_REACH = 5    # "somos una pequeña productora", "we're a small Lisbon software studio"


def _company_within(g: Grammar, start: int, firm: set[int]) -> bool:
    """A company word (or one of `firm`'s starts) within _WE_ARE_REACH words after `start`, in the clause."""
    for i in range(start, min(start + _WE_ARE_REACH, len(g.tokens))):
        if not g.tokens[i].is_word:
            return False
        if i in firm or g.right(i)[1] == "company":
            return True
    return False


@dataclass(frozen=True)
class _Amounts:
    holding_pct: float | None
    stated_rates: tuple[float, ...]
    holding_months: float | None
    loan_term_years: float | None
    stay_days: float | None
    stay_months: float | None
    stay_unit: str | None                # the unit the stay was written in: "days" | "weeks" | "months" | "years"
    stay_in_one_year: bool = False       # the day count's sentence says they fall in one year ("este año")
    stay_at: int | None = None           # token of the stay's number (days, or else months)
    stay_low_days: float | None = None   # a range's lower end ("4 a 8 meses"), in days; the stay is its upper


# The longest stay any treaty's rule counts (students' 4 years in BR-ES 21(2)... with margin): a longer "stay"
# is a career or a life somewhere, not a stay.
_LONGEST_STAY_MONTHS = 6 * 12
_HOLDING_TOPICS = {"dividends", "capital_gains", "double_taxation_relief"}
_STAY_TOPICS = {"employment", "students", "professors", "permanent_establishment"}
_EXTENDS_REACH = 5      # words from "may stretch to", "pode prolongar-se até" to the longer length
_IN_MONTHS = {"years": 12.0, "months": 1.0, "weeks": 12 / 52, "days": 12 / 365}
# A percentage per period is a loan's or an investment's yield ("juros de 8% a.a.", "6% p.a.", "5% al año").
_PER_PERIOD = re.compile(r"\s*(?:a\.\s?a\.|p\.\s?a\.|a\.\s?m\.|ao (?:ano|mes)|al (?:ano|mes)|por (?:ano|mes)|"
                         r"per (?:annum|year|month)|a (?:year|month)\b)")
_WITH = {"com", "con", "with"}    # a holding's weakest cue ("um sócio com 30%")
_WITHHELD_AFTER = 3               # tokens from a percentage to the rate word after it ("15% de IR retido")
_RULE_WORDS = {"dos", "the", "los", "de", "os", "regra", "rule", "regla", "limite", "limit", "mais", "more", "than"}
_RULE_AFTER = {"rule", "test", "limit", "threshold", "requirement", "regra", "regla", "limite", "teste", "prueba",
               "umbral", "requisito"}


def _amounts(hits: Hits, folded: str, tokens: list[Token], lang: str, topic_list: tuple[str, ...]) -> _Amounts:
    holding = hits("holding")
    rate = hits("rate")
    not_loan = {i for m in hits("not_loan") for i in range(m.start, m.end)}
    loan = [m for m in hits("loan") if m.start not in not_loan]
    stay = hits("stay")
    other_pct = hits("not_holding_pct")
    shares = bool(hits("gain_kind:shares"))           # shares or a stake named: a period can be a holding
    strong = [m for m in holding if m.end - m.start > 1 or tokens[m.start].norm not in _WITH]

    holding_pct = None
    rates: list[float] = []
    for q in percentages(folded, lang):
        i = token_at(tokens, q.start)
        bounds = _sentence_bounds(tokens, i)
        if _nearest(other_pct, i, bounds, 3) is not None or _PER_PERIOD.match(folded, q.end):
            continue                                   # "10% de valorização", "a 5% de juros", "8% a.a.": neither
        dh, dr = _nearest(holding, i, bounds, 6), _nearest(rate, i, bounds, 8)
        if dh is not None and _nearest(strong, i, bounds, 6) is None and \
                _nearest([m for m in rate if m.start > i], i, bounds, _WITHHELD_AFTER) is not None:
            dh = None             # "vieram com 15% de IR retido", "with 15% withheld": a rate, not "um sócio com 15%"
        # a holding only when the words say so ("detenho 30%", "30% do capital"); a bare percentage is the
        # rate the user takes for granted ("…é de 5%, certo?"), which the card confirms or corrects
        if dh is not None and (dr is None or dh <= dr):
            if holding_pct is None and not _lower_bound(folded, q.start):
                holding_pct = q.value            # "mais de 10%" could be 30%: left unknown, the card shows both
        elif q.value < 100:                      # "100% do Estado", "100% das quotas": whole ownership, no rate
            rates.append(q.value)
    if holding_pct is None and hits("whole_capital"):
        holding_pct = 100.0

    held = loan_term = days = months = unit = None
    days_at = months_at = days_low = months_low = None
    one_year = False
    for q in durations(folded, lang):
        i = token_at(tokens, q.start)
        after = token_at(tokens, q.end - 1) + 1
        if q.value == 183 and q.unit == "days" and ((i > 0 and tokens[i - 1].norm in _RULE_WORDS) or
                                                    (after < len(tokens) and tokens[after].norm in _RULE_AFTER)):
            continue                                   # "a regra dos 183 dias", "the 183-day test": the rule
        if _counting_window(folded, q):
            continue                                   # "in any 12-month period": the rule's window, no stay
        bounds = _sentence_bounds(tokens, i)
        longer = round(q.value * _IN_MONTHS[q.unit], 2)
        supposed = bounds[1] < len(tokens) and tokens[bounds[1]].norm == "?"
        if months is not None and months_low is None and q.unit != "days" and longer != months and \
                not supposed and _nearest(hits("stay_extends"), i, bounds, _EXTENDS_REACH) is not None:
            # "4 months on site, but it may stretch to around 8 months": the length is the range between the two
            # (not a question's "¿y si prorrogan el contrato hasta los 30 meses?", which supposes it)
            months_low, months = min(months, longer), max(months, longer)
            continue
        # "we'll have held the stake for roughly 200 days": the quantity's own unit is no stay word in a
        # ticket that asks nothing about a stay
        stay_words = stay if set(topic_list) & _STAY_TOPICS else [m for m in stay if not i <= m.start < after]
        dist = {"loan": _nearest(loan, i, bounds, 8), "holding": _nearest(holding, i, bounds, 10),
                "stay": _nearest(stay_words, i, bounds, 10)}
        known = {k: d for k, d in dist.items() if d is not None}
        held_pct = holding_pct is not None and not set(topic_list[:1]) & _STAY_TOPICS
        if "holding" in known and not (held_pct or shares or set(topic_list) & _HOLDING_TOPICS):
            # "con una beca", "tem uma obra": no shares in sight; a group's "detém 100%" beside a building
            # site's "14 meses" does not make the site's duration a holding period
            del known["holding"]
        if known:
            kind = min(known, key=lambda k: (known[k], k != "holding"))
        elif set(topic_list) & {"dividends", "capital_gains"} or held_pct:
            kind = "holding"
        elif "interest" in topic_list:
            kind = "loan"
        elif set(topic_list) & _STAY_TOPICS:
            kind = "stay"
        else:
            continue
        in_months = q.value * _IN_MONTHS[q.unit]
        if _an_age(folded, q) or (_time_lived(folded, q.start) and (kind != "stay" or in_months > 12)):
            continue                                   # "tenho 40 anos", "moro há 12 anos em Lisboa": no period
        if kind == "stay" and in_months > _LONGEST_STAY_MONTHS:
            continue                                   # "trabalhei 20 anos na Prefeitura": a career, not a stay
        if _lower_bound(folded, q.start):       # "há mais de um ano": at least that long
            if kind == "stay" and q.unit == "days" and days is None:
                days = q.value + 1
            elif kind == "stay" and in_months >= 12 and months is None:
                months, unit = round(in_months, 2) + 0.01, q.unit    # "durará más de dos años": past every limit
            elif kind == "holding" and held is None:
                held = round(in_months, 2) + 0.01     # "participação que mantemos há mais de quatro anos"
            continue
        if kind == "holding" and held is None:
            held = round(in_months, 2)
        elif kind == "loan" and loan_term is None:
            loan_term = round(in_months / 12, 2)
        elif kind == "stay" and q.unit == "days" and days is None:
            days, days_at, days_low = q.value, i, q.low
            one_year = _nearest(hits("one_year"), i, bounds, 12) is not None
        elif kind == "stay" and q.unit != "days" and months is None:
            months, unit, months_at = round(in_months, 2), q.unit, i
            months_low = None if q.low is None else q.low * _IN_MONTHS[q.unit]
            if days is None:                   # "8 months this year", "seis meses en 2025": in one year too
                one_year = _nearest(hits("one_year"), i, bounds, 12) is not None
    return _Amounts(holding_pct, tuple(rates), held, loan_term, days, months,
                    "days" if days is not None and months is None else unit, one_year,
                    days_at if days_at is not None else months_at,
                    days_low if days is not None else None if months_low is None else round(months_low * 365 / 12))


# The 183-day rules' counting window ("any 12-month period", "qualquer período de 12 meses"), not a stay.
_WINDOW_BEFORE = re.compile(r"\b(?:any|qualquer|cualquier|every|each|cada|todo|toda)\s+(?:(?:periodo|period)\s+"
                            r"(?:de|of)\s+)?$")
_WINDOW_AFTER = re.compile(r"\s*periods?\b")


def _counting_window(folded: str, q) -> bool:
    return q.unit == "months" and q.value == 12 and bool(
        _WINDOW_BEFORE.search(folded[max(0, q.start - 30):q.start]) or _WINDOW_AFTER.match(folded, q.end))


_STAY_PLACE_NEAR = 4     # words between a stay's number and the place it is spent in
_IN_PLACE = {"em", "no", "na", "nos", "nas", "en", "in", "at"}
_CLAUSE_JOINS = {"e", "y", "and", "mas", "but", "pero"}


def _stay_state(tokens: list[Token], mentions: list[Mention], at: int | None) -> str | None:
    """The State a stated stay is spent in: a country, a city or "aqui"/"here" within a few words of the stay's
    number, in its clause ("já estou cá há 250 dias", "300 days in Japan this year", "en Brasil pasé 90
    días"); not a company's or an employer's country ("250 días para una empresa de Recife"), nor a "lá" that
    may point to one."""
    if at is None:
        return None
    here = [m for m in pointed(tokens, mentions) if tokens[m.start].orig.lower() in cues().deixis_here]
    places = [m for m in (*mentions, *here) if not m.company and m.role not in ("employer",)]
    near = [(m.start - at, m.code) for m in places
            if 0 < m.start - at <= _STAY_PLACE_NEAR and same_clause(tokens, at + 1, m.start)]
    # before the number, only a place said as one ("cá", "en Brasil pasé"), not "Portuguese resident working 4
    # months", nor one a conjunction leaves in the clause before ("mora em Braga e vai passar 100 dias na filial")
    near += [(at - m.end, m.code) for m in places
             if 0 <= at - m.end < _STAY_PLACE_NEAR and same_clause(tokens, m.end, at)
             and not any(t.norm in _CLAUSE_JOINS for t in tokens[m.end:at])
             and (m in here or (m.start > 0 and tokens[m.start - 1].norm in _IN_PLACE))]
    return min(near)[1] if near else None


_AGE_BEFORE = re.compile(r"\b(?:tenho|tengo|tinha|tenia|tiene|aos|a los|at|aged|age of|idade de|edad de|"
                         r"i am|i m|im|he is|she is|cumpli|cumpri|fiz|fez|hice)\s+$")
_AGE_AFTER = re.compile(r"\s+(?:de idade|de edad|old|of age)\b")
# Living somewhere for a time ("moro há 12 anos em Lisboa", "vivi 40 anos em Curitiba", "lived in Porto for
# 10 years"): a verb of living shortly before the number, in the same clause.
_LIVED = re.compile(r"\b(?:moro|morei|morava|mora|moramos|vivo|vivi|vivia|vive|viveu|vivio|vivimos|vivemos|resido|"
                    r"residi|residia|reside|live|lived|living|lives|resided)\b[^.;,!?%]{0,40}$")


def _an_age(folded: str, q) -> bool:
    """A person's age ("tenho 40 anos", "a los 62 años", "45 years old"), never a period of anything."""
    return q.unit == "years" and bool(_AGE_BEFORE.search(folded[max(0, q.start - 16):q.start])
                                      or _AGE_AFTER.match(folded, q.end))


def _time_lived(folded: str, start: int) -> bool:
    """Years lived somewhere: not a holding or a loan term (a stay for the 183 days may still be)."""
    return bool(_LIVED.search(folded[max(0, start - 60):start]))


_LOWER_BOUND = re.compile(r"(?:mais de|more than|over|mas de|acima de|superior a|at least|pelo menos|"
                          r"no minimo|al menos|como minimo|por lo menos|upwards of)\s+(?:uns |umas |unos |unas )?$")


def _lower_bound(folded: str, start: int) -> bool:
    """The quantity at `start` is only a lower bound ("mais de 10%", "at least two years")."""
    return bool(_LOWER_BOUND.search(folded[max(0, start - 24):start]))


_YEAR = re.compile(r"(?:19|20)\d{2}")


# Questions in which a holding's length decides something (dividend caps, the 95% deduction, MLI 365 days).
HOLDING_TOPICS = ("dividends", "capital_gains", "double_taxation_relief", "anti_abuse", "tax_sparing")


def _held_since_year(hits: Hits, tokens: list[Token], today: date) -> float | None:
    """"desde 2018" / "held since 2019" with no payment date: the holding began at the latest on 31 December of
    that year and the payment is now or later, so it has lasted at least the months since then."""
    for m in hits("holding_since"):
        if m.end < len(tokens) and _YEAR.fullmatch(tokens[m.end].norm):
            end_of_year = date(int(tokens[m.end].norm), 12, 31)
            if end_of_year < today:
                return round((today - end_of_year).days / 30.44, 2)
    return None


_SINCE = {"desde", "since"}


def _visit_years(hits: Hits, folded: str, tokens: list[Token], stays: tuple, amounts: _Amounts,
                 today: date) -> float | None:
    """A student's or visiting teacher's stay in years: one for "primeiro ano"; else, with no length or dates
    stated, the years since the start "desde"/"since" names ("desde set/2023", "here since 2022") until today,
    from its earliest day (a stay read within a limit is surely within it)."""
    if hits("first_year"):
        return 1.0
    if stays or amounts.stay_days is not None or amounts.stay_months is not None:
        return None
    starts = [d.first_day(d.year) for d in dates(folded, today) if d.year is not None
              and 0 < (i := token_at(tokens, d.start)) and tokens[i - 1].norm in _SINCE]
    starts += [date(int(tokens[k + 1].norm), 1, 1) for k, t in enumerate(tokens[:-1])
               if t.norm in _SINCE and _YEAR.fullmatch(tokens[k + 1].norm)]
    starts = [d for d in starts if d is not None and d < today]
    return round((today - min(starts)).days / 365.25, 2) if starts else None


def _held_so_far(since: date, today: date) -> float | None:
    """"sócia direta desde março de 2019" with no payment date: the payment is now or later, so the holding has
    lasted at least the months from its (latest possible) start until today."""
    return round((today - since).days / 30.44, 2) if since < today else None


def _direct(stated: bool | None, holding_pct: float | None) -> bool | None:
    """"detenho 30%" states a holding of one's own: people say so when it is held through another
    company, and that cue (direct_false) wins. The card shows the reading, so the agent can correct it."""
    if stated is None and holding_pct is not None:
        return True
    return stated


# "comprámos 30% de uma empresa de Curitiba em março de 2024": the purchase's object sits between verb and date
_SINCE_WITHIN = 10
_PAY_AFTER = 2        # words between a date and the payment word after it ("julho de 2025 a distribuição")
# words between a date and the purchase after it ("Em setembro de 2023 a sociedade-mãe portuguesa (uma S.A.) adquiriu")
_BOUGHT_AFTER = 16


def _dates(hits: Hits, folded: str, tokens: list[Token], fiscal_year: int | None, months: bool, today: date):
    """Stay ranges, and the holding's start and the payment date; `months`: a month alone counts (a question
    where a holding's length decides: "vivo aqui desde março de 2019" is no holding)."""
    mentions = dates(folded, today)
    ranges = date_ranges(folded, mentions, fiscal_year)
    in_range = {id(a) for a, _, _, _ in ranges} | {id(b) for _, b, _, _ in ranges}
    since_cues, pay_cues = hits("holding_since"), hits("payment") + hits("paid_by")   # "pago pela Ltda em…"
    holding_since = payment = None
    for d in mentions:
        if id(d) in in_range or d.year is None or (d.day is None and not months):
            continue
        i = token_at(tokens, d.start)
        bounds = _sentence_bounds(tokens, i)
        ds = _nearest([m for m in since_cues if m.end <= i], i, bounds, _SINCE_WITHIN)
        dp = _nearest([m for m in pay_cues if m.end <= i], i, bounds, 6)
        if dp is None and ds is None:     # "prevista para julho de 2025 a distribuição": the payment named after
            after = token_at(tokens, d.end - 1) + 1
            dp = _nearest([m for m in pay_cues if m.start >= after], after, bounds, _PAY_AFTER)
            if dp is None:                # "Em setembro de 2023 a sociedade-mãe (…) adquiriu": the purchase after
                bought = [m for m in since_cues if m.start >= after and tokens[m.start].norm not in _SINCE]
                ds = _nearest(bought, after, bounds, _BOUGHT_AFTER)
        # a month alone ("desde março de 2020", "paid in June 2025"): held from its last day, paid on its first,
        # so the holding read is never longer than the one stated
        if ds is not None and (dp is None or ds <= dp) and holding_since is None:
            holding_since = d.last_day(d.year)
        elif dp is not None and payment is None:
            payment = d.first_day(d.year)
    if holding_since and payment and holding_since > payment:     # one month for both: nothing certain
        holding_since = payment = None
    return tuple((start, end) for _, _, start, end in ranges), holding_since, payment


# Any year that is not a leap year: a stay written without one ("del 15 de marzo al 30 de septiembre") is
# counted in it; only whether it falls in one calendar year, and its length, are kept.
_COMMON_YEAR = 2001
_A_YEAR = re.compile(r"\b(?:19|20)\d{2}\b")


def _yearless_stay(folded: str, amounts: _Amounts) -> _Amounts:
    """A stay given by dates without a year ("de 1 de abril a 31 de outubro", "from 10 February to 20
    September"), when the ticket names no year: its days, unless a number of days is stated, and whether they
    fall in one calendar year (March to September does; November to February does not)."""
    if _A_YEAR.search(folded):
        return amounts
    ranges = date_ranges(folded, dates(folded), _COMMON_YEAR)
    if not ranges:
        return amounts
    _, _, start, end = ranges[0]
    in_one_year = start.year == end.year
    if amounts.stay_days is not None or amounts.stay_months is not None:
        return replace(amounts, stay_in_one_year=amounts.stay_in_one_year or in_one_year)
    return replace(amounts, stay_days=float((end - start).days + 1), stay_unit="days",
                   stay_in_one_year=amounts.stay_in_one_year or in_one_year)


_FISCAL_YEAR = re.compile(r"\b(?:ano fiscal|ano de|ano|exercicio|ejercicio|ano calendario|tax year|fiscal year|"
                          r"year|em|en|in|durante|during|no ano|para o ano|para|for)\s+(?:de\s+)?((?:19|20)\d{2})\b")


def fiscal_year_of(folded: str) -> int | None:
    date_spans = [(d.start, d.end) for d in dates(folded)]
    years = {int(m.group(1)) for m in _FISCAL_YEAR.finditer(folded)
             if not any(s <= m.start(1) < e for s, e in date_spans)}
    return years.pop() if len(years) == 1 else None


@dataclass(frozen=True)
class StatedFacts:
    """What a question states: its facts, and the rates the user asserts (a premise the card checks, not a
    fact the rules read)."""
    facts: Facts
    stated_rates: tuple[float, ...]
    stay_state: str | None = None      # where the stated stay is spent, when its clause names it


def read_facts(tokens: list[Token], hits: Hits, folded: str, lang: str, topic_list: tuple[str, ...],
               grammar: Grammar, mentions: list[Mention], roles: dict[str, tuple[str, ...]], parties: set[str],
               work_state: str | None, today: date | None = None, home: str | None = None) -> StatedFacts:
    """Every fact the question states, given the countries' roles and the treaty's parties (`hits`: the
    question's fact cues, found once by understand(); `home`: the residence State read)."""
    employment = "employment" in topic_list and not set(topic_list) & set(INCOME_TYPES)
    fiscal_year = fiscal_year_of(folded)
    holding = not topic_list or bool(set(topic_list) & set(HOLDING_TOPICS))  # "vivo en Madrid desde 2017": none
    stays, holding_since, payment = _dates(hits, folded, tokens, fiscal_year, months=holding,
                                           today=today or date.today())
    amounts = _amounts(hits, folded, tokens, lang, topic_list)
    if not stays and set(topic_list) & _STAY_TOPICS:
        amounts = _yearless_stay(folded, amounts)
    holding_months = amounts.holding_months
    if holding_months is None and payment is None and holding:
        # paid now or later; for a year's profits ("lucros do exercício de 2024"), not before that year began
        until = today or date.today()
        if fiscal_year is not None and date(fiscal_year, 1, 1) < until:
            until = date(fiscal_year, 1, 1)
        holding_months = _held_so_far(holding_since, until) if holding_since \
            else _held_since_year(hits, tokens, until)
    elif holding_months is None and holding and holding_since is None and payment is not None:
        holding_months = _held_since_year(hits, tokens, payment)    # "since 2021 … a dividend in March 2026"
    pe_words = [(start, end) for start, (end, cat) in grammar.by_start.items() if cat == "role:pe"]
    attributable, third = _pe_facts(hits, tokens, lang, roles, parties, pe_words)
    topic = topic_list[0] if topic_list else None
    loan_context = bool(hits("loan")) or topic == "interest"
    kinds = set(topic_list) & {"royalties", "technical_services"}
    training = _flag(hits, tokens, lang, "practical_training", "practical_training_false") \
        if "students" in topic_list else None
    facts = Facts(
        beneficiary_kind=_beneficiary_kind(hits, grammar, mentions, employment, topic_list),
        holding_pct=amounts.holding_pct,
        voting_capital=_flag(hits, tokens, lang, "voting", "voting_false"),
        holding_months=holding_months,
        holding_since=holding_since,
        payment_date=payment,
        loan_term_years=amounts.loan_term_years,
        loan_purpose="equipment" if hits("equipment") and loan_context and not kinds else None,
        interest_on_equity=True if hits("interest_on_equity") else None,
        royalty_kind=_sub_case(hits, "kind") if kinds else None,
        attributable_to_pe=attributable,
        pe_activity=_pe_activity(hits, tokens, lang, topic_list, mentions, home),
        paid_to_pe_third_state=third,
        free_zone_regime=_flag(hits, tokens, lang, "free_zone", "free_zone_false", chosen=True),
        registered_central_bank=_flag(hits, tokens, lang, "central_bank"),
        direct_holding=_direct(_flag(hits, tokens, lang, "direct", "direct_false"), amounts.holding_pct),
        pension_kind=_pension_kind(hits, grammar, topic_list),
        gain_kind=_sub_case(hits, "gain_kind") if "capital_gains" in topic_list else None,
        employment_kind=_sub_case(hits, "employment_kind"),
        student_payment_origin=_sub_case(hits, "student_payment_origin") if "students" in topic_list else None,
        invited_to_teach_or_research=_flag(hits, tokens, lang, "invited") if "professors" in topic_list else None,
        exchange_programme_visit=_flag(hits, tokens, lang, "exchange_programme") if "professors" in topic_list
        else None,
        student_practical_training=training,
        student_employment_for_studies=_study_job(hits, tokens, lang, training) if "students" in topic_list
        else None,
        stay_years=_visit_years(hits, folded, tokens, stays, amounts, today or date.today())
        if {"students", "professors"} & set(topic_list) else None,
        government_business=_government_business(hits, grammar, lang)
        if {"government_service", "pensions", "employment"} & set(topic_list) else None,
        government_debt=True if (hits("government_debt") or _issued_by_government(hits, tokens)) and
        "interest" in topic_list else None,
        public_funds_visit=_flag(hits, tokens, lang, "public_funds", "public_funds_false")
        if "artistes_sportsmen" in topic_list else None,
        fixed_base_in_source=_flag(hits, tokens, lang, "fixed_base", "fixed_base_false"),
    )
    employer_in_work, borne = _employment(hits, tokens, lang, topic_list, mentions, grammar, work_state,
                                          pe_words, attributable)
    employment_facts = EmploymentFacts(
        stays=stays, stay_days=amounts.stay_days, stay_months=amounts.stay_months, stay_unit=amounts.stay_unit,
        stay_in_one_year=amounts.stay_in_one_year, stay_low_days=amounts.stay_low_days,
        employer_resident_in_work_state=employer_in_work,
        borne_by_pe=borne, fiscal_year=fiscal_year)
    residence = _tiebreaker(roles, facts, read_residence(tokens, mentions, tuple(sorted(parties)), folded, lang),
                            grammar.names("company"))
    return StatedFacts(replace(facts, employment=employment_facts, residence=residence), amounts.stated_rates,
                       _stay_state(tokens, mentions, amounts.stay_at))


_OTHER = {"outra", "outro", "outras", "outros", "otra", "otro", "otras", "otros", "other", "mais", "mas", "more"}


def _no_place(tokens: list[Token], start: int, lang: str) -> bool:
    """A place of business denied ("no tenemos oficina"), not one besides another named ("no tiene otra
    presencia en España" beside a building site: the site is the presence)."""
    before = {t.norm for t in tokens[max(0, start - 3):start]}
    # the negation just before ("no office, warehouse or agent") or earlier in the clause ("sin que la empresa
    # tenga oficina allí")
    negated = _negated(tokens, start, lang) or _negated(tokens, start, lang, start - _clause_start(tokens, start))
    return negated and not before & _OTHER


_CONTRACT_AFTER = 4     # tokens from a signing verb to the contracts it signs


_ASIDE_AFTER = 4     # tokens from a signing verb to an aside naming its authority ("firma ella misma, en nombre de")


_SHORT_ASIDE = 3     # words of an aside between commas that says how or who ("firma él mismo, con habitualidad,")


def _past_aside(tokens: list[Token], i: int, authority: list) -> int:
    """Position i, or past the asides just after it ("assinar, em nome da Moldes Pinhal, os contratos", "firma
    ella misma, en nombre de la empresa, los contratos", "firma él mismo, con habitualidad, los contratos"): an
    aside that names the authority the agent signs with, or a short one between commas; the contracts it signs
    come after them."""
    aside = [a.start for a in authority if i <= a.start <= i + _ASIDE_AFTER and not tokens[a.start - 1].is_word]
    if aside:
        return _words_end(tokens, aside[0]) + 1
    j = i
    for _ in range(2):
        k = _words_end(tokens, j)
        if k - j > _SHORT_ASIDE or k >= len(tokens) or tokens[k].orig != ",":
            break
        j = k + 1
    return j


def _words_end(tokens: list[Token], j: int) -> int:
    """The first position at or after j that is not a word: where the run of words from j ends."""
    while j < len(tokens) and tokens[j].is_word:
        j += 1
    return j


def _agent_concludes(hits: Hits, tokens: list[Token], lang: str) -> bool | None:
    """A signing verb, the contracts it signs and the authority it signs them with, in one sentence: an agent
    who concludes contracts for the enterprise (art. 5: a dependent agent is a PE). None when not said."""
    said = hits("pe_contracts")          # "signs contracts", read as one phrase
    for verb in (*hits("sign_verbs"), *said):
        if _negated(tokens, verb.start, lang):
            continue
        signs = verb in said or any(0 <= c.start - _past_aside(tokens, verb.end, hits("agent_authority"))
                                    <= _CONTRACT_AFTER for c in hits("contract_words"))
        start, end = _sentence_bounds(tokens, verb.start)
        # an authority denied ("não tem poderes para assinar contratos") is none
        if signs and any(start <= a.start < end and not _negated(tokens, a.start, lang)
                         for a in hits("agent_authority")):
            return True
    return None


_LINKS = {"em", "no", "na", "en", "in", "de", "do", "da", "del", "at", "of", "our", "its", "nossa", "nuestra"}


def _branch_holds(hits: Hits, tokens: list[Token], lang: str, pe_words: list[tuple[int, int]]) -> bool:
    """A branch as the subject of a holding or earning verb, with at most a place between ("the branch holds 40%",
    "la sucursal en Oporto posee el 25%", "the profits the Lisbon branch earns"), not "a company with a branch in
    Lisbon and holds…"."""
    verbs = {m.start for m in hits("holder_verbs") if not _negated(tokens, m.start, lang)}
    for _, end in pe_words:
        i = end
        while i < len(tokens) and i - end < 3 and (tokens[i].norm in _LINKS or tokens[i].orig[:1].isupper()):
            i += 1
        if i in verbs:
            return True
    return False


_THROUGH_WORDS = _ARTICLES | {"esa", "essa", "esse", "that", "this"}   # "through that branch", "a través de esa…"
_THROUGH_REACH = 3     # words between "through" and the branch it names ("through the Lisbon branch")


def _through_branch(hits: Hits, tokens: list[Token], lang: str, pe_words: list[tuple[int, int]]) -> bool:
    """Income earned through a branch named within a few words ("through the Lisbon branch", "através da nossa
    sucursal"), not denied ("not through any branch")."""
    for m in hits("through_pe"):
        if _negated(tokens, m.start, lang):
            continue
        for start, _ in pe_words:
            between = tokens[m.end:start]
            if 0 <= start - m.end <= _THROUGH_REACH and \
                    all(t.norm in _LINKS or t.norm in _THROUGH_WORDS or t.orig[:1].isupper() for t in between):
                return True
    return False


def _pe_facts(hits: Hits, tokens: list[Token], lang: str, roles: dict[str, tuple[str, ...]], parties: set[str],
              pe_words: list[tuple[int, int]]) -> tuple[bool | None, bool | None]:
    """(attributable to a PE in the source State, paid to a PE in a third State)."""
    pe_present = bool(pe_words) or bool(hits("attributable_pe"))
    third = None
    if roles.get("pe") or hits("third_state"):
        third_named = bool(hits("third_state")) and pe_present
        pe_outside = bool(parties) and any(c not in parties for c in roles.get("pe", ()))
        third = True if (third_named or pe_outside) else None
    attributable = _flag(hits, tokens, lang, "attributable_pe", "attributable_pe_false")
    if attributable is None and (_branch_holds(hits, tokens, lang, pe_words) or
                                 _through_branch(hits, tokens, lang, pe_words)):
        attributable = True
    if attributable is None:       # the way the business is done there: an agent with authority, or not a PE
        attributable = _flag(hits, tokens, lang, "pe_agent")
        if attributable is None:
            attributable = _agent_concludes(hits, tokens, lang)
        if attributable and any(not _negated(tokens, m.start, lang) for m in hits("pe_activity:independent_agent")):
            # an agent of independent status in the ordinary course of its business is no PE, even one that signs
            # in the enterprise's name (PT-BR 5(5)-(6): "uma pessoa — que não seja um agente independente")
            attributable = False
        # "no tenemos oficina en Brasil", "it has no office in Brazil": the longer fixed-base cues ("oficina en",
        # "no office") hold the place word too
        places = hits("pe_place") + hits("fixed_base")
        if not attributable and (hits("pe_no_pe_activity") or hits("fixed_base_false") or
                                 any(_no_place(tokens, m.start, lang) for m in places)):
            attributable = False
    if third and attributable:
        attributable = None
    return attributable, third


_NO_COMPANY_WINDOW = 6     # tokens before a company's country where a negation says it is not there


def _clause_start(tokens: list[Token], i: int, window: int = _NO_COMPANY_WINDOW) -> int:
    """The first of the `window` tokens before position i that are in i's clause (no punctuation between)."""
    j = i
    while j > 0 and i - j < window and tokens[j - 1].is_word:
        j -= 1
    return j


_CLIENT_PREPS = {"em", "en", "in", "at", "de", "do", "da", "del", "from", "no", "na"}


# A company the worker is sent to, not the one that employs him ("dentro da fábrica do fornecedor").
_SUPPLIERS = {"fornecedor", "fornecedores", "fornecedora", "supplier", "suppliers", "vendor", "vendors", "proveedor",
              "proveedores", "proveedora"}


def _client(m: Mention, g: Grammar) -> bool:
    """"num cliente japonês", "at a Japanese client", "num cliente em Campinas", "un proveedor de Joinville": a
    company the work is done for or at, not the employer."""
    if g.left(m.start - 1)[1] == "payer" or (m.start > 0 and g.tokens[m.start - 1].norm in _SUPPLIERS):
        return True
    before = m.start - 1
    return before > 0 and g.tokens[before].norm in _CLIENT_PREPS and \
        (g.left(before - 1)[1] == "payer" or g.tokens[before - 1].norm in _SUPPLIERS)


_BORNE_AFTER = 10     # tokens from a branch named to the words saying it bears (or not) the pay


def named_after(cues: list, mentions: list[Mention], tokens: list[Token], reach: int) -> list[str]:
    """For each cue, the State of the first place named within `reach` tokens after it, in its clause."""
    out = []
    for cue in cues:
        after = [m for m in mentions if 0 <= m.start - cue.end <= reach and same_clause(tokens, cue.end, m.start)]
        if after:
            out.append(min(after, key=lambda m: m.start).code)
    return out


def _paid_from_elsewhere(hits: Hits, mentions: list[Mention], tokens: list[Token], work_state: str) -> bool:
    """The pay is sent from a place named right after the words ("pagando desde Bilbao", "we pay them from
    Portugal") that is not in the work State."""
    return any(code != work_state for code in named_after(hits("paid_from"), mentions, tokens, 1))


_PAYROLL_REACH = 3    # tokens from a payroll to the place after it ("the payroll of our Brazilian subsidiary")


def _on_payroll(hits: Hits, mentions: list[Mention], tokens: list[Token]) -> list[str]:
    """The State of the place named right before or just after a payroll ("the Porto payroll", "na folha de
    pagamento de Curitiba"), in the clause; none when the pay is split over payrolls of both States."""
    out = []
    for cue in hits("payroll"):
        before = [m for m in mentions if 0 <= cue.start - m.end <= 1 and same_clause(tokens, m.start, cue.end - 1)]
        out += [before[0].code] if before else named_after([cue], mentions, tokens, _PAYROLL_REACH)
    return out if len(set(out)) == 1 else []


def _paid_by(hits: Hits, mentions: list[Mention], g: Grammar) -> list[str]:
    """The State of the payer named right after the words that say who pays ("their salaries are paid only by HQ in
    Japan", "o salário é pago pela empresa portuguesa"), not a client; none when the payers are of both States."""
    payers = [m for m in mentions if not _client(m, g)]
    out = named_after(hits("paid_by"), payers, g.tokens, _PAYROLL_REACH)
    return out if len(set(out)) == 1 else []


_PAY_CUES = frozenset({"payment", "paid_by", "borne", "funded_by", "wage_words", "paid_from_home", "not_recharged"})


def _employment(hits: Hits, tokens: list[Token], lang: str, topic_list: tuple[str, ...],
                mentions: list[Mention], g: Grammar, work_state: str | None,
                pe_words: list[tuple[int, int]], attributable: bool | None) -> tuple[bool | None, bool | None]:
    """(employer resident in the work State, pay borne by a PE there) for the 183-day test. Without a word
    naming the employer, a salary question's one company with a country is the employer ("un sueldo de una
    sociedad brasileña", "pago pela minha universidade em Lisboa")."""
    undecided = [_sentence_bounds(tokens, u.start) for u in hits("undecided")]
    if any(s <= p.start < e and p.value & _PAY_CUES for s, e in undecided for p in hits.all):
        return None, None        # who pays is still open: the rules answer each way
    # a company said not to be in a country is not there ("a empresa não tem filial nem escritório no Brasil")
    there = [m for m in mentions if not _negated(tokens, m.start, lang, m.start - _clause_start(tokens, m.start))]
    employer_states = unique(m.code for m in there if m.role == "employer" and not _client(m, g))
    companies: tuple[str, ...] = ()
    if not employer_states and is_employment(topic_list):
        # a client the employee works at ("num cliente japonês") is not the employer; a seat is a company's
        # ("his salary is paid by head office in Japan")
        companies = unique(m.code for m in there if (m.company or m.role == "seat") and not _client(m, g))
    employer_in_work: bool | None = None
    if hits("employer_local"):
        employer_in_work = True
    elif work_state and hits("paid_from_home"):
        employer_in_work = False                 # "continuo a receber o ordenado cá" while working abroad
    elif work_state and _paid_from_elsewhere(hits, mentions, tokens, work_state):
        # "las nóminas las seguimos pagando desde Bilbao", "her salary is paid by us here in Portugal" (whatever
        # company the ticket names there: "we sell through a Japanese importer")
        employer_in_work = False
    elif work_state and (payroll := _on_payroll(hits, mentions, tokens) or _paid_by(hits, mentions, g)):
        employer_in_work = payroll[0] == work_state
    elif employer_states and work_state:
        employer_in_work = employer_states[0] == work_state
    elif len(companies) == 1 and work_state:
        employer_in_work = companies[0] == work_state
    borne = None
    if "employment" in topic_list:
        for b in hits("borne"):
            # "suportado pela sucursal"; or after the branch, in its sentence ("tem uma sucursal em São Paulo mas
            # o meu custo nunca foi lá imputado")
            near = [start for start, end in pe_words
                    if 0 <= start - b.end <= 6 or
                    (0 <= b.start - end <= _BORNE_AFTER and _sentence_bounds(tokens, end)[1] > b.start)]
            if near:
                # "pago pela empresa portuguesa sem filial no BR": a branch denied bears nothing
                borne = not (_negated(tokens, b.start, lang) or any(_negated(tokens, s, lang) for s in near))
                break
        if borne is None and hits("not_recharged"):
            borne = False           # "a casa-mãe não nos debita o salário": the local branch bears nothing
        no_branch = any(_negated(tokens, start, lang) for start, _ in pe_words)
        if borne is None and (attributable is False or no_branch):
            borne = False           # "no Portuguese branch", "sem abrir filial lá": no PE to bear the pay
        if employer_in_work is None and work_state and no_branch and \
                not any(m.code == work_state and (m.company or m.role in ("pe", "employer")) and not _client(m, g)
                        for m in there):
            # "la empresa no tiene nada en Brasil, ni filial ni oficina": not there (unless a company of that
            # State is named that may employ him: "no tenemos sucursal en Brasil, solo la filial")
            employer_in_work = False
    return employer_in_work, borne


def _tiebreaker(roles: dict[str, tuple[str, ...]], facts: Facts, clauses: ResidenceFacts,
                company_named: bool) -> TiebreakerFacts | None:
    """The clause reading (residence.py) first; the roles of the words before each country fill the rest.
    Where decisions are taken counts only for a company named without personal cues ("una sociedad … todas
    las decisiones se toman en São Paulo")."""
    role_homes = tuple(c for c in roles.get("home", ()) if c not in clauses.let_homes)
    homes = clauses.homes if clauses.homes is not None else role_homes or None
    abodes = clauses.abodes or roles.get("abode", ()) or None
    nations = clauses.nationality or roles.get("nationality", ()) or None
    vital = clauses.vital or (roles.get("vital", ()) or (None,))[0]
    # a seat named ("com sede em BH") is where the company is managed only when nothing says where its
    # decisions are taken
    asked = "company_asked" in clauses.cues      # "…treat the company as resident, which one wins?"
    management = roles.get("management", ()) or \
        (clauses.management if company_named and (asked or not clauses.personal) else ()) or roles.get("seat", ())
    if homes is None and not (abodes or nations or vital or management):
        return None
    # a crew member's employer is managed somewhere; the person asking is still an individual
    # a company's seat beside a person's home and family ("trabalhei para uma empresa com sede em São Paulo
    # … a casa de família em Matosinhos") is the employer's, not the asker's
    company = (bool(management) and facts.employment_kind != "ship_aircraft"
               and (asked or not (clauses.personal and homes))) or \
        (facts.beneficiary_kind == "company" and not clauses.personal)
    return TiebreakerFacts(
        person="company" if company else "individual",
        permanent_home_in=homes,
        vital_interests_in=vital,
        habitual_abode_in=abodes,
        nationality=nations,
        effective_management_in=management[0] if management else None,
    )
