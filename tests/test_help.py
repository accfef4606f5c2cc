"""Every command's --help shows an example that names the command."""

import pytest
from click.testing import CliRunner

from solver.cli import main

COMMANDS = ["solve", "show", "play", "simulate", "ceiling", "generate", "validate", "report", "ladder", "list",
            "review", "pieces", "studio", "rate", "chance", "campaign", "record", "calibrate", "print", "pack",
            "unpack"]


def test_every_command_is_checked():
    listed = main.list_commands(None)
    assert set(listed) == set(COMMANDS)
    assert all(main.get_command(None, name) is not None for name in listed)  # each module adds its commands


@pytest.mark.parametrize("command", COMMANDS)
def test_help_has_an_example(command):
    res = CliRunner().invoke(main, [command, "--help"])
    assert res.exit_code == 0
    lines = [ln.strip() for ln in res.output.splitlines()]
    assert any(ln.startswith(f"Example: kakapo {command} ") for ln in lines), res.output
