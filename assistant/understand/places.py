"""Countries named in a question and the role each plays (residence, source, work, home, ...; "base": the place
the person works from, so both where they are and where the work is done).

Country names, regions, cities and institutions come from assistant/lexicon/countries.yaml; the role
comes from the cue words around each mention (assistant/lexicon/cues.yaml), read right to left.
"""
from __future__ import annotations

from dataclasses import dataclass

from assistant.lexicon import countries, cues
from assistant.lexicon.quantities import word_values
from assistant.lexicon.text import Token
from assistant.lexicon.towns import MAX_WORDS, towns


@dataclass
class Mention:
    start: int           # token span
    end: int
    code: str
    role: str | None = None
    company: bool = False


_EN_PLACE_PREPS = {"in", "to", "from", "near", "around", "outside"}     # before a city written in lower case
_LANGUAGE_ADJ = {"portugues", "ingles", "espanhol", "espanol", "castelhano", "castellano", "frances", "alemao",
                 "aleman", "italiano", "japones", "chines", "chino", "english", "spanish", "portuguese", "french",
                 "german", "japanese", "chinese", "italian"}
# A language taught or translated ("professora de espanhol", "aulas de inglês", "a Spanish teacher") is no
# nationality and no country.
_TEACHING = {"professor", "professora", "professores", "profesor", "profesora", "profesores", "aula", "aulas",
             "clase", "clases", "curso", "cursos", "teacher", "teachers", "class", "classes", "course", "courses",
             "lessons", "tutor", "tradutor", "tradutora", "traductor", "traductora", "translator", "leitor",
             "leitora", "lector", "lectora", "lecturer", "ensino", "ensenanza", "teaching", "exame", "examen",
             "exam", "lingua", "lengua", "language"}


# An academic before whom the adjective is a nationality ("a Japanese professor invited to Porto"), unlike a
# language's teacher or class ("a Spanish teacher", "Spanish lessons").
_ACADEMICS = {"professor", "professora", "professores", "profesor", "profesora", "profesores", "lecturer",
              "leitor", "leitora", "lector", "lectora"}


def _taught(tokens: list, i: int) -> bool:
    before = [t.norm for t in tokens[max(0, i - 2):i]]
    after = tokens[i + 1].norm if i + 1 < len(tokens) else ""
    return (len(before) == 2 and before[1] in ("de", "of") and before[0] in _TEACHING) or \
        (after in _TEACHING and after not in _ACADEMICS)


# A group company named beside the employer ("a Brazilian subsidiary") is not, by default, the employer.
_GROUP = {"subsidiary", "subsidiaries", "subsidiaria", "subsidiarias", "affiliate", "affiliates", "participada"}
_RELATIVES = {"que", "which", "that", "who", "whom", "quien", "quienes", "cujo", "cuja", "cuyo", "cuya"}
_INHERITED_ROLES = {"residence", "home", "nationality", "abode", "work", "source", "pe", "moved"}
_LINKS = {"no", "na", "nos", "nas", "em", "en", "in", "el", "la", "the", "o", "a"}
_PLACE_LINKS = _LINKS | {"nos", "de", "do", "da", "del", "of"}
# a title's full stop does not end the clause: "vamos enviar o Eng. Rui Pacheco para Nagoya"
_IN_PREPS = {"em", "en", "in", "at", "na", "nas", "nos"}   # "no" is also Spanish "not"
_DENIED_WITHIN = 3        # tokens before a nationality cue where a negation denies it
# "solicitado la nacionalidad", "applied for citizenship": not (yet) a national
_REQUESTED = {"solicitei", "solicitado", "solicitada", "solicite", "pedi", "pedido", "pediu", "requeri", "requerido",
              "requerimento", "applied", "applying", "apply", "tramitando", "tramite", "processo", "proceso"}
_TITLES = {"eng", "dr", "dra", "sr", "sra", "srs", "prof", "profa", "mr", "mrs", "ms", "lic", "arq"}
_RIGHT_FILLERS = {"que", "me", "lhe", "nos", "le", "les", "a", "o", "um", "uma", "the", "which", "that", "who",
                  "also", "tambem", "ja", "entao", "vai", "vao", "va", "van", "will", "ira", "iran", "vem", "costuma",
                  "suele", "usually", "going", "is", "esta", "estao", "tem", "de"}


_TOWN_PREPS = {"em", "no", "na", "num", "numa", "en", "in", "at", "near", "around", "from"}


