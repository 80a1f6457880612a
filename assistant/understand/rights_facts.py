"""The facts the taxing-rights rules ask about that a question states through its countries rather than
through cue words: who pays (a State, a resident company), the person's nationality, where the work is
done, where a student's money comes from, the State a visiting teacher is invited to, the length of stay.

Each is read only from what the question says about the treaty's two States; nothing stated, nothing set
(the rules then show every case still possible and name the missing fact)."""
from __future__ import annotations

import dataclasses

from assistant.lexicon.quantities import amount_per_year, in_months, usd_per_year
from assistant.lexicon.text import Match, Token
from assistant.understand.facts import Hits, named_after
from assistant.understand.places import Mention
from assistant.understand.places import denied as cue_denied
from assistant.understand.residence import same_clause
from rules.facts import Facts

_GOVERNMENT_TOPICS = {"government_service", "pensions"}
_CLIENTS_REACH = 4       # tokens from "none of my clients" to the State it names ("… are in Brazil")
VISIT_MONTHS = 1       # a holiday shorter than this beside remote work is a visit, no work done there


def _stay_years(days: float | None) -> float | None:
    return None if days is None else round(days / 365, 2)


def _payers(mentions: list[Mention], parties: set[str], roles: tuple[str | None, ...] = ("source", None)) -> list[str]:
    """States of the companies/institutions the question says pay ("uma empresa brasileira paga"); `roles`: the
    roles such a company may have in the question (a host or a client is also named as employer)."""
    return [m.code for m in mentions if m.company and m.role in roles and m.code in parties]


# "a convite da UFPE", "invited by the University of Osaka": the inviter is named within this many tokens after
# the invitation word.
INVITER_WINDOW = 4


def inviting_state(topics: tuple[str, ...], mentions: list[Mention], parties: set[str], hits: Hits) -> str | None:
    """A visiting teacher's host: the one State named right after the invitation ("o prof. X, da Universidade
    de Granada, vem a convite da UFPE"), else the State of the university or institution that pays."""
    if "professors" not in topics:
        return None
    inviters = {m.code for cue in hits("invited") for m in mentions
                if m.code in parties and 0 <= m.start - cue.end <= INVITER_WINDOW}
    if len(inviters) == 1:
        return inviters.pop()
    hosts = _payers(mentions, parties, ("source", None, "employer", "work"))
    return hosts[0] if len(set(hosts)) == 1 else None


FUNDER_WINDOW = 6     # tokens from "funded by" to the State of the body that funds


def _funders(hits: Hits, mentions: list[Mention], tokens: list[Token]) -> list[str]:
    """The States named just after "funded by", "financiada por", "bolsa paga pela" ("funded by my university in
    Brazil"), in its clause: who pays a grant, whatever role the grammar gave the place."""
    return named_after(hits("funded_by"), mentions, tokens, FUNDER_WINDOW)


def _student_origin(visited: str | None, roles: dict[str, tuple[str, ...]], payers: list[str],
                    parties: set[str]) -> str | None:
    """Money from a State other than the one the student studies in comes "from abroad" (art. 21: "desde
    que provenham de fontes situadas fora dele")."""
    if visited not in parties:
        return None
    origins = [c for c in payers or roles.get("source", ()) if c in parties]
    if not origins:
        return None
    return "local" if all(c == visited for c in origins) else "abroad" if visited not in origins else None


ERRAND_REACH = 6      # tokens between "a prova de vida" and the consulate it is done at


def works_at_mission(hits: Hits, tokens: list[Token]) -> bool:
    """An embassy or consulate named as a place of work, not only as where paperwork is done ("a prova de vida
    anual faz no consulado no Porto", "lo del visado ya lo estoy mirando con el consulado", "the consulate is
    handling my visa")."""
    errands = hits("consular_errands")

    def errand_at(post: Match[frozenset[str]]) -> bool:
        return any((0 <= post.start - e.end <= ERRAND_REACH and same_clause(tokens, e.end, post.start)) or
                   (0 <= e.start - post.end <= ERRAND_REACH and same_clause(tokens, post.end, e.start))
                   for e in errands)
    return any(not errand_at(m) for m in hits("diplomatic_post"))


_I_AM = {"sou", "soy", "am", "m", "im", "somos", "estou"}     # "I'm" is "i", "m"
SELF_REACH = 8        # tokens from "sou advogada" to "(pessoa física)" that describes the writer


def _says_who_i_am(tokens: list[Token], start: int) -> bool:
    """A cue in the writer's description of themself ("Sou advogada autônoma em Curitiba (pessoa física, …)")."""
    for i in range(start - 1, max(-1, start - 1 - SELF_REACH), -1):
        if tokens[i].norm in ".;?!":
            return False
        if tokens[i].norm in _I_AM:
            return True
    return False


PREMISES_REACH = 3    # tokens from "restaurant" to the place it is in ("the restaurant in Osaka")


def _trades_in(state: str, hits: Hits, mentions: list[Mention]) -> bool:
    """A business's premises are named in `state` ("o restaurante em Osaka", "a shop in Lisbon")."""
    return any(m.code == state and 0 <= m.start - p.end <= PREMISES_REACH
               for p in hits("premises") for m in mentions)


