"""Towns from GeoNames (assistant/lexicon/towns.py): the committed table and the filter that built it, and towns
read in tickets only as a capitalised name after a place preposition. Phrasings not in the eval set."""
from __future__ import annotations

import pytest

from assistant.lexicon.text import tokenize
from assistant.lexicon.towns import build, towns
from assistant.understand.places import find_mentions


def _city(name: str, code: str, population: int = 20000) -> dict:
    return {"name": name, "countrycode": code, "population": population}


def test_the_filter_keeps_a_town_of_one_country_and_drops_the_rest():
    cities = {"1": _city("Ílhavo", "PT"), "2": _city("Toledo", "ES"), "3": _city("Toledo", "BR"),
              "4": _city("Ota", "JP"), "5": _city("Lyon", "FR"), "6": _city("Vila Pequena", "PT", 900),
              "7": _city("Lisboa", "PT")}
    villages = {"8": _city("Valença", "PT", 0), "9": _city("Ílhavo", "PT")}
    cities["10"] = _city("Valença", "BR", 60000)
    table = build(cities, villages, {"PT", "ES", "BR", "JP"}, known={"lisboa"})
    # Toledo is in two countries, Valença too (a Portuguese village), Ota short, Lyon outside, a village small
    assert table == {"ilhavo": "PT"}


def test_the_committed_table_holds_towns_no_list_names():
    table = towns()
    assert len(table) > 3000
    assert table["bormujos"] == "ES" and table["varginha"] == "BR" and table["azambuja"] == "PT"
    assert "lisboa" not in table and "porto" not in table     # places.yaml reads those
    assert "valenca" not in table                             # a Brazilian town and a Portuguese one


@pytest.mark.parametrize("text, language, codes", [
    ("Los niños van al colegio y vivimos en un piso en Bormujos.", "es", ["ES"]),
    ("Tenho uma casa em Varginha e outra em Ílhavo.", "pt", ["BR", "PT"]),
    ("Our warehouse is in Azambuja.", "en", ["PT"]),
    # a surname is no town: not after "em"/"en"/"in"
    ("O Dr. Sousa e a Dra. Serra responderam.", "pt", []),
    # nor a town name written in lower case
    ("tenho uma casa em varginha", "pt", []),
])
def test_a_town_is_read_as_a_capitalised_name_after_a_place_preposition(text, language, codes):
    assert [m.code for m in find_mentions(text, tokenize(text), language)] == codes
