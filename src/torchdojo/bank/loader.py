"""Load the question bank from files, validating every entry and locating every error.

Design: each ``bank/questions/<topic>/<id>.md`` file is read on its own; a file that fails
validation becomes a :class:`BankIssue` (``path:line: field: message``) and is left out, while
every other entry still loads. Cross-entry checks (duplicate ids, dangling links) run after.
Front matter is parsed with PyYAML's composer so that every pydantic error can be mapped back
to the line of the offending YAML node. Runnable examples are found with markdown-it-py.

This module must not import torch: the web app loads the bank at start-up.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from markdown_it import MarkdownIt
from pydantic import ValidationError

from torchdojo.bank.schema import FrontMatter, RunnableBlock
from torchdojo.bank.wallclock import timing_asserts

FENCE = "---"
# libyaml's C parser when present (10x faster); node marks still carry line numbers.
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass(frozen=True)
class BankIssue:
    """One problem found in a bank file. ``line`` is 1-based; ``field`` a dotted path or ''."""

    path: Path
    line: int
    field: str
    message: str

    def __str__(self) -> str:
        where = f"{self.field}: " if self.field else ""
        return f"{self.path}:{self.line}: {where}{self.message}"


@dataclass(frozen=True)
class Entry:
    """A validated bank entry: its front matter ``meta``, Markdown ``body`` and examples."""

    path: Path
    meta: FrontMatter
    body: str
    blocks: tuple[RunnableBlock, ...]
    body_line: int  # 1-based line where the body starts
    key_lines: dict[str, int] = field(default_factory=dict)  # top-level field -> 1-based line

    @property
    def id(self) -> str:
        return self.meta.id

    @property
    def primary_topic(self) -> str:
        return self.meta.topics[0]

    @property
    def examples_digest(self) -> str:
        """SHA-256 over the runnable blocks (code and needs): changes whenever an example does."""
        h = hashlib.sha256()
        for b in self.blocks:
            h.update(repr((b.code, b.needs)).encode())
        return h.hexdigest()[:16]


@dataclass
class Bank:
    """All entries that loaded, by id, plus the issues of those that did not."""

    entries: dict[str, Entry] = field(default_factory=dict)
    issues: list[BankIssue] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.entries)

    def __iter__(self):
        return iter(self.entries.values())

    def get(self, entry_id: str) -> Entry | None:
        return self.entries.get(entry_id)


def _split_front_matter(text: str) -> tuple[str, str, int] | None:
    """Return (yaml_text, body, body_line) or None when the file has no front matter."""
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].strip() != FENCE:
        return None
    for i in range(1, len(lines)):
        if lines[i].strip() == FENCE:
            return "".join(lines[1:i]), "".join(lines[i + 1 :]), i + 2
    return None


def _node_line(root: yaml.Node | None, loc: tuple[int | str, ...]) -> int:
    """Follow a pydantic error location through the YAML node tree; return a 0-based line."""
    node = root
    if node is None:
        return 0
    line = node.start_mark.line
    for part in loc:
        if isinstance(node, yaml.MappingNode):
            nxt = None
            for k, v in node.value:
                if k.value == part:
                    nxt = v
                    line = k.start_mark.line
                    break
            if nxt is None:
                return line
            node = nxt
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
            node = node.value[part]
        else:
            return line
        line = node.start_mark.line
    return line


# Only block structure matters for finding fences: skipping inline parsing makes this 3x faster.
_md = MarkdownIt("commonmark").disable("inline")


def _parse_info(info: str) -> dict[str, str] | None:
    """``python runnable needs=cpu,multiprocess timeout=120`` -> options; None if not runnable."""
    words = info.split()
    if len(words) < 2 or words[0] != "python" or words[1] != "runnable":
        return None
    opts: dict[str, str] = {}
    for w in words[2:]:
        key, _, value = w.partition("=")
        opts[key] = value
    return opts


def _blocks(body: str, body_line: int, path: Path, issues: list[BankIssue]) -> list[RunnableBlock]:
    found: list[RunnableBlock] = []
    for tok in _md.parse(body):
        if tok.type != "fence":
            continue
        opts = _parse_info(tok.info)
        if opts is None:
            continue
        line = body_line + (tok.map[0] if tok.map else 0)
        unknown = set(opts) - {"needs", "timeout"}
        if unknown:
            issues.append(
                BankIssue(path, line, "runnable", f"unknown option(s) {sorted(unknown)}; use needs=… timeout=…")
            )
            continue
        try:
            needs = tuple(n for n in opts.get("needs", "cpu").split(",") if n)
            timeout = float(opts.get("timeout", "60"))
            found.append(RunnableBlock(index=len(found), line=line, code=tok.content, needs=needs, timeout=timeout))
        except (ValueError, ValidationError) as e:
            msg = e.errors()[0]["msg"] if isinstance(e, ValidationError) else str(e)
            issues.append(BankIssue(path, line, "runnable", f"{msg} (in the fence's info string)"))
            continue
        for t in timing_asserts(tok.content):
            timed = f" ({', '.join(t.timed)} measured)" if t.timed else ""
            issues.append(BankIssue(
                path, line + t.lineno, "runnable",
                f"`{t.source}`{timed} checks wall-clock time, which fails on a busy machine: assert a "
                "deterministic quantity instead (FLOPs with FlopCounterMode, bytes, op or call counts, a "
                "structural fact) and print timings without asserting on them"))
    return found


#: Largest bank file accepted (bytes). Entries are read whole, indexed and shown on one page.
MAX_ENTRY_BYTES = 128 * 1024


def load_entry(path: Path) -> tuple[Entry | None, list[BankIssue]]:
    """Parse and validate one file. Returns the entry (or None) and the issues found."""
    issues: list[BankIssue] = []
    try:
        size = path.stat().st_size
        if size > MAX_ENTRY_BYTES:
            return None, [BankIssue(path, 1, "", f"the file is {size:,} bytes; an entry may be at most "
                                    f"{MAX_ENTRY_BYTES:,} bytes (the largest today is about 19 KB): split it into "
                                    "several entries linked with `related`")]
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        return None, [BankIssue(path, 1, "", f"cannot read the file: {e}")]
    split = _split_front_matter(text)
    if split is None:
        return None, [BankIssue(path, 1, "", "no YAML front matter: the file must start with '---', the fields, '---'")]
    yaml_text, body, body_line = split
    try:
        loader = _Loader(yaml_text)
        try:
            root = loader.get_single_node()
            data = loader.construct_document(root) if root is not None else None
        finally:
            loader.dispose()
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        line = (mark.line + 2) if mark else 2
        problem = getattr(e, "problem", None) or str(e)
        return None, [BankIssue(path, line, "", f"invalid YAML: {problem}; check indentation and quoting")]
    if not isinstance(data, dict):
        return None, [BankIssue(path, 2, "", "front matter must be a mapping of field: value")]
    try:
        meta = FrontMatter.model_validate(data)
    except ValidationError as e:
        for err in e.errors():
            loc = tuple(err["loc"])
            fld = ".".join(str(p) for p in loc)
            msg = err["msg"]
            if err["type"] == "missing":
                msg = "missing: add this field (see docs/bank-format.md)"
            elif err["type"] == "extra_forbidden":
                msg = "unknown field: remove it or fix its spelling (see docs/bank-format.md)"
            issues.append(BankIssue(path, _node_line(root, loc) + 2, fld, msg))
        return None, issues
    if path.stem != meta.id:
        issues.append(BankIssue(path, _node_line(root, ("id",)) + 2, "id", f"id '{meta.id}' must equal the file name '{path.stem}'"))
    if path.parent.name != meta.topics[0]:
        issues.append(
            BankIssue(path, _node_line(root, ("topics",)) + 2, "topics",
                      f"the first topic '{meta.topics[0]}' must be the folder name '{path.parent.name}'")
        )
    if not body.strip():
        issues.append(BankIssue(path, body_line, "body", "the full answer (Markdown after the front matter) is empty"))
    blocks = _blocks(body, body_line, path, issues)
    if not blocks and not issues and meta.type in ("concept", "coding", "debugging"):
        issues.append(BankIssue(path, body_line, "body",
                                f"a {meta.type} entry needs at least one ```python runnable block that proves its answer"))
    if issues:
        return None, issues
    key_lines = {k.value: k.start_mark.line + 2 for k, _ in root.value} if isinstance(root, yaml.MappingNode) else {}
    return Entry(path=path, meta=meta, body=body, blocks=tuple(blocks), body_line=body_line, key_lines=key_lines), []


def load_bank(root: Path) -> Bank:
    """Load every ``questions/<topic>/*.md`` under ``root`` (the ``bank/`` folder).

    Invalid files are reported in ``Bank.issues`` and skipped; cross-entry checks then flag
    duplicate ids and links (``related``, ``follow_ups[].ref``) to ids that do not exist.
    """
    bank = Bank()
    qdir = root / "questions"
    if not qdir.is_dir():
        bank.issues.append(BankIssue(qdir, 1, "", "no questions folder: expected bank/questions/<topic>/<id>.md"))
        return bank
    for path in sorted(qdir.glob("*/*.md")):
        entry, issues = load_entry(path)
        bank.issues.extend(issues)
        if entry is None:
            continue
        if entry.id in bank.entries:
            other = bank.entries[entry.id].path
            bank.issues.append(BankIssue(path, 2, "id", f"id '{entry.id}' is already used by {other}"))
            continue
        bank.entries[entry.id] = entry
    for entry in bank.entries.values():
        refs = [("related", r) for r in entry.meta.related]
        refs += [("follow_ups", f.ref) for f in entry.meta.follow_ups if f.ref]
        for fld, ref in refs:
            if ref not in bank.entries:
                line = entry.key_lines.get(fld, 2)
                bank.issues.append(BankIssue(entry.path, line, fld, f"links to '{ref}', which is not an entry id"))
    return bank
