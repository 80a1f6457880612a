"""Regenerates lexicon_pt_es.tsv (word, Zipf frequency in Portuguese, in Spanish) from wordfreq.

Run once by hand where `wordfreq` is installed: `python ingest/data/make_lexicon.py`. The product
code only reads the TSV, so wordfreq is not a runtime dependency.
"""
from __future__ import annotations

import re
from pathlib import Path

import wordfreq

MIN_ZIPF = 2.5
WORD = re.compile(r"^[^\W\d_]+$")
OUT = Path(__file__).resolve().parent / "lexicon_pt_es.tsv"


def main() -> None:
    words: set[str] = set()
    for lang in ("pt", "es"):
        words |= {w for w in wordfreq.get_frequency_dict(lang)
                  if WORD.match(w) and wordfreq.zipf_frequency(w, lang) >= MIN_ZIPF}
    rows = sorted(words)
    with OUT.open("w", encoding="utf-8") as fh:
        fh.write("# word\tzipf_pt\tzipf_es  (source: wordfreq 3.x; regenerate with make_lexicon.py)\n")
        for w in rows:
            fh.write(f"{w}\t{wordfreq.zipf_frequency(w, 'pt'):.2f}\t{wordfreq.zipf_frequency(w, 'es'):.2f}\n")


if __name__ == "__main__":
    main()
