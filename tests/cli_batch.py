"""Run kakapo commands one after the other in this process (click's test runner): what
tests/test_entry_kernels.py runs in a process built the users' way. It imports nothing of the
tests (tests/conftest.py switches the tests' build on at import)."""

import json
import sys


def run_here(commands: list, folder: str) -> list:
    """[exit code, stdout, exception or None] of each command; ``{folder}`` in an argument is replaced."""
    from click.testing import CliRunner

    from solver.cli import main

    out = []
    for args in commands:
        r = CliRunner().invoke(main, [a.replace("{folder}", folder) for a in args])
        failed = r.exception is not None and not isinstance(r.exception, SystemExit)
        out.append([r.exit_code, r.stdout, repr(r.exception) if failed else None])
    return out


if __name__ == "__main__":  # python tests/cli_batch.py ROOT COMMANDS_JSON FOLDER
    sys.path.insert(0, sys.argv[1])
    print(json.dumps(run_here(json.loads(sys.argv[2]), sys.argv[3])))
