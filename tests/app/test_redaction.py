"""Taxpayer identifiers, phones, e-mails and names never reach the feedback database or the logs; ordinary numbers
in tax questions (amounts, dates, article numbers, percentages) survive untouched.

The identifiers below are valid by their check digits (checked by hand against each scheme's published rule);
the phone numbers are valid numbers of their country's numbering plan."""
import json

import pytest

from app_support.redaction import redact, redact_data
from config import load_settings
from ingest.index import CHUNKS_FILE

# (text, the secret as written, label)
IDENTIFIERS = [
    # Portugal: NIF / NIPC
    ("O meu NIF é 123456789.", "123456789", "NIF"),
    ("NIF123456789 do cliente", "123456789", "NIF"),
    ("contribuinte n.º 123.456.789", "123.456.789", "NIF"),
    ("contribuinte 501 964 843", "501 964 843", "NIF"),
    ("NIF PT501964843 na fatura", "PT501964843", "NIF"),
    ("NIPC 500-100-144, sociedade anónima", "500-100-144", "NIF"),
    ("nif:245678905", "245678905", "NIF"),
    ("contribuinte 987654322 (não residente)", "987654322", "NIF"),
    # Portugal: phones
    ("ligue para 21 123 4567", "21 123 4567", "TELEFONE"),
    ("telemóvel 91 234 5678", "91 234 5678", "TELEFONE"),
    ("telemóvel 912-345-678", "912-345-678", "TELEFONE"),
    ("whatsapp 351912345678", "351912345678", "TELEFONE"),
    ("ligue +351 912 345 678", "+351 912 345 678", "TELEFONE"),
    ("ligue +351912345678", "+351912345678", "TELEFONE"),
    ("ligue 00351 912 345 678", "00351 912 345 678", "TELEFONE"),
    ("escritório (+351) 213 456 789", "213 456 789", "TELEFONE"),
    ("telemóvel 912345678", "912345678", "TELEFONE"),
    ("fixo 213 456 789", "213 456 789", "TELEFONE"),
    ("tel. 912.345.678", "912.345.678", "TELEFONE"),
    ("Porto: +351 22 123 4567", "+351 22 123 4567", "TELEFONE"),
    # Brazil: CPF / CNPJ
    ("CPF 529.982.247-25", "529.982.247-25", "CPF"),
    ("cpf 52998224725 do titular", "52998224725", "CPF"),
    ("CPF 123456789-09", "123456789-09", "CPF"),
    ("CPF 111 444 777 35", "111 444 777 35", "CPF"),
    ("CNPJ 11.222.333/0001-81", "11.222.333/0001-81", "CNPJ"),
    ("empresa 11222333000181", "11222333000181", "CNPJ"),
    # Brazil: phones
    ("celular 11 91234-5678", "11 91234-5678", "TELEFONE"),
    ("celular (11) 98765-4321", "(11) 98765-4321", "TELEFONE"),
    ("celular +55 11 98765-4321", "+55 11 98765-4321", "TELEFONE"),
    ("fixo +55 (21) 2345-6789", "+55 (21) 2345-6789", "TELEFONE"),
    ("fixo (21) 2345-6789", "(21) 2345-6789", "TELEFONE"),
    ("zap 5511987654321", "5511987654321", "TELEFONE"),
    ("ligue 011 98765-4321", "98765-4321", "TELEFONE"),
    # Spain: DNI / NIE / CIF
    ("DNI 12345678Z", "12345678Z", "NIF"),
    ("NIF español 12345678-Z", "12345678-Z", "NIF"),
    ("dni 98765432m en minúsculas", "98765432m", "NIF"),
    ("NIE X1234567L", "X1234567L", "NIE"),
    ("NIE Y-1234567-X", "Y-1234567-X", "NIE"),
    ("NIE Z7654321H", "Z7654321H", "NIE"),
    ("sociedad B12345674", "B12345674", "NIF"),
    ("CIF A58102237", "A58102237", "NIF"),
    # Spain: phones
    ("móvil +34 612 34 56 78", "+34 612 34 56 78", "TELEFONE"),
    ("móvil 612 34 56 78", "612 34 56 78", "TELEFONE"),
    ("tel 0034612345678", "0034612345678", "TELEFONE"),
    ("Madrid 91 123 45 67", "91 123 45 67", "TELEFONE"),
    ("oficina +34 912 345 678", "+34 912 345 678", "TELEFONE"),
    # Japan: phones and My Number
    ("携帯 090-1234-5678", "090-1234-5678", "TELEFONE"),
    ("Tokyo office 03-1234-5678", "03-1234-5678", "TELEFONE"),
    ("mobile +81 90 1234 5678", "+81 90 1234 5678", "TELEFONE"),
    ("office +81-3-1234-5678", "+81-3-1234-5678", "TELEFONE"),
    ("Osaka (06) 6123-4567", "(06) 6123-4567", "TELEFONE"),
    ("My Number 1234 5678 9018", "1234 5678 9018", "MY NUMBER"),
    # IBAN
    ("IBAN PT50 0002 0123 1234 5678 9015 4.", "PT50 0002 0123 1234 5678 9015 4", "IBAN"),
    ("cuenta ES9121000418450200051332", "ES9121000418450200051332", "IBAN"),
    ("cuenta ES91 2100 0418 4502 0005 1332 a mi nombre", "ES91 2100 0418 4502 0005 1332", "IBAN"),
    ("conta BR1800360305000010009795493C1", "BR1800360305000010009795493C1", "IBAN"),
    ("iban pt50000201231234567890154", "pt50000201231234567890154", "IBAN"),
    # e-mail
    ("escreva para joao.silva+ir@example.com.br", "joao.silva+ir@example.com.br", "EMAIL"),
    ("contacto: ANA@EXAMPLE.ES", "ANA@EXAMPLE.ES", "EMAIL"),
    ("maria_lopes@correo.gob.es respondeu", "maria_lopes@correo.gob.es", "EMAIL"),
    # e-mail written to dodge a filter
    ("escreva para joao [at] gmail [dot] com", "joao [at] gmail [dot] com", "EMAIL"),
    ("contacto joao (at) gmail (dot) com", "joao (at) gmail (dot) com", "EMAIL"),
    ("email: joao arroba gmail ponto com", "joao arroba gmail ponto com", "EMAIL"),
    ("correo ana.lopes [arroba] correo [punto] es", "ana.lopes [arroba] correo [punto] es", "EMAIL"),
    ("maria (at) empresa (dot) com (dot) br", "maria (at) empresa (dot) com (dot) br", "EMAIL"),
    ("mail me: john.doe at example dot org", "john.doe at example dot org", "EMAIL"),
    ("pedro{at}firma{dot}pt", "pedro{at}firma{dot}pt", "EMAIL"),
    ("rosa @ sapo.pt respondeu", "rosa @ sapo.pt", "EMAIL"),
    # Portugal: NISS (social security), by its check digit
    ("NISS 12345678902", "12345678902", "NISS"),
    ("n.º de segurança social 11084129986", "11084129986", "NISS"),
    ("segurança social: 20000000001 (trabalhador)", "20000000001", "NISS"),
    ("NISS 123 4567 8902", "123 4567 8902", "NISS"),
    ("o meu NISS é 1234.567.890.2", "1234.567.890.2", "NISS"),
    # passports: PT and BR (two letters, six digits), ES (three letters, six), JP (two letters, seven)
    ("passaporte CB123456", "CB123456", "PASSAPORTE"),
    ("passaporte n.º C123456 emitido em Lisboa", "C123456", "PASSAPORTE"),
    ("passaporte brasileiro FZ123456", "FZ123456", "PASSAPORTE"),
    ("pasaporte PAA123456", "PAA123456", "PASSAPORTE"),
    ("mi pasaporte número XDA654321 caduca", "XDA654321", "PASSAPORTE"),
    ("passport TK1234567", "TK1234567", "PASSAPORTE"),
    ("Passport No. mz7654321", "mz7654321", "PASSAPORTE"),
    ("com o documento GB987654 na fronteira", "GB987654", "PASSAPORTE"),
    ("viajei com o TR7654321 para Tóquio", "TR7654321", "PASSAPORTE"),
    # names after a self-introduction, a label or a sign-off
    ("Chamo-me João da Silva e sou residente em Portugal", "João da Silva", "NOME"),
    ("Olá, meu nome é Ana Sousa.", "Ana Sousa", "NOME"),
    ("O meu nome é Maria dos Santos Ferreira, reformada", "Maria dos Santos Ferreira", "NOME"),
    ("Boa tarde, me chamo Luiz Inácio e moro em São Paulo", "Luiz Inácio", "NOME"),
    ("Sou o Pedro Almeida, trabalho em Tóquio", "Pedro Almeida", "NOME"),
    ("Sou a Beatriz, sócia da empresa", "Beatriz", "NOME"),
    ("Me llamo Juan García López, vivo en Madrid", "Juan García López", "NOME"),
    ("Hola, mi nombre es Lucía Fernández", "Lucía Fernández", "NOME"),
    ("Soy Carmen de la Fuente y cobro una pensión", "Carmen de la Fuente", "NOME"),
    ("My name is John Smith and I live in Lisbon", "John Smith", "NOME"),
    ("Hello, my name's Emily O'Brien", "Emily O'Brien", "NOME"),
    ("Nome: Carlos Pereira\nNIF em anexo", "Carlos Pereira", "NOME"),
    ("Nombre completo: José Martínez-Ruiz", "José Martínez-Ruiz", "NOME"),
    ("Atenciosamente,\nMaria Fernandes", "Maria Fernandes", "NOME"),
    ("Un saludo,\nJavier Ortega", "Javier Ortega", "NOME"),
    ("Best regards,\nHiroshi Tanaka", "Hiroshi Tanaka", "NOME"),
    ("Cliente: Ana-Rita Moreira pediu a taxa", "Ana-Rita Moreira", "NOME"),
]


