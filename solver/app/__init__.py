"""The application layer: what a user asks of kakapo, as the documents both front ends print or
serve. The command line (``cli``) parses, calls a function here and formats; the studio's routers
(``studio``) validate, call and return. Each rule of a request (the table's size, the people's
seats, the policies and their defaults, the job kinds) is said once, here.

``inputs``: resolving what a request names (missions, catalogs, logs, seats, pieces);
``registry``: the policies and the job kinds; ``solving``: solve, count and the checks a mission
text gets; ``measuring``: simulate, ceiling, ladder, validate, generate, report; ``games``: play,
review and rate; ``jobs``: the long work as the studio runs it; ``catalogs``: a piece
catalog's text checked (the studio's piece editor); a game played with the printed cards:
``sheets`` (its sheet), ``taps`` (entered tap by tap), ``recordings`` (the studio's Record tab)
and ``refusals`` (what the rules refuse of it, in a person's words).
"""
