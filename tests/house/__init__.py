"""Checks of the whole tree: layers and imports, packaging, the rules' coverage, the tests' own layout."""
