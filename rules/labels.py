"""Names of languages, topics, units and States in pt/es/en, so answers never show internal codes.

The assistant answers in the question's language; anything it does not know falls back to Portuguese
(languages) or to the code itself (topics, units, States), never to an error.
"""
from __future__ import annotations

LANGUAGES = ("pt", "es", "en")


def normalise_language(language: object) -> str:
    """"es", "ES", "es-ES", "en_GB" → "es"/"en"; anything unknown → "pt" (the reference language)."""
    if not isinstance(language, str):
        return "pt"
    head = language.strip().lower().replace("_", "-").split("-")[0]
    return head if head in LANGUAGES else "pt"


TOPIC_LABELS: dict[str, tuple[str, str, str]] = {   # (pt, es, en)
    "dividends": ("dividendos", "dividendos", "dividends"),
    "interest": ("juros", "intereses", "interest"),
    "royalties": ("royalties", "cánones (regalías)", "royalties"),
    "technical_services": ("assistência técnica e serviços técnicos", "asistencia técnica y servicios técnicos",
                           "technical assistance and technical services"),
    "branch_profits": ("lucros de estabelecimento estável (branch profits)",
                       "beneficios de establecimiento permanente (branch profits)", "branch profits"),
    "employment": ("trabalho dependente (regra dos 183 dias)", "trabajo dependiente (regla de los 183 días)",
                   "employment income (183-day rule)"),
    "residence": ("residência", "residencia", "residence"),
    "permanent_establishment": ("estabelecimento estável", "establecimiento permanente", "permanent establishment"),
    "students": ("estudantes", "estudiantes", "students"),
    "professors": ("professores e investigadores", "profesores e investigadores", "teachers and researchers"),
    "pensions": ("pensões", "pensiones", "pensions"),
    "tax_sparing": ("crédito de imposto fictício (tax sparing)", "crédito por impuesto no pagado (tax sparing)",
                    "tax sparing"),
    "double_taxation_relief": ("eliminação da dupla tributação", "eliminación de la doble imposición",
                               "relief from double taxation"),
    "mutual_agreement": ("procedimento amigável", "procedimiento amistoso", "mutual agreement procedure"),
    "capital_gains": ("mais-valias", "ganancias de capital", "capital gains"),
    "business_profits": ("lucros das empresas", "beneficios empresariales", "business profits"),
    "immovable_property": ("rendimentos de bens imobiliários", "rentas inmobiliarias",
                           "income from immovable property"),
    "government_service": ("funções públicas", "funciones públicas", "government service"),
    "other_income": ("outros rendimentos", "otras rentas", "other income"),
    "entry_into_force": ("entrada em vigor e aplicação", "entrada en vigor y aplicación",
                         "entry into force and application"),
    "anti_abuse": ("normas antiabuso", "normas antiabuso", "anti-abuse rules"),
    "arbitration": ("arbitragem", "arbitraje", "arbitration"),
}

# unit code → ((pt singular, pt plural), (es ...), (en ...))
UNIT_LABELS: dict[str, tuple[tuple[str, str], tuple[str, str], tuple[str, str]]] = {
    "percent": (("%", "%"), ("%", "%"), ("%", "%")),
    "percent_more_than": (("% (mais de)", "% (mais de)"), ("% (más del)", "% (más del)"),
                          ("% (more than)", "% (more than)")),
    "days": (("dia", "dias"), ("día", "días"), ("day", "days")),
    "months": (("mês", "meses"), ("mes", "meses"), ("month", "months")),
    "years": (("ano", "anos"), ("año", "años"), ("year", "years")),
    "date": (("data", "data"), ("fecha", "fecha"), ("date", "date")),
    "USD_per_year": (("US$ por ano", "US$ por ano"), ("US$ por año", "US$ por año"),
                     ("US$ per year", "US$ per year")),
    "USD_per_calendar_year": (("US$ por ano civil", "US$ por ano civil"), ("US$ por año natural", "US$ por año natural"),
                              ("US$ per calendar year", "US$ per calendar year")),
}

STATE_NAMES: dict[str, tuple[str, str, str]] = {
    "PT": ("Portugal", "Portugal", "Portugal"),
    "BR": ("Brasil", "Brasil", "Brazil"),
    "ES": ("Espanha", "España", "Spain"),
    "JP": ("Japão", "Japón", "Japan"),
}


def _index(language: str) -> int:
    return LANGUAGES.index(normalise_language(language))


def topic_label(topic: str, language: str) -> str:
    """Readable name of an income type or topic; the code itself when unknown."""
    names = TOPIC_LABELS.get(topic)
    return names[_index(language)] if names else str(topic)


def unit_label(unit: str, value: object, language: str) -> str:
    """Unit word agreeing with the value (1 → singular); the code itself when unknown."""
    forms = UNIT_LABELS.get(unit)
    if forms is None:
        return str(unit)
    singular, plural = forms[_index(language)]
    is_one = isinstance(value, (int, float)) and not isinstance(value, bool) and value == 1
    return singular if is_one else plural


def state_name(code: str, language: str) -> str:
    """Name of a State from its code (any case); the code itself when unknown."""
    key = str(code).strip().upper()
    names = STATE_NAMES.get(key)
    return names[_index(language)] if names else key
