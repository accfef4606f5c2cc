"""Tests of solver/studio/: the studio's API through Starlette's test client (and a studio process where a
test needs one)."""