def _with_towns(tokens: list[Token], found: list[Mention]) -> list[Mention]:
    """`found` with the towns no list names ("viven en Bormujos"), read as a capitalised name right after
    "em"/"en"/"in"/"from"; a town of several words replaces a shorter place inside it ("from Ponte de Lima" is not
    Lima, Peru)."""
    table = towns()
    out = list(found)
    i = 1
    while i < len(tokens):
        if tokens[i - 1].norm in _TOWN_PREPS and tokens[i].orig[:1].isupper() and \
                not any(m.start <= i < m.end for m in out):
            for n in range(min(MAX_WORDS, len(tokens) - i), 0, -1):
                words = tokens[i:i + n]
                name = " ".join(t.norm for t in words)
                inside = [m for m in out if m.start < i + n and i < m.end]
                if all(t.is_word for t in words) and words[-1].orig[:1].isupper() and \
                        all(i <= m.start and m.end <= i + n and m.end - m.start < n for m in inside) and name in table:
                    out = [m for m in out if m not in inside] + [Mention(i, i + n, table[name])]
                    i += n - 1
                    break
        i += 1
    return out


def find_mentions(text: str, tokens: list[Token], language: str) -> list[Mention]:
    lex = countries()
    skip: set[int] = set()
    for m in lex.excluded.find(tokens):
        skip.update(range(m.start, m.end))
    exact: list[Mention] = []
    for pattern, code in lex.exact_case:
        for rm in pattern.finditer(text):
            idx = [i for i, t in enumerate(tokens) if rm.start() <= t.start < rm.end()]
            if idx:
                exact.append(Mention(idx[0], idx[-1] + 1, code))
    if language == "en":      # "living in porto": no English word, so a city even in lower case after "in"
        exact += [Mention(i, i + 1, lex.lowercase_places[t.norm]) for i, t in enumerate(tokens)
                  if i and t.orig.islower() and t.norm in lex.lowercase_places
                  and tokens[i - 1].norm in _EN_PLACE_PREPS]
    # a word one letter from a place counts when written as a name ("Barcelone") or when it is a country's name
    # ("portugual"): a common word one letter away is no place ("haciendo" is not Hacienda, "maioria" not
    # Maiorca, "humanos" not "rumanos")
    index = lex.index(language)
    folded = [Mention(m.start, m.end, m.value) for m in index.find(tokens, skip)
              if m.exact or tokens[m.start].orig[:1].isupper() or index.nearest(tokens[m.start].norm) in lex.names]
    # A spelling written exactly ("Franca", the Brazilian city, not "França") wins over the accent-blind
    # match of the same length; a longer accent-blind match wins ("Porto Alegre" over "Porto").
    found: list[Mention] = []
    taken: set[int] = set()
    for m in sorted(folded + exact, key=lambda m: (-(m.end - m.start), m in folded, m.start)):
        span = set(range(m.start, m.end))
        if not taken & span:
            found.append(m)
            taken |= span
    found = _with_towns(tokens, found)
    if language == "en":
        found += _us_beside_a_country(tokens, found)
    kept = []
    ordered = sorted(found, key=lambda m: m.start)
    for k, m in enumerate(ordered):
        word = tokens[m.start].norm
        prev = tokens[m.start - 1].norm if m.start else ""
        if m.end - m.start == 1 and word in _LANGUAGE_ADJ and prev in ("em", "en", "in"):
            continue                                   # "responda em inglês": a language, not a country
        if m.end - m.start == 1 and word in _LANGUAGE_ADJ and _taught(tokens, m.start):
            continue                                   # "professora de espanhol", "Spanish classes"
        after = ordered[k + 1] if k + 1 < len(ordered) else None
        if after is not None and after.start == m.end and after.code != m.code and m.end - m.start > 1:
            continue                                   # "segurança social espanhola": the adjective names it
        kept.append(m)
    return kept


def _us_beside_a_country(tokens: list[Token], found: list[Mention]) -> list[Mention]:
    """"us" typed in lower case right beside a country ("brazil us tax treaty", "the us-portugal treaty") is the
    United States, not the pronoun ("Japan taxes us" has a word between)."""
    ends = {m.end for m in found} | {m.start for m in found}
    return [Mention(i, i + 1, "US") for i, t in enumerate(tokens)
            if t.orig == "us" and (i in ends or i + 1 in ends) and not any(m.start <= i < m.end for m in found)]


class Grammar:
    """Cue categories by token position, read right to left from a country mention."""

    def __init__(self, tokens: list[Token]):
        self.tokens = tokens
        self.by_end: dict[int, tuple[int, str]] = {}
        self.by_start: dict[int, tuple[int, str]] = {}
        for m in cues().grammar.find(tokens):
            self.by_end[m.end - 1] = (m.start, m.value)
            self.by_start[m.start] = (m.end, m.value)

    def left(self, j: int) -> tuple[int, str | None]:
        return self.by_end.get(j, (j, None))

    def right(self, j: int) -> tuple[int, str | None]:
        return self.by_start.get(j, (j + 1, None))

    def names(self, category: str) -> bool:
        """Whether any cue of the category is in the question ("role:pe": a branch, a PE)."""
        return any(cat == category for _, cat in self.by_start.values())

    def categories_before(self, j: int, units: int) -> list[str]:
        found = []
        while j >= 0 and units > 0 and self.tokens[j].is_word:
            s, cat = self.left(j)
            if cat:
                found.append(cat)
            j, units = s - 1, units - 1
        return found