@pytest.mark.parametrize("text, secret, label", IDENTIFIERS, ids=[s for _t, s, _l in IDENTIFIERS])
def test_identifiers_are_replaced_by_their_label(text, secret, label):
    out = redact(text)
    assert secret not in out, out
    assert f"[{label}]" in out, out
    digits = "".join(ch for ch in secret if ch.isdigit())
    assert not digits or digits[-4:] not in "".join(ch for ch in out if ch.isdigit()), out


ORDINARY = [
    # percentages
    "Recebo dividendos do Brasil com 30% de participação, detida há 24 meses.",
    "Taxa de 15% ou 10%; 12,5% em 2023; 0,5 % de juros; 7.5 percent.",
    "Retenção de 25 por cento sobre 100%.",
    # dates and periods
    "Estive 183 dias em Espanha em 2024, de 2024-01-01 a 2024-06-30 (01/07/2024 regressei).",
    "Entre 01.01.2023 e 31.12.2023, e de 1 de janeiro de 2019 a 2024.",
    "Nos anos 2019-2024 e 1990/1991; período de 12 meses com início em 20240101.",
    "Às 10:30 de 2025-03-15T09:45:00, reunião às 12h30.",
    # articles, laws, paragraphs
    "Aplica-se o art. 10(2)(a) e o artigo 23.º, n.º 2, do Protocolo 4.",
    "Decreto n.º 76.975/1976 e Resolução n.º 33/2001; taxa de 15% ou 10%.",
    "Lei n.º 2/2014, DL 442-A/88, art. 4.º, n.º 1, alínea a), e Decreto-Lei n.º 215/89.",
    "Convenção de 16 de maio de 2000, artigos 10, 11 e 12; ponto 5 do Protocolo.",
    # amounts
    "Juros de um empréstimo de EUR 1.000.000 a 7 anos; 100000 euros por ano; 1 500 000 €.",
    "Dividendos de R$ 1.234.567,89 e de € 123.456.789 por ano.",
    "Um montante de 123.456.789 euros e US$ 2,500,000 de royalties.",
    "Remuneração de 1 234 567 890 euros; ¥ 12,000,000; JPY 5.000.000.",
    "Salário anual de 45 000 € e 3.000 € por mês (25.000,00 EUR).",
    "Valor de 912 345 678 €.",
    # other numbers that are not identifiers
    "referência 123456788 do processo",
    "ISBN 978-972-40-1234-5 e 5 exemplares.",
    "O capital de 250000000 está dividido em 10 000 000 ações.",
    # what a self-introduction or a passport shape must not take
    "Sou residente em Portugal e recebo dividendos do Brasil.",
    "Soy residente fiscal en España desde 2020.",
    "Sou o único sócio e detenho 100% do capital.",
    "Soy Español y vivo en Brasil.",
    "My name is on the contract; the rate is 15%.",
    "Sou o Residente e a outra parte é a fonte.",
    "Pagamento de EUR123456 e USD1234567 em 2024.",
    "Decreto-Lei n.º 442-A/88 e Portaria n.º 1234/2001.",
    "Obrigado pela ajuda! A taxa é de 10% desde 2023-01-01.",
    "Um montante de 12345678901 euros.",
    "Fiquei 90 dias at home, a 20 km.",
    "Artigos 10, 11 e 12 (juros a 15%; royalties a 10%).",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_numbers_are_kept(text):
    assert redact(text) == text


def test_the_table_is_large_enough():
    assert len(IDENTIFIERS) + len(ORDINARY) >= 120


def test_several_identifiers_in_one_comment():
    out = redact("Cliente CPF 529.982.247-25, tel. (11) 98765-4321, joao@example.pt, taxa de 15% desde 2024-01-01.")
    assert out == "Cliente CPF [CPF], tel. [TELEFONE], [EMAIL], taxa de 15% desde 2024-01-01."


def test_nested_data_is_redacted_and_keys_kept():
    data = {"quote": "NIF 123456789", "items": [{"q": "CPF 529.982.247-25"}, 15.0], "rate": 10}
    assert redact_data(data) == {"quote": "NIF [NIF]", "items": [{"q": "CPF [CPF]"}, 15.0], "rate": 10}


def test_treaty_passages_are_never_redacted():
    """Answers stored with feedback quote the treaties: their numbers must all survive."""
    chunks = load_settings().index_dir / CHUNKS_FILE
    if not chunks.is_file():
        pytest.fail(f"índice em falta em {chunks.parent}: corra `python -m ingest`")
    texts = [json.loads(line)["text"] for line in chunks.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert texts
    changed = [t[:80] for t in texts if redact(t) != t]
    assert not changed, changed
