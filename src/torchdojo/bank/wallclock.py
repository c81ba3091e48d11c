"""Find assertions on measured time in a runnable example (issue 13: no wall-clock asserts).

An example that asserts ``t_loop > 3 * t_vmap`` passes on an idle machine and fails on a busy
one. :func:`timing_asserts` reads one block's code with :mod:`ast` and returns the lines whose
check depends on a time measurement, so the validator can refuse them at ``path:line``.

What counts as a measurement ("timed"):

- a call of ``time.perf_counter``, ``time.time``, ``time.monotonic``, ``time.process_time``,
  ``time.thread_time`` (and their ``_ns`` variants), ``timeit.timeit``/``repeat``/``default_timer``;
  a ``timeit.Timer`` or ``torch.utils.benchmark.Timer`` (so its ``.timeit()``,
  ``.blocked_autorange()``, ``.median``, ``.mean`` … are timed too); ``x.elapsed_time(…)``
  (CUDA events); profiler times (``cpu_time_total``, ``self_device_time_total``, …);
- whatever is computed from one: arithmetic, ``min``/``max``/``sum``/``sorted``/``statistics``,
  containers filled with ``append``/``extend``, comprehensions, names assigned under an ``if``
  on a timed condition, values returned by a function of the block that returns a timed value,
  and attributes ``self.x`` set to a timed value in a class of the block. Configuration read
  from a timer or measurement (``m.num_threads``, ``m.task_spec.label``…) is not timed.

What is refused: an ``assert`` whose condition is timed; a call of ``self.assert*``,
``torch.testing.assert_close`` or any other ``assert…`` function with a timed argument; an
``if`` on a timed condition whose branches ``raise``, ``assert`` or exit. Printing a timing is
fine. The analysis is per scope and in statement order (a name reassigned to an untimed value is
untimed again), but not exact: it errs towards flagging, and the author rewrites the check.

This module must not import torch (the loader runs at web-app start-up).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

TIME_FUNCS = frozenset(
    f"time.{name}{ns}"
    for name in ("perf_counter", "time", "monotonic", "process_time", "thread_time")
    for ns in ("", "_ns")
) | {"timeit.timeit", "timeit.repeat", "timeit.default_timer"}
TIMER_CLASSES = frozenset({
    "timeit.Timer", "torch.utils.benchmark.Timer", "torch.utils.benchmark.utils.timer.Timer",
})
#: Methods whose result is a duration whatever the object (``torch.cuda.Event.elapsed_time``).
TIME_METHODS = frozenset({"elapsed_time"})
#: Attributes that hold measured durations whatever the object (profiler events, measurements).
TIME_ATTRS = frozenset({
    "cpu_time", "cpu_time_total", "self_cpu_time_total", "cuda_time", "cuda_time_total",
    "self_cuda_time_total", "device_time", "device_time_total", "self_device_time_total",
    "cpu_time_str", "cuda_time_str", "device_time_str", "time_range",
})
#: Attributes of a timer or measurement that are its configuration, not a duration
#: (``m.num_threads``, ``m.task_spec.label``): reading them is not reading a timing.
CONFIG_ATTRS = frozenset({
    "num_threads", "task_spec", "label", "sub_label", "description", "env", "stmt", "setup",
    "global_setup", "language", "title",
})
#: Methods that put their arguments into the object they are called on.
_MUTATORS = frozenset({"append", "extend", "insert", "add", "update", "setdefault", "appendleft", "extendleft",
                       "put", "push", "__setitem__"})
_EXITS = frozenset({"exit", "sys.exit", "os._exit", "quit"})

#: Every source above needs one of these words in the code; blocks without any skip the parse.
_MAYBE_TIMED = re.compile(r"\btime\b|timeit|Timer|benchmark|elapsed_time|_time|time_range")

Taint = bool | tuple  # a tuple when the value is a tuple literal: one Taint per element


def _any(t: Taint) -> bool:
    return any(_any(x) for x in t) if isinstance(t, tuple) else bool(t)


def _join(a: Taint, b: Taint) -> Taint:
    if isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b):
        return tuple(_join(x, y) for x, y in zip(a, b, strict=True))
    return _any(a) or _any(b)


@dataclass(frozen=True)
class TimingAssert:
    """A check at ``lineno`` (1-based, within the block's code) that depends on measured time."""

    lineno: int
    kind: str  # 'assert', 'assert call' or 'if … raise'
    source: str  # the checked expression, shortened
    timed: tuple[str, ...]  # names in it that hold measured time (may be empty: a direct call)


def _bound_names(body: list[ast.stmt]) -> set[str]:
    """Names a function body binds (its locals), not descending into nested scopes."""
    out: set[str] = set()
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            out.add(node.name)
            stack.extend(node.decorator_list)
            continue
        if isinstance(node, ast.Lambda | ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp):
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            out.add(node.id)
        elif isinstance(node, ast.alias):
            out.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            out.add(node.name)
        stack.extend(ast.iter_child_nodes(node))
    return out


@dataclass
class _Scope:
    parent: _Scope | None
    local: set[str] | None  # None: the module scope (every name is its own)
    tainted: set[str] = field(default_factory=set)  # timed now
    ever: set[str] = field(default_factory=set)  # timed at some point (what closures see)
    funcs: dict[str, ast.AST] = field(default_factory=dict)
    globals_: set[str] = field(default_factory=set)
    returns: list[Taint] = field(default_factory=list)  # what a function scope's `return`s give

    def owner(self, name: str) -> _Scope:
        """The scope a name lives in: the nearest that binds it (the module if none, or `global`)."""
        scope: _Scope = self
        while scope.parent is not None:
            if name in scope.globals_:
                while scope.parent is not None:
                    scope = scope.parent
                return scope
            if scope.local is not None and name in scope.local:
                return scope
            scope = scope.parent
        return scope

    def is_tainted(self, name: str) -> bool:
        scope = self.owner(name)
        return name in (scope.tainted if scope is self else scope.ever | scope.tainted)

    def set(self, name: str, timed: bool, strong: bool = True) -> None:
        scope = self.owner(name)
        if timed:
            scope.tainted.add(name)
            scope.ever.add(name)
        elif strong:
            scope.tainted.discard(name)

    def func(self, name: str) -> ast.AST | None:
        scope: _Scope | None = self
        while scope is not None:
            if name in scope.funcs:
                return scope.funcs[name]
            scope = scope.parent
        return None


class _Analysis:
    """One pass over a module; :func:`timing_asserts` repeats passes until the summaries settle."""

    def __init__(self, aliases: dict[str, str], summaries: dict[int, Taint], params: dict[int, set[str]],
                 time_attrs: set[str]) -> None:
        self.aliases = aliases  # local name -> dotted name it stands for (imports, `clock = time.perf_counter`)
        self.summaries = summaries  # id(function node) -> Taint of what it returns
        self.params = params  # id(function node) -> parameters passed a timed value at some call
        self.time_attrs = time_attrs  # attributes set to a timed value on `self` in the block's classes
        self.found: dict[int, TimingAssert] = {}
        self._locals: dict[int, frozenset[str]] = {}
        self._yields: dict[int, list[ast.expr]] = {}

    def locals_of(self, node: ast.AST, body: list[ast.stmt]) -> set[str]:
        if id(node) not in self._locals:
            self._locals[id(node)] = frozenset(_bound_names(body))
        return set(self._locals[id(node)])

    # --- names -----------------------------------------------------------------------------------
    def qualname(self, node: ast.expr) -> str | None:
        if isinstance(node, ast.Name):
            return self.aliases.get(node.id, node.id)
        if isinstance(node, ast.Attribute):
            base = self.qualname(node.value)
            return f"{base}.{node.attr}" if base else None
        return None

    def _is_timer(self, func: ast.expr) -> bool:
        q = self.qualname(func)
        return q is not None and (q in TIME_FUNCS or q in TIMER_CLASSES)

    # --- expressions -----------------------------------------------------------------------------
    def ev(self, node: ast.expr | None, s: _Scope) -> Taint:
        if node is None:
            return False
        if isinstance(node, ast.Constant):
            return False
        if isinstance(node, ast.Name):
            return s.is_tainted(node.id)
        if isinstance(node, ast.Attribute):
            if node.attr in CONFIG_ATTRS:
                return False
            if node.attr in TIME_ATTRS or node.attr in self.time_attrs:
                return True
            dotted = self.qualname(node)
            if dotted and s.is_tainted(dotted):
                return True
            return _any(self.ev(node.value, s))
        if isinstance(node, ast.Call):
            return self.ev_call(node, s)
        if isinstance(node, ast.Tuple):
            return tuple(self.ev(e, s) for e in node.elts)
        if isinstance(node, ast.Subscript):
            base = self.ev(node.value, s)
            if isinstance(base, tuple) and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, int):
                try:
                    return base[node.slice.value]
                except IndexError:
                    return False
            return _any(base) or _any(self.ev(node.slice, s))
        if isinstance(node, ast.Lambda):
            return False  # a function is not a duration; calling it is handled in ev_call
        if isinstance(node, ast.NamedExpr):
            t = self.ev(node.value, s)
            self.bind(node.target, t, s)
            return t
        if isinstance(node, ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp):
            inner = _Scope(parent=s, local=set())
            for gen in node.generators:
                t = self.ev(gen.iter, inner)
                for n in ast.walk(gen.target):
                    if isinstance(n, ast.Name):
                        inner.local.add(n.id)
                self.bind(gen.target, _any(t), inner)
                for cond in gen.ifs:
                    if _any(self.ev(cond, inner)):
                        return True
            if isinstance(node, ast.DictComp):
                return _any(self.ev(node.key, inner)) or _any(self.ev(node.value, inner))
            return _any(self.ev(node.elt, inner))
        return any(_any(self.ev(c, s)) for c in ast.iter_child_nodes(node) if isinstance(c, ast.expr))

    def ev_call(self, node: ast.Call, s: _Scope) -> Taint:
        func = node.func
        args = [*node.args, *(k.value for k in node.keywords)]
        arg_taints = [self.ev(a, s) for a in args]
        if self._is_timer(func):
            return True
        if isinstance(func, ast.Attribute) and func.attr in TIME_METHODS:
            return True
        target = s.func(func.id) if isinstance(func, ast.Name) else None
        if target is not None:
            self.note_call(target, node, arg_taints)
            return self.summaries.get(id(target), False)
        if isinstance(func, ast.Lambda):
            self.note_call(func, node, arg_taints)
            return self.summaries.get(id(func), False)
        return any(_any(t) for t in arg_taints) or _any(self.ev(func, s))

    def note_call(self, fn: ast.AST, call: ast.Call, arg_taints: list[Taint]) -> None:
        """Record which parameters of a block function receive a timed value."""
        a = fn.args  # type: ignore[attr-defined]
        positional = [p.arg for p in (*a.posonlyargs, *a.args)]
        hit = self.params.setdefault(id(fn), set())
        for i, t in enumerate(arg_taints[: len(call.args)]):
            if not _any(t):
                continue
            if isinstance(call.args[i], ast.Starred) or i >= len(positional):
                hit.update(positional[i:])
                if a.vararg:
                    hit.add(a.vararg.arg)
            else:
                hit.add(positional[i])
        for kw, t in zip(call.keywords, arg_taints[len(call.args):], strict=True):
            if _any(t):
                if kw.arg is None:
                    hit.update(positional + [p.arg for p in a.kwonlyargs])
                else:
                    hit.add(kw.arg)

    # --- binding -----------------------------------------------------------------------------------
    def bind(self, target: ast.expr, t: Taint, s: _Scope, strong: bool = True) -> None:
        if isinstance(target, ast.Name):
            s.set(target.id, _any(t), strong)
        elif isinstance(target, ast.Tuple | ast.List):
            elts = target.elts
            if isinstance(t, tuple) and len(t) == len(elts) and not any(isinstance(e, ast.Starred) for e in elts):
                for e, te in zip(elts, t, strict=True):
                    self.bind(e, te, s, strong)
            else:
                for e in elts:
                    self.bind(e, _any(t), s, strong)
        elif isinstance(target, ast.Starred):
            self.bind(target.value, _any(t), s, strong)
        elif isinstance(target, ast.Attribute):
            dotted = self.qualname(target)
            if dotted:
                s.set(dotted, _any(t), strong)
            if _any(t) and isinstance(target.value, ast.Name) and target.value.id == "self":
                self.time_attrs.add(target.attr)
            if _any(t):
                self._taint_base(target.value, s)
        elif isinstance(target, ast.Subscript) and _any(t):
            self._taint_base(target.value, s)  # d[k] = timed: d now holds a timing (weak update)

    def _taint_base(self, node: ast.expr, s: _Scope) -> None:
        while isinstance(node, ast.Subscript | ast.Attribute):
            node = node.value
        if isinstance(node, ast.Name):
            s.set(node.id, True, strong=False)

    # --- statements ----------------------------------------------------------------------------
    def run(self, body: list[ast.stmt], s: _Scope) -> None:
        for stmt in body:
            self.stmt(stmt, s)

    def _branch(self, body: list[ast.stmt], s: _Scope) -> set[str]:
        saved = set(s.tainted)
        self.run(body, s)
        out = set(s.tainted)
        s.tainted = saved
        return out

    def _loop(self, body: list[ast.stmt], s: _Scope, before_each=None) -> None:
        for _ in range(4):  # taint only grows across iterations; a few rounds reach the fixpoint
            entry = set(s.tainted)
            if before_each:
                before_each()
            self.run(body, s)
            s.tainted |= entry
            if s.tainted == entry:
                break

    def _control(self, test_timed: bool, node: ast.stmt, s: _Scope) -> None:
        """Names assigned under a timed condition carry the timing (``ok = True`` in ``if dt < 1``)."""
        if not test_timed:
            return
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                s.set(sub.id, True, strong=False)

    def stmt(self, node: ast.stmt, s: _Scope) -> None:
        if isinstance(node, ast.Import | ast.ImportFrom):
            mod = node.module if isinstance(node, ast.ImportFrom) else None
            for a in node.names:
                if isinstance(node, ast.ImportFrom):
                    self.aliases[a.asname or a.name] = f"{mod}.{a.name}" if mod else a.name
                elif a.asname:
                    self.aliases[a.asname] = a.name
                s.set(a.asname or a.name.split(".")[0], False)
        elif isinstance(node, ast.Assign):
            t = self.ev(node.value, s)
            for tgt in node.targets:
                self.bind(tgt, t, s)
                if isinstance(tgt, ast.Name):
                    self._note_alias(tgt.id, node.value, s)
        elif isinstance(node, ast.AnnAssign):
            if node.value is not None:
                self.bind(node.target, self.ev(node.value, s), s)
                if isinstance(node.target, ast.Name):
                    self._note_alias(node.target.id, node.value, s)
        elif isinstance(node, ast.AugAssign):
            t = _any(self.ev(node.value, s))
            if t:
                self.bind(node.target, True, s, strong=False)
        elif isinstance(node, ast.Expr):
            self.ev(node.value, s)
            self._check_call(node.value, s)
        elif isinstance(node, ast.Assert):
            if _any(self.ev(node.test, s)):
                self.flag(node, "assert", node.test, s)
        elif isinstance(node, ast.If):
            timed = _any(self.ev(node.test, s))
            if timed and self._fails(node.body + node.orelse):
                self.flag(node, "if … raise", node.test, s)
            a = self._branch(node.body, s)
            b = self._branch(node.orelse, s)
            s.tainted = a | b
            self._control(timed, node, s)
        elif isinstance(node, ast.For | ast.AsyncFor):
            it = _any(self.ev(node.iter, s))
            self._loop(node.body, s, lambda: self.bind(node.target, it, s))
            self.run(node.orelse, s)
        elif isinstance(node, ast.While):
            timed = _any(self.ev(node.test, s))
            if timed and self._fails(node.orelse):
                self.flag(node, "if … raise", node.test, s)
            self._loop(node.body, s)
            self.run(node.orelse, s)
            self._control(timed, node, s)
        elif isinstance(node, ast.With | ast.AsyncWith):
            for item in node.items:
                t = self.ev(item.context_expr, s)
                if item.optional_vars is not None:
                    self.bind(item.optional_vars, t, s)
            self.run(node.body, s)
        elif isinstance(node, ast.Try | ast.TryStar):
            entry = set(s.tainted)
            self.run(node.body, s)
            after_body = set(s.tainted)
            for h in node.handlers:
                s.tainted = entry | after_body
                self.run(h.body, s)
                after_body |= s.tainted
            s.tainted = after_body
            self.run(node.orelse, s)
            self.run(node.finalbody, s)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for d in node.decorator_list:
                self.ev(d, s)
            s.funcs[node.name] = node
            s.set(node.name, False)
            self.function(node, node.body, s)
        elif isinstance(node, ast.ClassDef):
            inner = _Scope(parent=s, local=self.locals_of(node, node.body))
            self.run(node.body, inner)
            s.set(node.name, False)
        elif isinstance(node, ast.Return):
            if node.value is not None:
                s.returns.append(self.ev(node.value, s))
        elif isinstance(node, ast.Global | ast.Nonlocal):
            if isinstance(node, ast.Global):
                s.globals_.update(node.names)
            elif s.local is not None:
                s.local.difference_update(node.names)
        elif isinstance(node, ast.Match):
            self.ev(node.subject, s)
            merged: set[str] = set(s.tainted)
            for case in node.cases:
                merged |= self._branch(case.body, s)
            s.tainted = merged
        else:  # Delete, Raise, Pass, Break, Continue, TypeAlias …
            for c in ast.iter_child_nodes(node):
                if isinstance(c, ast.expr):
                    self.ev(c, s)

    def function(self, node: ast.AST, body: list[ast.stmt], s: _Scope) -> None:
        a = node.args  # type: ignore[attr-defined]
        params = {p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)} | {
            p.arg for p in (a.vararg, a.kwarg) if p is not None}
        for default in (*a.defaults, *a.kw_defaults):
            self.ev(default, s)
        inner = _Scope(parent=s, local=self.locals_of(node, body) | params)
        for p in self.params.get(id(node), ()):
            inner.set(p, True)
        self.run(body, inner)
        if id(node) not in self._yields:  # generators: what they yield is what a caller iterates over
            self._yields[id(node)] = [y.value for y in ast.walk(node)
                                      if isinstance(y, ast.Yield | ast.YieldFrom) and y.value is not None]
        for value in self._yields[id(node)]:
            inner.returns.append(_any(self.ev(value, inner)))
        result: Taint = False
        for i, t in enumerate(inner.returns):
            result = t if i == 0 else _join(result, t)
        self.summaries[id(node)] = result

    def _note_alias(self, name: str, value: ast.expr, s: _Scope) -> None:
        if isinstance(value, ast.Lambda):
            s.funcs[name] = value
            self.function(value, [ast.Return(value=value.body, lineno=value.lineno, col_offset=0)], s)
        elif isinstance(value, ast.Name | ast.Attribute) and self._is_timer(value):
            self.aliases[name] = self.qualname(value) or name  # clock = time.perf_counter
        elif isinstance(value, ast.Name) and (fn := s.func(value.id)) is not None:
            s.funcs[name] = fn

    def _check_call(self, node: ast.expr, s: _Scope) -> None:
        if not isinstance(node, ast.Call):
            return
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        args = [*node.args, *(k.value for k in node.keywords if k.arg not in ("msg", "message"))]
        timed = [a for a in args if _any(self.ev(a, s))]
        if name.lower().startswith("assert") or name.startswith("fail"):
            if timed:
                self.flag(node, "assert call", node, s)
        elif isinstance(func, ast.Attribute) and func.attr in _MUTATORS and timed:
            self._taint_base(func.value, s)

    def _fails(self, body: list[ast.stmt]) -> bool:
        """Whether the statements raise, assert or exit (not counting nested functions)."""
        stack: list[ast.AST] = list(body)
        while stack:
            node = stack.pop()
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
                continue
            if isinstance(node, ast.Raise | ast.Assert):
                return True
            if isinstance(node, ast.Call) and self.qualname(node.func) in _EXITS:
                return True
            stack.extend(ast.iter_child_nodes(node))
        return False

    def flag(self, node: ast.AST, kind: str, expr: ast.AST, s: _Scope) -> None:
        text = " ".join(ast.unparse(expr).split())
        if len(text) > 90:
            text = text[:87] + "..."
        names = sorted({n.id for n in ast.walk(expr) if isinstance(n, ast.Name) and s.is_tainted(n.id)})
        self.found[node.lineno] = TimingAssert(node.lineno, kind, text, tuple(names))


def timing_asserts(code: str) -> list[TimingAssert]:
    """The checks in ``code`` that depend on measured time, by line; [] if it does not parse."""
    if ("time" not in code and "Timer" not in code and "benchmark" not in code) or not _MAYBE_TIMED.search(code):
        return []
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return []  # `bank verify` reports code that does not run
    aliases: dict[str, str] = {}
    summaries: dict[int, Taint] = {}
    params: dict[int, set[str]] = {}
    time_attrs: set[str] = set()
    state: tuple = ({}, {}, {}, frozenset())
    cache: tuple = ()
    for _ in range(8):  # summaries, parameters and attributes only grow: stop when they settle
        an = _Analysis(aliases, summaries, params, time_attrs)
        if cache:
            an._locals, an._yields = cache
        cache = (an._locals, an._yields)
        an.run(tree.body, _Scope(parent=None, local=None))
        now = (dict(aliases), {k: v for k, v in summaries.items() if _any(v)},
               {k: frozenset(v) for k, v in params.items() if v}, frozenset(time_attrs))
        if now[1:] == state[1:]:
            break
        state = now
    return sorted(an.found.values(), key=lambda f: f.lineno)
