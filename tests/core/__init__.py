"""Tests of solver/core/: value types and the board's rules."""
