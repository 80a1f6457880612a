"""The pieces every entry of a treaty file shares: a cited quote, a condition reference and the catalogue
texts a file names by id. Frozen pydantic models read straight from the YAML (extra keys refused); the
treaty id and parties a citation or relief entry needs come from the validation context."""
from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from i18n import CatalogueError, has, t
from rules.conditions import SPECS
from rules.results import Citation, Message


class Frozen(BaseModel):
    """Base of every model of the treaty file: immutable, unknown keys refused."""
    model_config = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True)


def catalogue_message(key: str) -> Message:
    """A catalogue text the file refers to; refused when the catalogue lacks it."""
    if not has(key):
        raise ValueError(f"o catálogo de mensagens (i18n/) não tem o texto {key!r}")
    return Message(key)


def _as_list(value: Any) -> Any:
    return [] if value is None else value if isinstance(value, (list, tuple)) else [value]


def _notes(value: Any) -> tuple[Message, ...]:
    return tuple(v if isinstance(v, Message) else catalogue_message(f"data.notes.{v}") for v in _as_list(value))


def _note(value: Any) -> Message | None:
    return None if value is None or isinstance(value, Message) else catalogue_message(f"data.notes.{value}")


Notes = Annotated[tuple[Message, ...], BeforeValidator(_notes)]
Note = Annotated[Message | None, BeforeValidator(_note)]
Ids = Annotated[tuple[str, ...], BeforeValidator(lambda v: tuple(str(x) for x in _as_list(v)))]


def context_value(info: ValidationInfo, name: str, default: Any = None) -> Any:
    return (info.context or {}).get(name, default)


class CitedQuote(Frozen):
    """An address in a corpus document and the exact words there that back the entry."""
    doc: str = Field(min_length=1)
    article: str | None = None
    paragraph: str | None = None
    subparagraph: str | None = None
    quote: str = Field(min_length=1)
    language: str = "pt"
    source_states: Ids = ()           # empty = whichever State is the source
    treaty: str = ""                  # from the context: the file's treaty

    @model_validator(mode="before")
    @classmethod
    def _shape(cls, raw: Any, info: ValidationInfo) -> Any:
        if not isinstance(raw, dict):
            return raw
        out = {k: (None if v is None else str(v)) if k in ("article", "paragraph", "subparagraph") else v
               for k, v in raw.items()}
        quote = out.get("quote")
        if isinstance(quote, str):
            out["quote"] = " ".join(quote.split())
        out.setdefault("treaty", context_value(info, "treaty", ""))
        return out

    @property
    def citation(self) -> Citation:
        return Citation(doc=self.doc, treaty=self.treaty, article=self.article, paragraph=self.paragraph,
                        subparagraph=self.subparagraph, quote=self.quote, language=self.language)


def _cited(value: Any) -> Any:
    items = _as_list(value)
    if not items:
        raise ValueError("sem citações")
    return items


Citations = Annotated[tuple[CitedQuote, ...], BeforeValidator(_cited)]
OptionalCitations = Annotated[tuple[CitedQuote, ...], BeforeValidator(_as_list)]


class ConditionRef(Frozen):
    """A condition code (rules/conditions.py) with its params, written `{code: holding_min_pct, pct: 25}`."""
    code: str
    params: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _inline_params(cls, raw: Any) -> Any:
        if isinstance(raw, dict) and "params" not in raw:
            return {"code": raw.get("code"), "params": {k: v for k, v in raw.items() if k != "code"}}
        return raw

    @field_validator("code")
    @classmethod
    def _known(cls, code: str) -> str:
        if code not in SPECS:
            raise ValueError(f"condição desconhecida {code!r} (códigos: {', '.join(sorted(SPECS))})")
        return code

    @model_validator(mode="after")
    def _renders(self) -> ConditionRef:
        try:
            t("pt", f"rules.conditions.{self.code}", **self.params)
        except CatalogueError as exc:
            raise ValueError(f"condição {self.code} sem o parâmetro {exc}") from exc
        return self


Conditions = Annotated[tuple[ConditionRef, ...], BeforeValidator(_as_list)]
