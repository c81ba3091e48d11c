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


#: Names (attributes, variables, string constants) that reach the interpreter's internals: frames,
#: closures, the garbage collector, audit hooks. Never needed by a solution; how a submission
#: would reach the judge's runtime in its own process (its nonce, its trace). Refused in every
#: challenge; the run-time guard (runtime.install_guard) refuses the dynamic routes.
INTROSPECTION_NAMES = frozenset({
    "_getframe", "_current_frames", "_current_exceptions", "currentframe", "settrace", "setprofile", "f_back",
    "f_locals", "f_globals", "f_builtins", "f_code", "tb_frame", "tb_next", "gi_frame", "cr_frame", "ag_frame",
    "__closure__", "cell_contents", "__globals__", "__code__", "__builtins__", "__subclasses__",
    "__getattribute__", "get_referrers", "get_referents", "get_objects", "addaudithook", "FrameType", "CodeType",
    "FunctionType", "CellType",
})
INTROSPECTION_MODULES = frozenset({"gc", "inspect", "ctypes", "_ctypes", "importlib", "pickle", "_pickle", "marshal",
                                   "dill", "cloudpickle", "code", "codeop", "runpy", "pdb", "bdb", "faulthandler",
                                   "torchdojo", "copyreg"})
#: Where a challenge bans calls or ops, the trace of what ran must not be switched off: torch's
#: escape hatches from its own modes, and names built at run time.
TRACE_TAMPERING_NAMES = frozenset({
    "_get_current_function_mode_stack", "_get_current_dispatch_mode_stack", "DisableTorchFunction",
    "DisableTorchFunctionSubclass", "_DisableTorchDispatch", "_disable_current_modes", "_pop_mode",
    "_pop_mode_temporarily", "_push_mode", "_pop_torch_function_stack", "_pop_torch_dispatch_stack",
    "_push_on_torch_function_stack", "_push_on_torch_dispatch_stack", "_unset_dispatch_mode", "_set_dispatch_mode",
    "_disabled_torch_function_impl", "__torch_function__", "__torch_dispatch__", "_get_function_stack_at",
    "_get_dispatch_stack_at", "_len_torch_function_stack", "_len_torch_dispatch_stack", "TorchFunctionMode",
    "TorchDispatchMode", "_ExcludeDispatchKeyGuard", "_ForceDispatchKeyGuard", "_DisableFuncTorch",
    "_dispatch_tls_set_dispatch_key_excluded", "_python_dispatch", "overrides", "__dict__", "_set_torch_function_mode",
})
#: Code built at run time: it could name itself after a library file (``compile(src, "/usr/lib/...")``)
#: and so pass for library code in the run-time guard. Refused in every challenge.
RUNTIME_CODE = frozenset({"eval", "exec", "compile", "__import__", "breakpoint"})
DYNAMIC_CODE = frozenset({"vars", "globals", "locals", "attrgetter", "methodcaller"})
NAME_TAKING = frozenset({"getattr", "setattr", "delattr", "hasattr"})


def _introspection(tree: ast.AST, traced: bool, add) -> None:
    deny = INTROSPECTION_NAMES | (TRACE_TAMPERING_NAMES if traced else frozenset())
    why = "solutions may not inspect or change the interpreter's internals (the judge's runtime shares the process)"
    for node in ast.walk(tree):
        ident = None
        if isinstance(node, ast.Attribute):
            ident = node.attr
        elif isinstance(node, ast.Name):
            ident = node.id
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            ident = next((p for p in node.value.replace("/", ".").split(".") if p in deny), None)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            for n in names:
                if n.split(".")[0] in INTROSPECTION_MODULES:
                    add(node, f"import of '{n}' is not allowed: {why}")
            if isinstance(node, ast.ImportFrom):
                for a in node.names:
                    if a.name in deny:
                        add(node, f"'{a.name}' is not allowed: {why}")
            continue
        if ident in deny:
            add(node, f"'{ident}' is not allowed: {why}")
        if ident in RUNTIME_CODE and isinstance(node, ast.Name):
            add(node, f"'{ident}' is not allowed: code built at run time cannot be checked by the judge")
        if not traced:
            continue
        if ident in DYNAMIC_CODE and (isinstance(node, ast.Name) or ident in ("attrgetter", "methodcaller")):
            add(node, f"'{ident}' is not allowed in a challenge with banned calls: code and names built at run "
                      "time would hide what runs from the judge")
        elif ident in NAME_TAKING and isinstance(node, ast.Name):
            call = getattr(node, "_td_parent", None)
            ok = (isinstance(call, ast.Call) and call.func is node and len(call.args) >= 2
                  and isinstance(call.args[1], ast.Constant) and isinstance(call.args[1].value, str))
            if not ok:
                add(node, f"'{ident}' with an attribute name computed at run time is not allowed in a challenge "
                          "with banned calls: write the name as a string literal")


def check_source(source: str, rules: Rules, traced: bool | None = None, introspection: bool = True) -> list[Finding]:
    """Rule findings for ``source``. Raises :class:`SourceError` if it does not parse.

    Every challenge refuses introspection (:data:`INTROSPECTION_NAMES`, :data:`INTROSPECTION_MODULES`);
    ``traced`` challenges (banned calls or ops, or a memory rule: the default is whether ``rules``
    bans anything) also refuse switching the trace off (:data:`TRACE_TAMPERING_NAMES`) and names
    or code built at run time (``eval``, ``getattr(obj, name)`` with a computed name).
    ``introspection=False`` skips all of these (only to test the sandbox's own layers)."""
    try:
        tree = ast.parse(source, filename="solution.py")
    except SyntaxError as e:
        raise SourceError(e.lineno or 1, f"{e.msg}") from e
    for parent in ast.walk(tree):
        for child in ast.iter_child_nodes(parent):
            child._td_parent = parent  # type: ignore[attr-defined]
    if traced is None:
        traced = bool(rules.banned_calls or rules.banned_ops)
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
    if introspection:
        _introspection(tree, traced, add)
    uniq = {(f.line, f.message): f for f in findings}
    return sorted(uniq.values(), key=lambda f: f.line)
