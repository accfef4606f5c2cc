"""The `kakapo` command group, which every command module adds its commands to. A command's module
is imported only when that command runs (or help lists them all), so that `kakapo solve` does not
pay for the imports of `kakapo report`."""

from __future__ import annotations

import gc
import importlib

import click

# the module of each command (solver.cli.<module>)
COMMANDS = {
    "solve": "puzzle", "show": "puzzle", "pieces": "puzzle", "list": "puzzle",
    "play": "games", "review": "games", "rate": "games", "record": "games",
    "simulate": "measure", "chance": "measure", "ceiling": "measure", "ladder": "measure", "validate": "measure",
    "generate": "measure", "report": "measure", "campaign": "measure",
    "studio": "serve", "calibrate": "tables",
    "print": "printing", "pack": "printing", "unpack": "printing",
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in COMMANDS and name not in self.commands:
            importlib.import_module(f"solver.cli.{COMMANDS[name]}")
        return super().get_command(ctx, name)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="kakapo")
def main():
    """kakapo: mission solver and difficulty analyzer for The KAKAPO Buddy & Party."""
    # Numba's first compile allocates millions of short-lived objects: with Python's default
    # thresholds the cycle collector runs every 700 allocations, 7 % of a first `simulate`
    # (benchmarks/RESULTS.md). A command is a short process: collect less often.
    gc.set_threshold(100_000, 50, 100)
