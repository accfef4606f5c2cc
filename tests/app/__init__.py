"""Tests of solver/app/: the use cases and their registries, as the command line and the studio call them."""
