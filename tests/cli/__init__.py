"""Tests of solver/cli/: the commands as a person runs them (help, exit codes, outputs)."""
