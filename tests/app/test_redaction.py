"""Taxpayer identifiers must never reach the feedback database or the logs; ordinary numbers must survive."""
import pytest

from app_support.redaction import redact, redact_data

IDENTIFIERS = [
    ("O meu NIF é 123456789.", "123456789", "[NIF]"),
    ("contribuinte 501 964 843", "501 964 843", "[NIF]"),
    ("NIF PT501964843 na fatura", "PT501964843", "[NIF]"),
    ("CPF 529.982.247-25", "529.982.247-25", "[CPF]"),
    ("cpf 52998224725 do titular", "52998224725", "[CPF]"),
    ("CNPJ 11.222.333/0001-81", "11.222.333/0001-81", "[CNPJ]"),
    ("empresa 11222333000181", "11222333000181", "[CNPJ]"),
    ("DNI 12345678Z", "12345678Z", "[NIF]"),
    ("NIF español 12345678-Z", "12345678-Z", "[NIF]"),
    ("NIE X1234567L", "X1234567L", "[NIE]"),
    ("NIE Y-1234567-X", "Y-1234567-X", "[NIE]"),
    ("sociedad B12345674", "B12345674", "[NIF]"),
    ("IBAN PT50 0002 0123 1234 5678 9015 4.", "PT50 0002 0123 1234 5678 9015 4", "[IBAN]"),
    ("cuenta ES9121000418450200051332", "ES9121000418450200051332", "[IBAN]"),
    ("conta BR1800360305000010009795493C1", "BR1800360305000010009795493C1", "[IBAN]"),
    ("escreva para joao.silva+ir@example.com.br", "joao.silva+ir@example.com.br", "[EMAIL]"),
    ("ligue +351 912 345 678", "+351 912 345 678", "[TELEFONE]"),
    ("telemóvel 912345678", "912345678", "[TELEFONE]"),
    ("fixo 213 456 789", "213 456 789", "[TELEFONE]"),
    ("celular +55 11 98765-4321", "+55 11 98765-4321", "[TELEFONE]"),
    ("celular (11) 98765-4321", "(11) 98765-4321", "[TELEFONE]"),
    ("móvil +34 612 34 56 78", "+34 612 34 56 78", "[TELEFONE]"),
    ("móvil 612 34 56 78", "612 34 56 78", "[TELEFONE]"),
    ("tel 0034612345678", "0034612345678", "[TELEFONE]"),
]


@pytest.mark.parametrize("text, identifier, label", IDENTIFIERS)
def test_identifiers_are_replaced_by_their_label(text, identifier, label):
    out = redact(text)
    assert identifier not in out
    assert label in out
    digits = "".join(ch for ch in identifier if ch.isdigit())
    if digits:
        assert digits[-6:] not in "".join(ch for ch in out if ch.isdigit())


ORDINARY = [
    "Recebo dividendos do Brasil com 30% de participação, detida há 24 meses.",
    "Estive 183 dias em Espanha em 2024, de 2024-01-01 a 2024-06-30 (01/07/2024 regressei).",
    "Aplica-se o art. 10(2)(a) e o artigo 23.º, n.º 2, do Protocolo 4.",
    "Juros de um empréstimo de EUR 1.000.000 a 7 anos; 100000 euros por ano; 1 500 000 €.",
    "Decreto n.º 76.975/1976 e Resolução n.º 33/2001; taxa de 15% ou 10%.",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_numbers_are_kept(text):
    assert redact(text) == text


def test_a_nine_digit_number_failing_the_nif_check_and_not_a_phone_is_kept():
    assert redact("referência 123456788") == "referência 123456788"


def test_nested_data_is_redacted_and_keys_kept():
    data = {"quote": "NIF 123456789", "items": [{"q": "CPF 529.982.247-25"}, 15.0], "rate": 10}
    assert redact_data(data) == {"quote": "NIF [NIF]", "items": [{"q": "CPF [CPF]"}, 15.0], "rate": 10}
