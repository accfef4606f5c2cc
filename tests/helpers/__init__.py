"""What the tests share, in one place: a test file imports from here (and from conftest's fixtures,
by name), never from another test file (tests/house/test_tests_by_layer.py holds them to it)."""
