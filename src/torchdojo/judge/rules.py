"""Static rules, checked in the trusted parent on the submission's source (Python's ``ast``).

Resolves import aliases (``import torch.nn.functional as F`` makes ``F.softmax`` the dotted
name ``torch.nn.functional.softmax``) and method calls on any object (``x.softmax(...)``
matches a banned ``torch.Tensor.softmax``). Dynamic tricks (``getattr(torch, "soft"+"max")``)
are caught by the run-time trace in the child; see :mod:`torchdojo.judge.runtime`.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from torchdojo.judge.challenge import Rules


@dataclass(frozen=True)
class Finding:
    line: int
    message: str


class SourceError(Exception):
    """The submission does not parse: ``line`` and ``message`` say where and why."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line, self.message = line, message


def _dotted(node: ast.AST, aliases: dict[str, str]) -> str | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(aliases.get(node.id, node.id))
    return ".".join(reversed(parts))


def check_source(source: str, rules: Rules) -> list[Finding]:
    """Rule findings for ``source``. Raises :class:`SourceError` if it does not parse."""
    try:
        tree = ast.parse(source, filename="solution.py")
    except SyntaxError as e:
        raise SourceError(e.lineno or 1, f"{e.msg}") from e
    for parent in ast.walk(tree):
        for child in ast.iter_child_nodes(parent):
            child._td_parent = parent  # type: ignore[attr-defined]
    banned = set(rules.banned_calls)
    methods = {b.rsplit(".", 1)[1] for b in banned if b.startswith("torch.Tensor.")}
    imports = set(rules.banned_imports)
    aliases: dict[str, str] = {}  # local name -> dotted module/object path
    findings: list[Finding] = []

    def add(node: ast.AST, message: str) -> None:
        findings.append(Finding(getattr(node, "lineno", 1), message))

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] in imports:
                    add(node, f"import of '{a.name}' is not allowed here")
                if a.asname:
                    aliases[a.asname] = a.name
                else:
                    aliases[a.name.split(".")[0]] = a.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module.split(".")[0] in imports:
                add(node, f"import from '{node.module}' is not allowed here")
            for a in node.names:
                aliases[a.asname or a.name] = f"{node.module}.{a.name}"
    modules = {v.split(".")[0] for v in aliases.values()}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            name = _dotted(node, aliases)
            if name in banned:
                add(node, f"'{name}' is not allowed in this challenge")
            elif (node.attr in methods and isinstance(node._td_parent, ast.Call)  # type: ignore[attr-defined]
                  and node._td_parent.func is node and (name is None or name.split(".")[0] not in modules)):
                add(node, f"the method '.{node.attr}()' (torch.Tensor.{node.attr}) is not allowed in this challenge")
        elif isinstance(node, ast.Name) and aliases.get(node.id) in banned:
            add(node, f"'{aliases[node.id]}' is not allowed in this challenge")
        elif isinstance(node, ast.ImportFrom) and node.module:
            for a in node.names:
                if f"{node.module}.{a.name}" in banned:
                    add(node, f"'{node.module}.{a.name}' is not allowed in this challenge")
        elif isinstance(node, (ast.For, ast.AsyncFor)) and "for" in rules.banned_constructs:
            add(node, "a Python for-loop is not allowed: vectorise with tensor ops")
        elif isinstance(node, ast.While) and "while" in rules.banned_constructs:
            add(node, "a while-loop is not allowed: vectorise with tensor ops")
        elif isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)) and (
                "comprehension" in rules.banned_constructs):
            add(node, "a comprehension is not allowed: vectorise with tensor ops")
    uniq = {(f.line, f.message): f for f in findings}
    return sorted(uniq.values(), key=lambda f: f.line)