def denied(tokens: list[Token], cue: int) -> bool:
    """A nationality cue denied or only asked for: "não tenho nacionalidade", "sin nacionalidad", "applied for
    citizenship"."""
    words = cues().negation | _REQUESTED
    for j in range(cue - 1, max(-1, cue - 1 - _DENIED_WITHIN), -1):
        if not tokens[j].is_word:
            return False                               # the clause before is another statement
        nxt = tokens[j + 1].orig
        if tokens[j].norm in words and not (tokens[j].norm == "no" and nxt[:1].isupper()):   # "no Brasil": in
            return True
    return False


# "a partir de", "desde" after working words name the place the work is done from; English "from" only right
# after them ("I work remotely from Lisbon", not "a company from Madrid")
_BASE_WINDOW = 10
_REMOTE = {"remotamente", "remoto", "remota", "remote", "remotely", "teletrabalho", "teletrabajo", "telework",
           "teleworking", "online"}


def _worked_from(g: Grammar, s: int) -> bool:
    """Whether the from-preposition at s names the place worked from."""
    tokens = g.tokens
    word = tokens[s].norm
    base = word == "desde" or (word in ("de", "do", "da") and s >= 2 and tokens[s - 1].norm == "partir"
                               and tokens[s - 2].norm == "a")
    if not base and word != "from":
        return False
    first = s - 2 if word in ("de", "do", "da") else s
    window = 1 if word == "from" else _BASE_WINDOW
    j = first - 1
    while j >= 0 and first - j <= window and tokens[j].is_word:
        start, cat = g.left(j)
        if cat == "role:work" or tokens[j].norm in _REMOTE:
            return True
        if cat in ("pay_verbs", "receive_verbs", "income", "role:source"):
            return False                             # "me pagan desde Brasil": the payer
        j = start - 1
    return False


def _is_to_prep(tokens: list[Token], j: int, cat: str | None) -> bool:
    if cat == "to_preps":
        return True
    orig = tokens[j].orig.lower()
    if orig in ("à", "às"):
        return True
    nxt = tokens[j + 1].norm if j + 1 < len(tokens) else ""
    return tokens[j].norm == "a" and nxt in ("um", "uma", "un", "una")


