"""The isolated backend: a warm fork server and the layered OS limits of each job.

See ``isolation.py`` for what a job's process goes through before running user code,
``server.py`` for the fork server, and ``backend.py`` for the client the judge uses.
"""