TOWN_REACH = 4        # tokens from "pago pela câmara municipal" to the town it names ("de Lisboa")


def read_rights_facts(facts: Facts, topics: tuple[str, ...], mentions: list[Mention],
                      roles: dict[str, tuple[str, ...]], parties: set[str], residence: str | None,
                      source: str | None, folded: str, hits: Hits, tokens: list[Token], visited: str | None = None,
                      stay_home: bool = False) -> Facts:
    """Facts completed from the countries' roles; a fact the cue words already set is kept. The stay and the
    nationality come from the facts' groups: the nationality as the clauses state it ("dupla nacionalidade",
    "dual citizen" gives both parties), the stays dated or not ("del 1 de febrero al 31 de agosto").
    `visited`: the State a student or visiting teacher is in; `stay_home`: the stated stay is spent in the
    residence State."""
    stay = facts.employment
    stay_days, stay_months = stay.stay_days, stay.stay_months
    nationality = facts.residence.nationality or () if facts.residence is not None else ()
    found: dict[str, object] = {}
    if facts.stay_years is None and {"professors", "students"} & set(topics):   # where the rules read it
        # dated ("de 1 de fevereiro a 30 de novembro") or a length ("um semestre")
        found["stay_years"] = _stay_years(stay.total_days)
    # a nationality stated is the whole of it: a third country's ("Brazilian citizen" beside the Japanese
    # consulate in Porto) makes the person a national of neither State; one denied ("sin nacionalidad
    # española") is not theirs
    stated = (*nationality, *roles.get("nationality", ()))
    nations = [c for c in stated if c in parties]
    denied = set(roles.get("not_nationality", ())) - set(nations)
    if (stated or denied) and _GOVERNMENT_TOPICS & set(topics):
        for name, state in (("national_of_paying_state", source), ("national_of_residence_state", residence)):
            if state in parties and getattr(facts, name) is None and (stated or state in denied):
                found[name] = state in nations
    work_state = next((c for c in (*roles.get("work", ()), *roles.get("base", ())) if c in parties),
                      None)                                                          # named, not assumed
    if "government_service" in topics and facts.services_in_residence_state is None and \
            works_at_mission(hits, tokens) and source in parties and residence in parties and source != residence:
        # "chófer en la Embajada de Brasil", living in Madrid: a State's embassy or consulate is in the other
        # State, so the services are rendered where the person lives, whatever country the words name
        found["services_in_residence_state"] = True
    elif "government_service" in topics and facts.services_in_residence_state is None and \
            hits("remote_work"):
        # "teletrabajo para el Gobierno brasileño" from Madrid: the services are rendered where the person
        # lives, and the work followed the residence, not the residence the work (BR-ES 19(1)(b))
        found["services_in_residence_state"] = True
        if facts.resident_not_solely_for_services is None:
            found["resident_not_solely_for_services"] = True
    elif "government_service" in topics and work_state in parties and residence in parties and \
            facts.services_in_residence_state is None:
        found["services_in_residence_state"] = work_state == residence
    if "government_service" in topics and facts.resident_not_solely_for_services is None and \
            hits("resident_before_service"):
        found["resident_not_solely_for_services"] = True      # "vine por mi cuenta", "ya vivía aquí"
    # a stay stated beside "fully remote", "never set foot there" is a past one ("after six years in Japan")
    no_stay = (stay_days is None and stay_months is None) or bool(hits("never_there")) or stay_home
    # "100% em teletrabalho … só devo ir ao Brasil no Natal, uma semana": a short holiday beside remote work is no
    # work done there (unlike "viene una semana a nuestras oficinas para reuniones")
    visit = bool(hits("remote_work")) and bool(hits("holiday_visit")) and \
        (in_months(stay_months, stay_days) or 0) < VISIT_MONTHS
    if topics[:1] == ("employment",) and facts.services_in_residence_state is None and residence in parties and \
            "services_in_residence_state" not in found and (no_stay and (stay_home or not stay.stays) or visit):
        # no stay elsewhere stated: a salary for work done where one lives ("trabalho a partir de casa, em
        # Braga, para uma empresa brasileira") is taxed only there (art. 15(1)), whatever State the employer's
        # city names ("trabalha remotamente para uma empresa de São Paulo"); else work named in the other State
        # is done there
        employers = [c for c in roles.get("employer", ()) if c in parties]
        if hits("work_at_home") or hits("remote_work"):
            found["services_in_residence_state"] = True
        elif work_state in parties:
            found["services_in_residence_state"] = work_state == residence
        elif employers[:1] == [residence] or residence in roles.get("pe", ()):
            # "diretor financeiro de uma filial portuguesa … vivo em Lisboa": the employer named first (or its
            # branch) where one lives and no stay elsewhere: the work is done there, even when a parent elsewhere
            # pays part ("trabalha numa empresa portuguesa em Lisboa, mas a empresa-mãe em São Paulo paga-lhe
            # parte do salário")
            found["services_in_residence_state"] = True
    payers = _payers(mentions, parties)
    if "independent_services" in topics and facts.fee_borne_by_company_or_pe is None and \
            any(not cue_denied(tokens, m.start) and not _says_who_i_am(tokens, m.start)
                for m in hits("payer_individual")):
        # "um casal espanhol (pessoas físicas)": no company pays; not "sendo uma sociedade e não um advogado pessoa
        # física", which says who is paid, nor "sou advogada autônoma (pessoa física)", the writer
        found["fee_borne_by_company_or_pe"] = False
    # a self-employed person's "employer" is the client who pays the fees ("contrato com uma empresa do Porto")
    clients = _payers(mentions, parties, ("source", None, "employer"))
    if "independent_services" in topics and source in clients:
        if facts.paid_by_source_resident is None:
            found["paid_by_source_resident"] = True
        if facts.fee_borne_by_company_or_pe is None and "fee_borne_by_company_or_pe" not in found:
            # a company pays: BR-ES 14(1) "a uma sociedade residente"
            found["fee_borne_by_company_or_pe"] = True
    if "independent_services" in topics and source in parties and \
            any(m.code == source and 0 <= m.start - c.end <= _CLIENTS_REACH for c in hits("no_clients")
                for m in mentions):
        found["paid_by_source_resident"] = False       # "none of my clients are Brazilian"
    named_clients = {m.code for m in mentions if m.company and m.role == "source"}
    if "independent_services" in topics and facts.paid_by_source_resident is None and named_clients and \
            source in parties and source not in named_clients:
        # every client named is elsewhere ("todos os meus clientes são empresas portuguesas", a stay in Brazil)
        found["paid_by_source_resident"] = False
    elif "independent_services" in topics and facts.paid_by_source_resident is None and not named_clients and \
            any(0 <= f.start - c.end <= _CLIENTS_REACH for c in hits("clients") for f in hits("foreign")):
        # a client from abroad and no country named for it ("uma agência de tradução de fora", "clientes do
        # exterior"): the payer is of the other State
        found["paid_by_source_resident"] = True
    if "business_profits" in topics and facts.attributable_to_pe is None and facts.fixed_base_in_source is None and \
            residence in parties and source in parties and residence != source and \
            _trades_in(residence, hits, mentions) and not _trades_in(source, hits, mentions):
        # the business's one place is where its owner lives ("our own Portuguese restaurant in Osaka"): no fixed place
        # of business in the other State, whose tax on the profits a PE there would need
        found["attributable_to_pe"] = False
    if {"independent_services", "business_profits"} & set(topics) and facts.attributable_to_pe is None and \
            facts.fixed_base_in_source is not None:
        # an office or studio there is the fixed place the profits of the services are attributed to
        found["attributable_to_pe"] = facts.fixed_base_in_source
    if "pensions" in topics and facts.pension_kind is None and source in payers:
        found["pension_kind"] = "private"          # paid by a company (a former employer): art. 18(1)
    if "students" in topics and facts.student_payment_origin is None:
        found["student_payment_origin"] = _student_origin(visited, roles, _funders(hits, mentions, tokens) or payers,
                                                          parties)
        if facts.student_practical_training and hits("unpaid_there"):
            # "estágio num hospital em São Paulo, sem salário lá, só com a bolsa": not paid where the training is
            found["student_payment_origin"] = "abroad"
        elif found["student_payment_origin"] is None and (facts.student_practical_training or (
                facts.student_practical_training is False and hits("wage_words"))):
            # a trainee's pay comes from the job where the training is; so does a side job's wage ("trabalho num
            # bar, nada a ver com o curso: esse salário")
            found["student_payment_origin"] = "local"
    if facts.gain_kind in ("shares", "immovable") and hits("gain_kind:shares") and \
            ((hits("value_from") and hits("gain_kind:immovable")) or hits("gain_kind:shares_immovable")):
        # "ações de uma sociedade cujo valor vem de imóveis"; "30% of the shares of a company whose assets are
        # almost entirely three office buildings": the company named after the shares is a property company
        found["gain_kind"] = "shares_immovable"
    if "artistes_sportsmen" in topics and facts.public_funds_visit is None and hits("public_budget_local"):
        towns = named_after(hits("public_budget_local"), mentions, tokens, TOWN_REACH)
        found["public_funds_visit"] = bool(towns) and towns[0] == residence
    months = in_months(stay_months, stay_days)
    # the treaties' limits are US$ per calendar year; a stay of a year or less is paid within one
    yearly = usd_per_year(folded, within_a_year=months is not None and months <= 12)
    if "pensions" in topics and facts.pension_annual_usd is None:
        found["pension_annual_usd"] = yearly
        found["pension_annual_amount"] = None if yearly is not None else amount_per_year(folded)
    if "students" in topics and facts.student_annual_usd is None:
        found["student_annual_usd"] = yearly
        # a stay of a year or less is paid for its months: "6 meses … 800 € por mês" is 4,800 € in any year
        found["student_annual_amount"] = None if yearly is not None else \
            amount_per_year(folded, months if months is not None and months <= 12 else None)
    found = {k: v for k, v in found.items() if v is not None}
    return dataclasses.replace(facts, **found) if found else facts
