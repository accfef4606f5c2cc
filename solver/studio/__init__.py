"""`kakapo studio`: a local web page to draw a mission and see it checked, solved and rated.

A layer above analysis/, like cli.py: ``app`` builds the FastAPI application from routers per
resource (``routers/``), with request and response models at the edge (``models``) and the
security rules in one middleware (``security``); long work runs in worker processes
(``jobs``); ``server`` binds the port and serves with uvicorn. No game or puzzle logic lives
here: the handlers call the application layer (solver/app/), as the command line does.
"""