def _left_role(k: int, mentions: list[Mention], g: Grammar,
               by_end: dict[int, int]) -> tuple[str | None, str | None, bool, bool]:
    """(role, preposition, company, possessive) from the words before mention k."""
    tokens = g.tokens
    j = mentions[k].start - 1
    prep: str | None = None
    company = possessive = after_conj = skipped = lent_to = relative = outside = False
    steps = 0
    while j >= 0 and steps < 8:
        tok = tokens[j]
        if not tok.is_word:
            if tok.norm == "." and j > 0 and tokens[j - 1].norm in _TITLES:
                j -= 1
                continue
            if tok.norm == "(" and steps == 0 and j > 0 and g.left(j - 1)[1] == "company":
                company = True                           # "nuestra empresa (Valladolid)": its home, as "de"
                j, steps = g.left(j - 1)[0] - 1, steps + 2
                continue
            break
        if j in by_end:
            prev = mentions[by_end[j]]
            if after_conj and prev.role in _INHERITED_ROLES and prep is None and not company and \
                    g.right(mentions[k].end)[1] not in ("company", "payer"):   # "and a Brazilian company pays"
                return prev.role, None, prev.company, False   # "moro em Braga e (em) Faro"
            if prep != "to" or after_conj:
                break
            j, steps, skipped = prev.start - 1, steps + 1, True     # "destacado de Portugal para o Japão"
            continue
        if after_conj and tok.norm not in _LINKS:
            break
        if tok.norm in _RELATIVES and (company or possessive):   # "os dividendos que a minha empresa … recebe"
            break
        relative = relative or tok.norm in _RELATIVES
        s, cat = g.left(j)
        if cat == "conjunctions" and tok.orig.lower() != "é":
            # "moro em Braga e (em) Faro" shares the role; "live in Brazil and get a Spanish pension" does not
            if any(t.norm not in _LINKS for t in tokens[s + 1:mentions[k].start]):
                break
            after_conj = True
        elif cat == "outside" and steps == 0:
            outside, prep = True, "from"
        elif cat and cat.startswith("role:"):
            role = cat[5:]
            if role == "residence" and outside:
                return "former_residence", prep, company, possessive   # "moro fora do Brasil": not there
            if role == "employer" and relative:     # "the employer, which has a Brazilian subsidiary": not it
                break
            if role == "residence" and s - 1 in by_end and \
                    any(t.norm not in _PLACE_LINKS for t in tokens[g.right(s)[0]:mentions[k].start]):
                break                                    # "a Portuguese resident with a Brazilian pension"
            if role == "source" and prep == "to":   # "pagos (por X) a um banco português": the payee
                return "residence", prep, company, possessive
            if skipped and role not in ("work", "move", "residence"):
                break
            if role == "pe" and company and \
                    not any(t.norm in _IN_PREPS | {"no"} for t in tokens[s + 1:mentions[k].start]):
                # "sucursal de la sociedad española", "sucursal da sociedade portuguesa": the company's home, not
                # where the branch is (unlike "a filial da nossa empresa no Brasil")
                return "residence", prep, company, possessive
            before = g.categories_before(s - 1, 3)
            if role == "nationality" and denied(tokens, s):
                return "not_nationality", prep, company, possessive   # "não tenho nacionalidade brasileira"
            if role == "nationality" and not company and \
                    any(t.norm in _IN_PREPS for t in tokens[s + 1:mentions[k].start]):
                role = "residence"                   # "soy traductora en Madrid", "im a lawyer in curitiba"
            if role == "nationality" and tokens[mentions[k].start].orig[:1].isupper() and \
                    any(t.norm in ("no", "na", "nos", "nas") for t in tokens[s + 1:mentions[k].start]):
                break        # "sou professora no Instituto Cervantes": where she works, not her nationality
            if role == "government":
                if steps == 0 or (prep == "from" and steps <= 2):   # "Estado brasileiro", "Gobierno de Brasil"
                    return "government", prep, company, possessive
                j, steps = s - 1, steps + 1                  # "he estado en España": not a government
                continue
            if role == "retired":                            # "retired in Brazil"; "aposentado pelo INSS" pays
                between = {t.norm for t in tokens[s + 1:mentions[k].start]}
                if prep == "from":
                    return "source", prep, company, possessive
                if not between or not between <= _LINKS:     # "Retired Portuguese civil servant": no place
                    j, steps = s - 1, steps + 1
                    continue
                role = "residence"
            if role == "residence" and "family" in before:
                role = "vital"
            elif role == "residence" and "role:employer" in before:
                role = "employer"
            elif role == "residence" and s > 0 and g.left(s - 1)[1] == "company" and \
                    not {"possessive", "role:nationality"} & set(g.categories_before(s - 1, 3)):
                return "source", prep, True, possessive       # "pagos por uma empresa residente no Brasil": the payer
            elif role == "nationality" and company:
                # "sou contratada pela empresa brasileira": the company pays; "sou de uma empresa do Porto" too
                role = "source" if prep == "from" else "residence"
            elif role == "work" and company:
                role = "employer"
            elif role == "move":
                role = "former_residence" if prep == "from" else "moved"
            return role, prep, company, possessive
        elif cat == "from_preps":
            if steps == 0 and _worked_from(g, s):
                return "base", None, company, possessive    # "trabalho para eles a partir de Madrid"
            ls, lcat = g.left(s - 1) if s > 0 else (s, None)
            if prep is None and not company and lcat == "payer":         # "um cliente do Rio": who pays
                return "source", "from", True, possessive
            if prep is None and not company and lcat == "company":       # "empresa de Espanha"
                company = True
                j, steps = ls - 1, steps + 2
                continue
            prep = prep or "from"
        elif _is_to_prep(tokens, j, cat):
            prep, lent_to = prep or "to", True
        elif cat == "payer" and not skipped:              # "cliente brasileiro"
            return "source", prep, True, possessive
        elif cat == "company" and not skipped:
            company = True
        elif cat == "possessive" and not skipped:
            possessive = True
        elif cat == "income":
            if prep == "from" or steps == 0:
                return "source", prep, company, possessive
        elif cat in ("pay_verbs", "receive_verbs") and prep is not None:
            return ("source" if prep == "from" else "residence"), prep, company, possessive
        elif cat == "lend_verbs" and lent_to:             # "conceder um empréstimo a uma fábrica de Manaus"
            return "borrower", prep, company, possessive
        elif cat == "supply_verbs" and prep == "to":       # "presta serviços a um cliente brasileiro"
            return "source", prep, company, possessive
        elif cat == "supply_verbs" and prep == "from":     # "prestamos serviços desde Lisboa": the supplier
            return "residence", prep, company, possessive
        j, steps = s - 1, steps + 1
    return None, prep, company, possessive


