"""The judge: strict, sandboxed grading of code submissions against hidden tests.

Trust boundary (see docs/judge.md): untrusted user code only ever runs in a sandboxed child
whose one job is to compute outputs for inputs it is given and hand them back as data
(JSON + safetensors; never pickle). Everything that decides a verdict — the reference
solution, expected values, hidden-test generators, comparisons and tolerances — stays in the
trusted parent (:mod:`torchdojo.judge.grade`).

Modules: ``verdicts`` (names), ``challenge`` (the bank format), ``testing`` (what a challenge's
``tests.py`` uses), ``rules`` (static AST rules), ``wire`` (the data format between parent and
child), ``runtime`` (the child side), ``compare`` (trusted comparisons), ``backends`` (where
the child runs: the isolated fork server, or an explicitly unsafe local subprocess),
``grade`` (orchestration: a submission in, a report out).
"""
