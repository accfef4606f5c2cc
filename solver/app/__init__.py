"""The application layer: what a user asks of kakapo, as the documents both front ends print or
serve. The command line (``cli``) parses, calls a function here and formats; the studio's routers
(``studio``) validate, call and return. Each rule of a request (the table's size, the people's
seats, the policies and their defaults, the job kinds) is said once, here.

``inputs``: resolving what a request names (missions, catalogs, logs, seats, pieces);
``outputs``: the outputs it names, refused before any work when they cannot be written;
``policies``: the simulated players and their defaults; ``registry``: the job kinds, each with
its runner and its words (``jobwords``, ``jobmeaning``); ``solving``: solve, count and the checks
a mission text gets; ``measuring``: simulate, chance, ceiling, ladder, validate, generate;
``reporting``: the batch report; ``campaign``: the campaign measured for a catalog; ``listing``:
the missions listed with their figures; ``games``: play (bots, people in the terminal), review and
rate; ``jobs``: the long work as the studio runs it; ``catalogs``: a piece catalog's text checked
(the studio's piece editor); a game played with the printed cards: ``sheets`` (its sheet),
``taps`` (entered tap by tap), ``recordings`` (the studio's Record tab) and ``refusals`` (what the
rules refuse of it, in a person's words).
"""