def _right_role(k: int, mentions: list[Mention], g: Grammar, starts: set[int]) -> tuple[str | None, bool]:
    tokens = g.tokens
    j = mentions[k].end
    company = False
    steps = 0
    while j < len(tokens) and steps < 5 and tokens[j].is_word and j not in starts:
        e, cat = g.right(j)
        if cat == "company":
            company = True
        elif cat in ("pay_verbs", "role:source") or (cat == "income" and steps == 0):
            return "source", company
        elif cat == "receive_verbs" or (cat == "role:residence" and steps == 0):
            return "residence", company
        elif cat is not None or tokens[j].norm not in _RIGHT_FILLERS:
            if cat not in ("possessive",):
                break
        j, steps = e, steps + 1
    return None, company


# "brasileiro nato", "Spanish-born", "japonés de nacimiento", "Brazilian citizen": the person's nationality
_BORN = {"nato", "nata", "natos", "natas", "nativo", "nativa", "born", "nacimiento", "nascimento", "nascenca",
         "citizen", "citizens", "national", "nationals", "passport"}


_COPULA = {"é", "es", "is", "são", "son", "are", "era", "was"}     # as typed: folded "é" is the conjunction "e"
_ONLY = {"so", "solo", "only", "apenas", "tambem", "tambien", "also", "just"}
# In Portuguese and Spanish an adjective follows its noun: a demonym right after "um"/"un" is a person ("un
# brasileño con residencia en España", "uma portuguesa que vive em Recife"), unlike English "a Brazilian firm".
_A_PERSON = {"um", "uma", "un", "una"}
_A_PERSON_AFTER = {"sou", "soy", "é", "es", "era", "como"}     # "Sou uma brasileira…", "como un español…"


def _a_person(tokens: list[Token], i: int) -> bool:
    """"Un brasileño con residencia en España…", "Sou uma portuguesa…": the demonym at i is the person the
    ticket is about, after "um"/"un" that opens the sentence or follows "sou"/"soy"; not someone the
    person deals with ("casou com um japonês")."""
    if i < 1 or tokens[i - 1].norm not in _A_PERSON:
        return False
    return i < 2 or not tokens[i - 2].is_word or tokens[i - 2].orig.lower() in _A_PERSON_AFTER


# In English the demonym comes before the noun: "he's a retired Portuguese civil servant", "As a Brazilian nurse
# in Lisbon…", "I am a Spanish engineer": a person the ticket is about (not "a Brazilian firm").
_EN_PERSON_NOUNS = {"civil", "engineer", "nurse", "doctor", "dentist", "physician", "pensioner", "retiree", "expat",
                    "student", "researcher", "man", "woman", "guy", "lady", "lawyer", "architect", "developer",
                    "programmer", "consultant", "freelancer", "musician", "player", "footballer", "artist", "pilot",
                    "seafarer", "sailor", "worker", "employee", "accountant", "scientist", "journalist", "writer",
                    "designer", "chef", "diplomat", "soldier", "officer", "entrepreneur", "businessman",
                    "businesswoman", "retired", "couple", "family"}
_EN_ARTICLE_AFTER = {"m", "am", "s", "is", "was", "as", "being"}   # "I'm a …", "she's a …", "As a …"
_EN_BEFORE_DEMONYM = {"retired", "young", "former", "fellow", "self-employed", "freelance", "married", "single"}


def _an_english_person(tokens: list[Token], i: int) -> bool:
    """"I'm a (retired) Portuguese civil servant", "As a Brazilian nurse…": the demonym at i describes the
    person, an English noun of person after it and "a"/"an" before it, after "I'm", "she's", "as"."""
    if i + 1 >= len(tokens) or tokens[i + 1].norm not in _EN_PERSON_NOUNS:
        return False
    k = i - 1
    if k >= 0 and tokens[k].norm in _EN_BEFORE_DEMONYM:
        k -= 1
    return k >= 1 and tokens[k].norm in ("a", "an") and tokens[k - 1].norm in _EN_ARTICLE_AFTER


_PERSONS = {"ele", "ela", "eles", "elas", "el", "ella", "ellos", "ellas", "he", "she", "they", "marido", "mulher",
             "esposa", "esposo", "filho", "filha", "hijo", "hija", "husband", "wife", "son", "daughter", "cliente",
             "client", "funcionario", "funcionaria", "empleado", "empleada", "employee", "candidato", "candidata",
             "avo", "mae", "pai", "irmao", "irma", "sogro", "sogra", "abuela", "abuelo", "madre", "padre",
             "hermano", "hermana", "suegro", "suegra", "mother", "father", "grandmother", "grandfather",
             "brother", "sister"}


