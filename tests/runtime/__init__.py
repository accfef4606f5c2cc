"""Tests of solver/runtime/: compiled kernels and their cache, workers and interruptions."""
