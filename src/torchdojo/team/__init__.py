"""Team server: accounts, roles, rate limits and the coach's view of a cohort.

- :mod:`torchdojo.team.accounts`: invitation-based sign-up, argon2id passwords, server-side
  log-in sessions with a CSRF token each, roles learner / coach / admin.
- :mod:`torchdojo.team.ratelimit`: log-in attempts and submissions per client (the ``limits``
  library; Redis storage in team mode so every web process counts together).
- :mod:`torchdojo.team.cohort`: what a coach sees (progress per topic and level, mock scores,
  retention, who has not practised), assignments and comments.
- :mod:`torchdojo.team.peer`: peer mock interviews (two learners of a cohort interview each
  other in interviewer mode, swap, and each keeps both scorecards).

Each learner's practice data is in a learner store of its own (:mod:`torchdojo.store.learners`):
isolation between learners holds by construction, not by a ``WHERE`` in every query.
Nothing here imports the web or the CLI.
"""
