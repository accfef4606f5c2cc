"""Tests of solver/openhand/: the open-hand ceiling, its witnesses and the exact model of a deal."""
