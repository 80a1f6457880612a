"""Art. 4 tie-breaker facts read clause by clause: where the person has a home, family (vital interests),
habitual abode and nationality.

People state these facts in clauses ("tenho casa em Lisboa e em Tóquio", "a família está em Portugal",
"casa nos dois", "não dá para determinar o centro de interesses"), not as one word before a country, so
a clause with a cue gives that fact for the countries named in it; "both"/"ambos" gives both States of
the treaty; a clause with a cue and no country ("…, onde mora a família") speaks of the
country named just before it in the sentence (or, if none, of the next clause that names only a country:
"a minha vida (mulher, filhos) continua lá").
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from assistant.lexicon import countries, cues
from assistant.lexicon.quantities import durations
from assistant.lexicon.text import Match, Token, fold, token_at
from assistant.understand.places import Mention, denied, unique


@dataclass
class ResidenceFacts:
    """What the clauses state; None = not stated, () = "in neither State"."""
    homes: tuple[str, ...] | None = None
    vital: str | None = None                 # a State code, or "undetermined"
    abodes: tuple[str, ...] | None = None
    nationality: tuple[str, ...] | None = None
    management: tuple[str, ...] = ()         # where decisions are taken (meaningful only for a company)
    let_homes: tuple[str, ...] = ()          # homes let to others (a source of rent), sold or denied: no home
    personal: bool = False                   # a home, family, abode or nationality cue: an individual
    cues: set[str] = field(default_factory=set)


def _sentence_starts(tokens: list[Token], folded: str) -> set[int]:
    """Token positions that start a sentence (after . ! ? ; or a line break)."""
    return {i for i in range(1, len(tokens)) if tokens[i - 1].norm in (".", "!", "?", ";")
            or "\n" in folded[tokens[i - 1].end:tokens[i].start]}


def _clauses(tokens: list[Token]) -> list[tuple[int, int]]:
    """Token spans between punctuation marks (commas, brackets, sentence ends)."""
    spans, start = [], 0
    for i, t in enumerate(tokens):
        if not t.is_word:
            if i > start:
                spans.append((start, i))
            start = i + 1
    if start < len(tokens):
        spans.append((start, len(tokens)))
    return spans


_OTHER_ROLES = {"source", "employer", "work", "pe", "property", "government", "borrower"}
_TAKES_COUNTRIES = ("home", "let_home", "family", "vital", "abode", "nationality", "management")


def _distance(cue_start: int, cue_end: int, at: int) -> tuple[int, int]:
    """Tokens between a cue and a country; on a tie the cue before the country wins."""
    return (at - cue_end + 1, 0) if at >= cue_end else (cue_start - at, 1)


_LIVES = ("lives", "lived")                   # a lives word, now or in the past
_SHARED_PLACE = ("home", "family", "vital")   # a home or family named just before a clause with its own cue
_NEAR = 3      # tokens between a home word and the words that say it is let (or lived in)
# the words between "both" and the people it counts ("both of its directors", "ambos os seus filhos")
_OF_THEM = {"of", "its", "the", "our", "their", "his", "her", "my", "os", "as", "seus", "suas", "nossos", "nossas",
            "meus", "minhas", "de", "dos", "das", "los", "las", "sus", "nuestros", "nuestras", "mis"}


def _of_them(tokens: list[Token], end: int, start: int) -> bool:
    """Only words like "of its" between "both" (ending at `end`) and the cue at `start`."""
    return 0 <= start - end <= 3 and all(t.norm in _OF_THEM for t in tokens[end:start])


_IN_DAYS = {"days": 1.0, "weeks": 7.0, "months": 30.5, "years": 365.0}
_HALF_YEAR_DAYS = 183
_EACH_MIN_DAYS = 60     # "I spend about 5 months in each country": an abode in both (not "a week in each")


_SOLD_AFTER = 8  # "a casa que tinha em Porto Alegre foi vendida": the sale may come a few words after the home


def _beside(home: Match[str], cue: Match[str], tokens: list[Token]) -> bool:
    """A cue within _NEAR tokens of a home word, before or after it, in the same clause."""
    return (0 <= home.start - cue.end < _NEAR and same_clause(tokens, cue.end, home.start)) or \
        (0 <= cue.start - home.end < _NEAR and same_clause(tokens, home.end, cue.start))


def _let_homes(found: list, tokens: list[Token], mentions: list[Mention]) -> set[int]:
    """Start positions of home cues that name no home of the person: let to others, sold, or denied ("não
    tenho outra habitação em Portugal"). A home the person lives in as a tenant is a home ("vivo lá com a
    família num apartamento arrendado": no other place named between)."""
    let = [m for m in found if m.value == "let_out"]
    sold = [m for m in found if m.value == "sold"]
    former = [m for m in found if m.value == "former"]
    lives = [m for m in found if m.value in _LIVES]
    rents = [m for m in found if m.value == "tenancy"]
    negation = cues().negation
    here = {fold(w) for w in cues().deixis_here}
    homes = [m for m in found if m.value == "home"]
    # "vendeu o apartamento": a sale followed by its own home word sold that one, not a home named before it
    sold_own = {m.start for m in sold if any(0 <= o.start - m.end < _NEAR for o in homes)}
    out = set()
    for h in homes:
        # "entreguei o apartamento que alugava em Curitiba", "sold the flat": given up, even the one lived in
        if any(0 <= h.start - m.end < _NEAR for m in sold):
            out.add(h.start)
            continue
        if any(_beside(h, m, tokens) for m in rents):
            continue                # "I rent a flat", "un piso que hemos alquilado": the tenant's home
        near_let = any(_beside(h, m, tokens) for m in let)
        if near_let and any(tokens[i].norm in here and same_clause(tokens, h.end, i)
                            for i in range(h.end, min(h.end + _NEAR + 1, len(tokens)))):
            continue                # "tenemos piso alquilado aquí", "temos apto alugado cá": rented where they live
        near_sold = any((0 <= m.start - h.end < _SOLD_AFTER and _same_sentence(tokens, h.end, m.start)
                         and m.start not in sold_own) or 0 <= h.start - m.end < _NEAR for m in sold)
        denied = any(t.norm in negation for t in tokens[max(0, h.start - _NEAR):h.start]) or \
            any(0 <= m.start - h.end < _NEAR for m in former)          # "a casa que tinha na Bahia"
        # a home denied stays denied where the person lived before ("he vivido 20 años en España … no me queda
        # ninguna vivienda en España"): only living there now makes it theirs
        living = [m for m in lives if m.value == "lives"] if denied else lives
        if (near_let or near_sold or denied) and not _lived_in_home(h, living, tokens, mentions):
            out.add(h.start)
    return out


def _lives_before(home: Match[str], lives: list[Match[str]], tokens: list[Token], mentions: list[Mention]) -> bool:
    """A lives word before the home word in its clause, no place between ("vivo lá com a família num apartamento
    arrendado", "viven en un piso en Huesca alquilado")."""
    return any(m.end <= home.start and same_clause(tokens, m.end, home.start)
               and not any(m.end <= c.start < home.start for c in mentions) for m in lives)


def _lived_in_home(home: Match[str], lives: list[Match[str]], tokens: list[Token], mentions: list[Mention]) -> bool:
    """Lived in: a lives word before the home word in its clause, or in the country the home is in."""
    return _lives_before(home, lives, tokens, mentions) or _lived_in_country(home, lives, tokens, mentions)


def _lived_in_country(home: Match[str], lives: list[Match[str]], tokens: list[Token], mentions: list[Mention]) -> bool:
    """"Moro em Lisboa com a família, temos casa alugada aqui": a rented home in the country the sentence says
    the person lives in is theirs; one in another country ("moro em Lisboa e tenho um apartamento alugado no
    Porto" is the same country, "… alugado em Recife" is not) is let."""
    after = [c for c in mentions if c.start >= home.end and same_clause(tokens, home.end, c.start)]
    for m in (m for m in lives if m.end <= home.start):
        same = _same_sentence(tokens, m.end, home.start)
        # the lived-in place: up to the home in its sentence; in an earlier sentence, the clause it names
        lived = {c.code for c in mentions if m.end <= c.start < home.start
                 and (same or same_clause(tokens, m.end, c.start))}
        if len(lived) == 1 and ((same and not after) or (after and after[0].code in lived)):
            return True   # "Moro em Cascais com a família. Tenho casa alugada em Cascais": the family's home
    return False


_VISIT_WORDS = {"visit", "visits", "visiting", "visited", "see", "visitar", "visito", "visitamos", "visitando",
                "visita", "visitas", "ver", "vejo", "vemos", "veo"}
_VISIT_BEFORE = 3     # tokens from a visiting verb to the family it visits ("visitar a minha família")


def _visited(tokens: list[Token], start: int) -> bool:
    """Family one goes to see ("we only use it when we visit family") is not where one's family lives."""
    return any(t.norm in _VISIT_WORDS for t in tokens[max(0, start - _VISIT_BEFORE):start])


def _demonym(tokens: list[Token], m: Mention) -> bool:
    """A nationality adjective ("brasileiro", "Japanese"): it says whose the person is, not where a home is."""
    return m.end - m.start == 1 and tokens[m.start].norm in countries().demonyms


def _same_sentence(tokens: list[Token], start: int, end: int) -> bool:
    return all(t.norm not in ".;?!" for t in tokens[start:end])


def same_clause(tokens: list[Token], start: int, end: int) -> bool:
    """No punctuation between the two token positions ("vivo com a família num apartamento arrendado")."""
    return all(t.is_word for t in tokens[start:end])


def pointed(tokens: list[Token], named: list[Mention]) -> list[Mention]:
    """"aqui", "lá", "here", "there": a mention of the country last named before the word, not as a company's
    ("the same Tokyo company … from my flat here": here is where the writer is) nor as a currency, an
    institution or a tax ("paga em reais … estou cá", "(CLT). Já passei 200 dias aqui": no place), nor a
    nationality adjective; "aqui"/"here" not a place the writer has left (`_left_places`: "voltei … aqui")."""
    words, not_beside = cues().deixis, cues().deixis_not_beside
    not_places = countries().not_places
    named = [m for m in named if " ".join(t.norm for t in tokens[m.start:m.end]) not in not_places]
    left = _left_places(tokens, named)
    writer_places: list[Mention] | None = None      # read once, when a "cá" first needs them
    out = []
    for i, tok in enumerate(tokens):
        if tok.orig.lower() not in words:
            continue
        beside = {tokens[j].norm for j in (i - 1, i + 1) if 0 <= j < len(tokens)}
        if tok.norm == "there" and beside & not_beside:
            continue
        # "aqui em Lisboa", "here in Osaka", "aquí en Vigo": the place named right after is the one meant
        after = next((m for m in named if m.start in (i + 1, i + 2) and not m.company and
                      (m.start == i + 1 or tokens[i + 1].norm in _PLACE_PREPS)), None)
        # a nationality adjective is no place ("futbolista brasileño … los niños van al cole aquí")
        before = [m for m in named if m.end <= i and not m.company and not _demonym(tokens, m)
                  # "vivi em Curitiba e voltei com os miúdos, que andam na escola aqui": not the place left
                  and not (m.start in left and tok.orig.lower() in cues().deixis_here)]
        if after is None and before and tok.orig.lower() in cues().deixis_here and \
                not _same_sentence(tokens, before[-1].end, i):
            if writer_places is None:
                writer_places = _writer_places(tokens, named, left)
            home = [m for m in writer_places if m.end <= i]
            before = home[-1:] or before
        if after is not None or before:
            out.append(Mention(i, i + 1, (after or before[-1]).code))
    return out


_LIVES_AT = 2      # tokens from a lives word to the place it names ("vivo em Yokohama")


def _writer_places(tokens: list[Token], named: list[Mention], left: set[int]) -> list[Mention]:
    """Where the writer says they live ("vivo em Yokohama") or moved to ("me volví a Sevilla"): what "cá" in a later
    sentence points to, whatever place another sentence named since ("despedi-me do meu emprego em Portugal. A nossa
    filha nasceu cá", "me pagan en mi cuenta de Brasil. Tenemos piso alquilado aquí")."""
    lives = [m.end for m in cues().tiebreaker.find(tokens) if m.value == "lives"] + \
        [m.end for m in cues().grammar.find(tokens) if m.value == "role:move"]
    return [m for m in named if not m.company and m.start not in left and
            any(0 <= m.start - e <= _LIVES_AT and same_clause(tokens, e, m.start) for e in lives)]
_PLACE_PREPS = {"em", "en", "in", "no", "na", "at"}


def lives_here(tokens: list[Token], mentions: list[Mention]) -> tuple[str, ...]:
    """"brasileira, carioca, sempre morei aqui", "vivo aquí desde 2010", "I live here": the country named last
    before "here" is where the person lives (a lives verb just before the word)."""
    lives = {m.end for m in cues().tiebreaker.find(tokens) if m.value in _LIVES}
    here = [p for p in pointed(tokens, mentions) if p.start in lives or p.start - 1 in lives]
    return unique(p.code for p in here)


def _long_stays(tokens: list[Token], folded: str, lang: str, found: list, countries: list[Mention],
                parties: tuple[str, ...]) -> list[str]:
    """Countries where a clause says the person spent more than half a year ("passei uns 250 dias em
    Portugal", "pasé ocho meses allí"): the country right after the stay, or between the verb and the stay;
    both States when the same stay, of two months or more, is in each ("paso 6 meses en cada país", "about 5
    months in each country")."""
    spent = [m.start for m in found if m.value == "spent"]
    each = [m.start for m in found if m.value == "both"]
    out = []
    compared: dict[str, float] = {}          # days per State, when a clause sets two stays side by side
    found_durations = durations(folded, lang)
    for q, before in zip(found_durations, [None, *found_durations]):
        if before is not None and not folded[before.end:q.start].strip():
            continue                         # "8 months a year": the period of the stay before, no stay
        days = q.value * _IN_DAYS.get(q.unit, 0)
        at, end = token_at(tokens, q.start), token_at(tokens, q.end)
        if days < _EACH_MIN_DAYS or not any(0 <= at - s <= _NEAR + 2 for s in spent):
            continue
        verb = max(s for s in spent if s <= at)
        after = [c for c in countries if 0 <= c.start - end <= _NEAR]
        place = after or [c for c in countries if verb < c.start < at]    # or between the verb and the stay
        other = _other_stay(folded, q.end, q.unit, days, tokens, countries)
        if len(parties) == 2 and any(0 <= b - end <= 1 for b in each):
            out += parties            # the same stay in each State, however long: neither stays more
        elif place and other is not None and other[0] != place[0].code:
            compared[place[0].code] = days
            compared[other[0]] = other[1]
        elif place and days >= _HALF_YEAR_DAYS:
            out.append(place[0].code)
    if len(compared) == 2:
        longest = max(compared.values())          # "5 meses em Porto Alegre e 7 em Lisboa": the longer stay
        out += [c for c, d in compared.items() if d == longest]
    return out


# the second of two stays said side by side, its unit left out or its length said to be the same ("5 meses em
# Porto Alegre e 7 em Lisboa", "150 dias em Portugal e outros tantos no Brasil", "8 months in Porto and 4 in Osaka")
_OTHER_STAY = re.compile(r"[^.;?!\d]{0,40}?\b(?:e|y|and)\s+(?:(?P<num>\d{1,3})|(?P<same>outros\s+tantos|otros\s+tantos|"
                         r"as\s+many|o\s+mesmo|lo\s+mismo|the\s+same))\b(?:\s+(?:dias|days|meses|months|semanas|weeks))?")


def _other_stay(folded: str, end: int, unit: str, days: float, tokens: list[Token],
                countries: list[Mention]) -> tuple[str, float] | None:
    """The State and days of a second stay said right after a first one, in the same unit."""
    m = _OTHER_STAY.match(folded, end)
    if m is None:
        return None
    after = token_at(tokens, m.end())
    place = [c for c in countries if 0 <= c.start - after <= _NEAR - 1]
    if not place:
        return None
    return place[0].code, days if m.group("same") else float(m.group("num")) * _IN_DAYS.get(unit, 0)


_COORDINATING = {"e", "y", "and", "em", "en", "in", "no", "na", "a", "o", "the", "el", "la"}


def _coordinated(tokens: list[Token], first: Mention, second: Mention) -> bool:
    """Two places joined by "and" and at most a preposition or article ("em Lisboa e em Tóquio", "in Porto and
    in Osaka", "en Vigo y Natal"): whatever the first is said of, so is the second."""
    between = [t.norm for t in tokens[first.end:second.start]]
    return bool(between) and between[0] in ("e", "y", "and") and len(between) <= 3 and \
        all(w in _COORDINATING for w in between) and tokens[second.start].orig[:1].isupper()   # not "e aqui"


def _lives_in(found: list, tokens: list[Token], named: list[Mention]) -> tuple[str, ...]:
    """Countries the person says they live in now, named within a few words of the verb ("vivo em Lisboa com a
    família", "I live here"): they have a home there, unless the clause says it is a room or a hotel ("moro em
    Lisboa num quarto alugado"). Past forms ("vivi em Lisboa até 2020") are another cue."""
    rooms = [m.start for m in found if m.value == "lodging"]
    out = []
    for verb in (m for m in found if m.value == "lives"):
        place = [c for c in named if 0 <= c.start - verb.end <= _NEAR and same_clause(tokens, verb.end, c.start)
                 and not c.company]
        if place and not any(same_clause(tokens, min(r, verb.end), max(r, verb.end)) for r in rooms):
            out.append(place[0].code)
    return unique(out)


def _stay_between(fact: Match[str], country: Mention, stay_verbs: list[int]) -> bool:
    """"I live … in our own house and spend 3 weeks a year in Porto": a stay verb between a fact cue and the
    country after it makes the country the stay's, not the home's ("ficamos em Lisboa na casa": the home after
    the verb is still there)."""
    return any(fact.start < v < country.start for v in stay_verbs)


def _left_places(tokens: list[Token], named: list[Mention]) -> set[int]:
    """Places the person has left: lived in and moved from since ("vivi 12 anos em Curitiba e em 2023 voltei
    com a minha mulher": a past lives word just before, a move word after in the sentence), or where the home was
    given up ("ya no tengo casa en España, entregué el piso de alquiler de Lavapiés"). Family and "aqui" said
    after are not there."""
    found = cues().tiebreaker.find(tokens)
    lived = [m.end for m in found if m.value == "lived"]
    given_up = [m.end for m in found if m.value in ("sold", "no_home")]
    moves = [m.start for m in cues().grammar.find(tokens) if m.value == "role:move"]
    return {m.start for m in named
            if (any(0 <= m.start - e <= _NEAR + 2 and same_clause(tokens, e, m.start) for e in lived)
                and any(v >= m.end and _same_sentence(tokens, m.end, v) for v in moves))
            or any(0 <= m.start - e <= _NEAR + 3 and same_clause(tokens, e, m.start) for e in given_up)}


def _own_place(cue: Match[str], located: set[int], named: list[Mention]) -> bool:
    """The cue is followed by "in <a place>" and that place is no country of the treaty ("a house in Ilhéus")."""
    return cue.end in located and not any(m.start == cue.end + 1 for m in named)


def _region_after(cue: Match[str], end: int, clauses: list[tuple[int, int]], k: int, named: list[Mention],
                  sentences: set[int]) -> list[str]:
    """"a house in Ilhéus, Bahia": the place closes its clause within a few words and the next clause, in the
    same sentence, opens with a country (a region or State of it)."""
    if end - cue.end > _NEAR or k + 1 >= len(clauses):
        return []
    start = clauses[k + 1][0]
    if any(end <= i <= start for i in sentences):
        return []
    return [m.code for m in named if m.start == start][:1]


def _place_after(clauses: list[tuple[int, int]], k: int, named: list[Mention], found: list,
                 located: set[int], sentences: set[int]) -> str | None:
    """The country of the next clause when it only says where ("…são tomadas por mim, em São Paulo"): it opens
    with a preposition of place before the country, has no cue of its own and is in the same sentence."""
    if k + 1 >= len(clauses):
        return None
    end, (start, stop) = clauses[k][1], clauses[k + 1]
    if start not in located or any(end <= i <= start for i in sentences) or \
            any(start <= m.start < stop and m.value in _TAKES_COUNTRIES for m in found):
        return None
    there = [m for m in named if start <= m.start < stop]
    if there and there[0].start <= start + 2 and len({m.code for m in there}) == 1:
        return there[0].code
    return None


def read_residence(tokens: list[Token], mentions: list[Mention], parties: tuple[str, ...], folded: str,
                   lang: str) -> ResidenceFacts:
    """Tie-breaker facts by clause; codes outside the treaty's parties are dropped (when they are known).

    Each country in a clause belongs to the nearest fact cue ("a família vive em Portugal e tenho
    nacionalidade japonesa"); "both" belongs to the nearest fact cue too. "aqui"/"lá"/"here" count as the
    country named last before them; in a sentence, a clause with a cue and no country speaks of the country
    named in the clause before, or else of the next clause that names only a country."""
    found = [m for m in cues().tiebreaker.find(tokens)
             if not (m.value == "nationality" and denied(tokens, m.start))     # "não tenho nacionalidade brasileira"
             and not (m.value == "family" and m.start > 0 and tokens[m.start - 1].norm == "ex")    # "o ex-marido"
             and not (m.value == "family" and _visited(tokens, m.start))]
    let = _let_homes(found, tokens, mentions)
    # "em Lisboa num quarto", "o de São Paulo está alugado"; not a let word after the home one lives in now,
    # said in its clause ("viven en un piso en Huesca alquilado")
    lives_now = [m for m in found if m.value == "lives"]
    lived_homes = {h.start for h in found if h.value == "home" and _lives_before(h, lives_now, tokens, mentions)}
    let_cues = [m.start for m in found if m.value in ("let_out", "lodging")]
    named = sorted((m for m in mentions if not parties or m.code in parties), key=lambda m: m.start)
    named = sorted(named + pointed(tokens, named), key=lambda m: m.start)
    stays = _long_stays(tokens, folded, lang, found, named, parties)
    located = {m.start for m in found if m.value == "located"}
    stay_verbs = [m.start for m in found if m.value == "spent"]
    left = _left_places(tokens, named)
    lived_in = _lives_in(found, tokens, named)
    found = [replace(m, value="let_home") if m.value == "home" and m.start in let else m
             for m in found if m.value not in (*_LIVES, "let_out", "sold", "former", "spent", "tenancy", "located",
                                               "lodging")]
    out = ResidenceFacts()
    by_fact: dict[str, list[str]] = {name: [] for name in _TAKES_COUNTRIES}
    by_fact["abode"] += stays
    previous: tuple[str, ...] = ()        # the countries of the last clause that named one, in this sentence
    pending: list[str] = []               # facts of clauses before, in this sentence, that named no country
    sentences = _sentence_starts(tokens, folded)
    clauses = _clauses(tokens)
    denied_homes: list[str] = []          # "em Portugal não tenho casa": no home there, not none at all
    last_end = 0
    for k, (start, end) in enumerate(clauses):
        if any(last_end <= i <= start for i in sentences):
            previous, pending = (), []
        last_end = end
        here = [m for m in found if start <= m.start < end]
        names = {m.value for m in here}
        out.cues |= names
        facts = [m for m in here if m.value in _TAKES_COUNTRIES]
        countries = [c for c in named if start <= c.start < end and
                     (names & {"nationality"} or not _demonym(tokens, c))]   # "brazilian living in Porto with my wife"
        owned = [c for c in countries if any(not _stay_between(f, c, stay_verbs) for f in facts)]
        attached: dict[int, list[str]] = {i: [] for i in range(len(facts))}
        let_here: set[int] = set()            # home cues whose country the clause says is let
        if facts:
            before: tuple[Mention, int] | None = None     # the country before and the fact it went to
            for c in owned:
                i = min((k for k in range(len(facts)) if not _stay_between(facts[k], c, stay_verbs)),
                        key=lambda k: _distance(facts[k].start, facts[k].end, c.start))
                if before is not None and _coordinated(tokens, before[0], c):
                    i = before[1]              # "homes in Porto and in Osaka": both are the homes'
                before = (c, i)
                if facts[i].value == "nationality" and c.role in _OTHER_ROLES | {"residence"} and \
                        _distance(facts[i].start, facts[i].end, c.start)[0] > 1:
                    continue                   # "a Brazilian citizen … for the Spanish government": the payer;
                                               # "Spanish citizen living in Lisbon": where the person lives
                if c.company and facts[i].value != "management":
                    continue                   # "trabalho de casa em Curitiba pra uma empresa de Lisboa"
                if facts[i].value == "family" and c.start in left:
                    continue                   # "vivi em Curitiba e voltei com a minha mulher": she came along
                if facts[i].value == "home" and facts[i].start not in lived_homes and \
                        any(0 <= s - c.end <= 2 and same_clause(tokens, c.end, s) for s in let_cues):
                    let_here.add(i)
                    continue                   # "… em Lisboa e o de São Paulo está alugado": let, not a home;
                                               # "moro em Lisboa num quarto": a room, not a home
                attached[i].append(c.code)
            ahead = None if countries else _place_after(clauses, k, named, found, located, sentences)
            if ahead:        # "as decisões são tomadas por mim, em São Paulo"
                attached = {i: [ahead] for i in attached}
            elif not countries:
                attached = {i: list(previous[-1:]) for i in attached}     # "…, onde mora a família"
                if not previous:
                    pending += [f.value for f in facts]
            elif len({c.code for c in owned}) == 1:
                # one country in the clause: every home or family cue in it is there ("vivo lá com a minha
                # mulher num apartamento"), unless another home there took it and the cue names a place of its
                # own ("our flat in Tarragona and a house in Ilhéus, Bahia": Ilhéus is not in Spain)
                homes_there = {c for i, a in attached.items() if facts[i].value == "home" for c in a}
                attached = {i: a or ([owned[0].code] if facts[i].value in ("home", "family") and i not in let_here
                                     and not (owned[0].code in homes_there and _own_place(facts[i], located, named))
                                     and not _stay_between(facts[i], owned[0], stay_verbs)
                                     and not (facts[i].value == "family" and owned[0].start in left) else [])
                            for i, a in attached.items()}
            for i, f in enumerate(facts):
                if not attached[i] and f.value == "home" and _own_place(f, located, named):
                    attached[i] = _region_after(f, end, clauses, k, named, sentences)
            for i, f in enumerate(facts):       # "una sociedad portuguesa cuyo consejo se reúne en Tokio"
                after = [c.code for c in countries if c.start > f.start]
                if f.value == "management" and after:
                    attached[i] = [c for c in attached[i] if c in after]
            # "both" before a management or family word counts people, not States ("los dos administradores",
            # "a minha esposa e os dois filhos vieram comigo", "both of its directors live in Lisbon")
            for b in (m for m in here if m.value == "both" and parties and
                      not any(f.value in ("management", "family") and _of_them(tokens, m.end, f.start)
                              for f in here)):
                i = min(range(len(facts)), key=lambda k: _distance(facts[k].start, facts[k].end, b.start))
                attached[i] = list(parties)
        if countries:
            # a place the person has since moved from is not the one the next clause speaks of
            previous = unique(c.code for c in countries if c.start not in left)
            if len(previous) == 1:
                for name in pending:            # "A minha vida (mulher, filhos, emprego) continua lá."
                    if not facts or name in _SHARED_PLACE:   # "Mi casa (en propiedad), mi mujer … en Curitiba"
                        by_fact[name].append(previous[0])
            pending = []
        for i, f in enumerate(facts):
            by_fact[f.value] += attached[i]
        beside = [c.code for m in here if m.value == "no_home" for c in countries
                  if (0 <= m.start - c.end <= 1 and c.start - 1 in located)
                  or (m.end in located and c.start == m.end + 1)]
        if beside:
            denied_homes += beside
        elif "no_home" in names:
            out.homes = ()
        of_abode = any(0 <= u.start - a.end < _NEAR for u in here if u.value == "undetermined"
                       for a in here if a.value == "abode")      # "split the year roughly half and half"
        if "undetermined" in names and ("vital" in names or
                                        (out.vital is None and "family" not in names and not of_abode)):
            out.vital = "undetermined"
    homes = unique(c for c in by_fact["home"] if c not in denied_homes)
    # a centre of life named outright wins; family in both States ("família espalhada nos dois lados") splits it
    family = unique(by_fact["family"])
    vital = unique(by_fact["vital"]) or (family if len(family) == 1 else ("undetermined",) if family else ())
    if homes and out.homes is None:
        out.homes = homes
    out.let_homes = unique(by_fact["let_home"] + denied_homes)
    if out.homes and len(lived_in) == 1 and lived_in[0] not in out.homes + out.let_homes:
        out.homes = (*out.homes, lived_in[0])   # "vivo em Lisboa com a família, mantenho o apartamento em Curitiba"
    if vital and out.vital is None:
        out.vital = vital[0]
    out.abodes = unique(by_fact["abode"]) or None
    out.nationality = unique(by_fact["nationality"]) or None
    out.management = unique(by_fact["management"])
    out.personal = bool(out.cues & {"home", "no_home", "family", "abode", "nationality", "vital"})
    return out
