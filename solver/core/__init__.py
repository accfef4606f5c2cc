"""The game's rules as data: cells and shapes, cards, the placement and scanning rules, the
numbers of a game (``GameSpec``), named codes and errors. No I/O and no heavy imports: every
other layer builds on this one."""
