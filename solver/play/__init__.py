"""Interactive play: one game at a time, as people play it.

``question``: a decision of a seat as a person is asked it (any front end); ``terminal``: the
terminal seat (`play --human`); ``table``: a game at the studio's table, people on their seat
links and bots; ``games``: one game told round by round (`kakapo play`), from its deal or a logged
moment, by bots, the open-hand team, or a person in the terminal.
"""