def _person_before(tok: Token) -> bool:
    """The subject of "é brasileiro" is a person: a pronoun, a name, or none ("; es brasileño"), not a thing
    ("a pensão é portuguesa")."""
    return tok.norm in _PERSONS or tok.norm in (",", ";") or (tok.is_word and tok.orig[:1].isupper())


def _nationality_apposition(m: Mention, tokens: list[Token]) -> bool:
    """A demonym set off by commas or followed by "born" or "citizen" describes the person: "(professora),
    brasileira, e moro em Aveiro", "sou militar, brasileiro nato", "Brazilian citizen living in Portugal"."""
    if m.end - m.start != 1 or tokens[m.start].norm not in countries().demonyms:
        return False
    before = tokens[m.start - 1].norm if m.start else ""
    after = [t.norm for t in tokens[m.end:m.end + 2]]
    only = m.start > 2 and tokens[m.start - 1].norm in _ONLY
    k = m.start - 1 - only                                                        # "ela é só portuguesa"
    # "…y es solo española", "Es solo brasileño.": "only" makes the subject a person, said or not
    # typed without accents, "e" after a person's noun is "é" ("a minha sogra e brasileira"): no one writes
    # "my mother-in-law and Brazilian"
    unaccented = tokens[k].orig.lower() == "e" and k > 0 and tokens[k - 1].norm in _PERSONS
    # "He's Japanese": the contracted "is" after a pronoun (after a name it is a possessive: "Kenji's Japanese
    # pension")
    contracted = tokens[k].orig.lower() == "s" and tokens[k - 1].norm in ("he", "she")
    copula = k > 0 and (tokens[k].orig.lower() in _COPULA and (only or _person_before(tokens[k - 1])) or unaccented or
                        contracted)
    return copula or bool(set(after) & _BORN) or _a_person(tokens, m.start) or _self_described(tokens, m.start) or \
        (before in (",", "(") and (not after or after[0] in (",", ")", ".", "e", "y", "and")))


# Definite articles before a demonym used as a noun: "y para la portuguesa, ¿qué convenio se aplica?" (the
# Portuguese pension), "e a brasileira?", "and the Brazilian one": a thing of that country, no place one goes to
_ARTICLES = {"a", "o", "as", "os", "la", "el", "las", "los", "the"}


def _elliptic_demonym(m: Mention, tokens: list[Token]) -> bool:
    return m.end - m.start == 1 and m.start > 0 and tokens[m.start].norm in countries().demonyms and \
        tokens[m.start - 1].norm in _ARTICLES and tokens[m.start].orig[:1].islower()


SELF_WORDS = 3       # the words of a ticket's opening description before its demonym ("Ex-militar brasileiro, …")


def _self_described(tokens: list[Token], i: int) -> bool:
    """The ticket opens by describing the writer, a noun and the demonym at i ("Ex-militar brasileiro, vivo em
    Évora", "Jubilada española, resido en Recife"; "Sou enfermeira portuguesa e…"): the writer's nationality."""
    words = tokens[:i]
    if words and words[0].norm in ("sou", "soy"):
        words = words[1:]
    # a demonym in lower case, as Portuguese and Spanish write it: "Tratado Brasil-Argentina, juros" names a country
    return 0 < len(words) <= SELF_WORDS and all(t.is_word and t.norm not in _NOT_SELF for t in words) and \
        tokens[i].orig[:1].islower() and i + 1 < len(tokens) and tokens[i + 1].norm in (",", "e", "y", ";")


# words that make the opening a thing the writer deals with, not the writer ("Trabalho numa empresa brasileira, …")
_NOT_SELF = {"um", "uma", "num", "numa", "de", "da", "do", "em", "na", "no", "un", "una", "en", "el", "la", "del",
             "a", "o", "the", "an", "in", "at", "for", "para", "pela", "pelo", "por", "trabalho", "trabajo", "work",
             "empresa", "empresas", "company", "sociedad", "sociedade"}


_CONTRACTED_NOT = {"haven", "hasn", "didn", "wasn", "weren"}     # "haven't": the tokens "haven", "t"


def _denied_visit(tokens: list[Token], start: int) -> bool:
    """A destination after a negation in the few words before it: a place not gone to."""
    before = {t.norm for t in tokens[max(0, start - 5):start]}
    return bool(before & (cues().negation | _CONTRACTED_NOT))


VISIT_DAYS = 45         # "fui ao Brasil 10 dias": a stay this short after a destination is a visit
_STAY_UNITS = ("dia", "day", "semana", "week", "mes", "month")
_CLAUSE_AFTER = 5       # words after a place that still speak of it


