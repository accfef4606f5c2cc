"""The test suite, in folders that mirror the packages of solver/ (tests/helpers: what they share)."""
