"""The `kakapo` command group, which every command module adds its commands to."""

from __future__ import annotations

import gc

import click


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="kakapo")
def main():
    """kakapo: mission solver and difficulty analyzer for The KAKAPO Buddy & Party."""
    # Numba's first compile allocates millions of short-lived objects: with Python's default
    # thresholds the cycle collector runs every 700 allocations, 7 % of a first `simulate`
    # (benchmarks/RESULTS.md). A command is a short process: collect less often.
    gc.set_threshold(100_000, 50, 100)