def _stay_after(g: Grammar, end: int) -> tuple[float, str] | None:
    """A stay of days, weeks or months stated right after a place, in its clause ("from Florianópolis for 4
    months", "desde Tóquio durante 3 meses"): its number and unit word."""
    values = word_values()
    for i in range(end, min(end + _CLAUSE_AFTER, len(g.tokens) - 1)):
        k = i + 1 if g.tokens[i].norm == "," else i      # set off by a comma: "ir ao Brasil no Natal, uma semana"
        if not g.tokens[k].is_word or k + 1 >= len(g.tokens):
            return None
        norm, unit = g.tokens[k].norm, g.tokens[k + 1].norm
        if (norm.isdigit() or norm in values) and unit.startswith(_STAY_UNITS):
            return (float(norm) if norm.isdigit() else float(values[norm])), unit
        if k != i:
            return None                                  # the clause ends at its comma
    return None


_STAY_BEFORE = 4        # tokens from a stay's length to the place after it ("3 meses para o Japão")
_STAY_WORDS = {"dia", "dias", "semana", "semanas", "mes", "meses", "day", "days", "week", "weeks", "month", "months"}


def _stay_before(g: Grammar, start: int) -> bool:
    """A counted stay of days, weeks or months right before the preposition of a place ("uns 60 dias pra um
    cliente em São Paulo e depois 3 meses pra Madrid"): where the stay is spent; not a sum per month ("500 euros por
    mês para o Brasil")."""
    values = word_values()
    for i in range(max(1, start - _STAY_BEFORE), start):
        norm, count = g.tokens[i].norm, g.tokens[i - 1].norm
        if norm in _STAY_WORDS and (count.isdigit() or count in values) and all(t.is_word for t in g.tokens[i:start]):
            return True
    return False


# trips counted ("vou ao Brasil umas seis vezes por ano", "I fly to Tokyo twice a year"): visits
_TRIPS = {"vezes", "veces", "times", "twice", "thrice"}


def _visit_after(g: Grammar, end: int) -> bool:
    """A destination followed, within its clause, by holiday words, trips counted or a stay of a few weeks or
    days ("fui ao Brasil duas semanas de férias", "went to Japan for ten days", "vou ao Brasil seis vezes por
    ano"): a visit, not where the person lives."""
    stay = _stay_after(g, end)
    if stay is not None and not stay[1].startswith(("mes", "month")):
        return stay[1].startswith(("semana", "week")) or stay[0] <= VISIT_DAYS   # "183 dias" is no visit
    for i in range(end, min(end + _CLAUSE_AFTER, len(g.tokens))):
        if not g.tokens[i].is_word:
            return False
        if g.right(i)[1] == "visit" or g.tokens[i].norm in _TRIPS:
            return True
    return False


_WHERE = {"onde", "where", "donde"}
# the writer (or the writer's household) living there: "onde moro", "where we live", "donde vivo"
_LIVE_HERE = {"moro", "moramos", "vivo", "vivemos", "vivimos", "resido", "residimos"}
_WE = {"i", "we"}
_LIVE_REACH = 3         # tokens from "onde"/"where" to the verb ("onde atualmente moro", "where I now live")


def _lived_after(g: Grammar, end: int) -> bool:
    """A place followed by ", onde moro", ", where I live", ", donde vivo": where the writer lives, whatever the
    words before it made of it ("comprei um apartamento em Lisboa, onde moro com a minha mulher"); not where
    someone else lives ("onde mora o meu filho", "where my parents live")."""
    i = end + (end < len(g.tokens) and g.tokens[end].norm == ",")
    if i >= len(g.tokens) or g.tokens[i].norm not in _WHERE:
        return False
    after = {t.norm for t in g.tokens[i + 1:i + 1 + _LIVE_REACH]}
    return bool(after & _LIVE_HERE) or (bool(after & _WE) and "live" in after)


def _company_after(g: Grammar, end: int) -> bool:
    """A company or employer word right after a country, or after one more word ("a Brazilian tech company",
    "a Japanese software firm")."""
    first = g.right(end)[1]
    if first in ("company", "role:employer"):
        return True
    return first is None and end < len(g.tokens) and g.tokens[end].is_word and \
        g.right(end + 1)[1] in ("company", "role:employer")


_AGENT_PREPS = {"by", "por", "pelo", "pela", "pelos", "pelas"}


def _paid_by(tokens: list[Token], start: int) -> bool:
    """"paid by the Spanish employer", "pago pelo empregador português": the agent who pays, a few words before."""
    return any(t.norm in _AGENT_PREPS for t in tokens[max(0, start - 3):start])


