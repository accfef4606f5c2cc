"""kakapo: mission solver and difficulty analyzer for The KAKAPO Buddy & Party.

The package keeps its rules core (cards, board geometry, rules) free of I/O
and of heavy imports; file parsing, the CP-SAT model, the simulators and the
plotting live in their own modules and are imported only where needed.
"""

__version__ = "0.1.0"