def assign_roles(mentions: list[Mention], g: Grammar, employment: bool) -> None:
    by_end = {m.end - 1: i for i, m in enumerate(mentions)}
    starts = {m.start for m in mentions}
    for k, m in enumerate(mentions):
        if g.right(m.end)[1] == "role:government":       # "the Japanese government": the paying State
            m.role, m.company = "source", False
            continue
        if g.right(m.end)[1] == "role:pe" and g.tokens[m.end].norm != "pe":
            m.role, m.company = "pe", False              # "the Macau branch of a Lisbon bank": where the PE is
            continue                                     # (not "Recife PE": Pernambuco)
        end, cat = g.right(m.end)
        nxt = next((i for i in range(end, min(end + 3, len(g.tokens)))
                    if i in starts or g.tokens[i].norm not in _PLACE_LINKS), None)
        if cat == "role:residence" and nxt not in starts:
            # "I'm a Portuguese resident"; not "português residente no Brasil"
            m.role, m.company = "residence", False
            continue
        role, prep, company, possessive = _left_role(k, mentions, g, by_end)
        if role is None and _an_english_person(g.tokens, m.start):
            m.role, m.company = "nationality", False     # "he's a retired Portuguese civil servant"
            continue
        if role in ("property", "home", None) and _lived_after(g, m.end):
            role = "residence"                           # "um apartamento em Lisboa, onde moro"
        if role == "base" and _stay_after(g, m.end):
            role = "work"                                # "work from Florianópolis for 4 months": a stay, not home
        if prep not in (None, "from") and {"account", "contribute_verbs"} & set(g.categories_before(m.start - 1, 3)):
            role = prep = None                           # "me pagan a una cuenta en Brasil": where money is kept;
            #                                              "contribuindo para o INSS": where one pays in
        if role == "government":                         # a State that pays, unless it receives ("o Estado detém")
            role = "residence" if _right_role(k, mentions, g, starts)[0] == "residence" else "source"
        right, right_company = _right_role(k, mentions, g, starts) if role is None else \
            (None, _company_after(g, m.end))   # "from my former Japanese employer", "a Brazilian tech company"
        company = company or right_company
        if role == "work" and company:
            role = "employer"                            # "my job with a Brazilian tech company"
        if (role in (None, "work") or (role == "source" and _paid_by(g.tokens, m.start))) and employment and \
                g.right(m.end)[1] == "role:employer":
            role, company = "employer", True             # "(working) for my Portuguese employer", "salary paid
            #                                              by the Spanish employer" (not "a pension from my old
            #                                              Portuguese employer": who pays the pension)
        if role is None and employment and company and g.tokens[min(m.end, len(g.tokens) - 1)].norm not in _GROUP:
            role = "employer"
        if role is None and prep == "from" and right == "residence" and \
                g.tokens[min(m.end, len(g.tokens) - 1)].norm not in ("received", "recebidos", "recibidos"):
            role = "residence"                           # "a Câmara Municipal de Lisboa recebe juros": the holder
        if role is None and prep == "to" and (_denied_visit(g.tokens, m.start) or _visit_after(g, m.end)):
            prep = None                                  # "I haven't been to Japan since", "nunca fui ao Brasil"
        if role in (None, "residence") and prep == "to" and _stay_before(g, m.start):
            role = prep = None                           # "me manda 3 meses pra Madrid": a stay there, no move
        if role is None and prep is not None and not _elliptic_demonym(m, g.tokens):
            role = "source" if prep == "from" else "residence"
        if role is None:
            role = right
        if role is None and possessive and company:
            role = "residence"
        if role is None and not company and _nationality_apposition(m, g.tokens):
            role = "nationality"
        m.role, m.company = role, company
    _last_move_is_home(mentions)
    if any(m.role == "borrower" for m in mentions):          # the lender is the beneficiary of the interest
        for m in mentions:
            m.role = "source" if m.role == "borrower" else "residence" if m.role == "source" and m.company \
                else m.role


def _last_move_is_home(mentions: list[Mention]) -> None:
    """Of several moves ("emigrei para São Paulo em 1989 e regressei a Viseu"), the last is where the person
    lives; the earlier ones were homes."""
    moved = [m for m in mentions if m.role == "moved"]
    for m in moved:
        m.role = "residence" if m.code == moved[-1].code else "former_residence"


def unique(codes) -> tuple[str, ...]:
    """Codes in order of first appearance, without repeats."""
    return tuple(dict.fromkeys(codes))


def roles_of(mentions: list[Mention]) -> dict[str, tuple[str, ...]]:
    """Country codes by role ("" for no role), in order of mention."""
    by_role: dict[str, list[str]] = {}
    for m in mentions:
        by_role.setdefault(m.role or "", []).append(m.code)
    return {role: unique(codes) for role, codes in by_role.items()}
