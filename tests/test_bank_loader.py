"""The bank loads from files, validates, and locates every problem by file, line and field."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from conftest import BANK, TORCHDOJO

from torchdojo.bank.loader import BankIssue, load_bank

EXAMPLE = "tensors/view-reshape-contiguous.md"
MINI = Path(__file__).parent / "fixtures" / "mini-entry.md"


def issues_in(bank_dir: Path, path: Path) -> list[BankIssue]:
    """Issues of one file (the copied bank may have unrelated issues while content is written)."""
    return [i for i in load_bank(bank_dir).issues if i.path == path]


def test_real_bank_loads_without_issues():
    bank = load_bank(BANK)
    assert not bank.issues, "\n".join(map(str, bank.issues))
    assert len(bank) >= 40


def _break(bank_dir: Path, rel: str, old: str, new: str) -> Path:
    path = bank_dir / "questions" / rel
    text = path.read_text()
    assert old in text, f"fixture text {old!r} not in {path}"
    path.write_text(text.replace(old, new, 1))
    return path


def _line_of(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


def test_bad_field_names_file_line_and_field_and_rest_still_loads(bank_copy: Path):
    total = len(load_bank(bank_copy))
    path = _break(bank_copy, EXAMPLE, "    weight: 2\n", "    weight: 7\n")
    bank = load_bank(bank_copy)
    (issue,) = [i for i in bank.issues if i.path == path]
    assert issue.path == path
    assert issue.field == "key_points.3.weight"
    assert issue.line == _line_of(path, "weight: 7")
    assert "less than or equal to 3" in issue.message
    assert str(issue).startswith(f"{path}:{issue.line}: key_points.3.weight: ")
    assert len(bank) == total - 1 and "view-reshape-contiguous" not in bank.entries


def test_contradiction_that_repeats_the_point_is_named_by_line_and_field(bank_copy: Path):
    path = bank_copy / "questions" / EXAMPLE
    text = path.read_text()
    start = text.index("  - id: ", text.index("key_points:"))
    line = text.index("    contradictions: [", start)
    point = text[text.index("    text: ", start) + len("    text: "):text.index("\n", text.index("    text: ", start))]
    end = text.index("\n", line)
    path.write_text(text[:line] + f'    contradictions: ["{point.upper()}"]' + text[end:])
    (issue,) = issues_in(bank_copy, path)
    assert issue.field == "key_points.0.contradictions"
    assert issue.line == _line_of(path, "contradictions: [")
    assert "repeats the point" in issue.message


def test_short_answer_over_60_words_and_key_point_over_40_are_rejected(bank_copy: Path):
    path = bank_copy / "questions" / EXAMPLE
    text = path.read_text()
    start = text.index("short_answer:")
    end = text.index("\nkey_points:")
    padded = "short_answer: >\n  " + " ".join(["word"] * 61)
    text = text[:start] + padded + text[end:]
    first = text.index("    text: ", text.index("key_points:"))
    eol = text.index("\n", first)
    text = text[:first] + "    text: " + " ".join(["claim"] * 41) + text[eol:]
    path.write_text(text)
    issues = {i.field: i for i in issues_in(bank_copy, path)}
    assert set(issues) == {"short_answer", "key_points.0.text"}
    assert "short answer of 61 words (at most 60" in issues["short_answer"].message
    assert issues["short_answer"].line == _line_of(path, "short_answer: >")
    assert "key point of 41 words (at most 40)" in issues["key_points.0.text"].message
    # at the limits: accepted
    path.write_text(text.replace(" ".join(["word"] * 61), " ".join(["word"] * 60))
                    .replace(" ".join(["claim"] * 41), " ".join(["claim"] * 40)))
    assert issues_in(bank_copy, path) == []


def test_senior_entry_needs_a_follow_up_that_links_deeper(bank_copy: Path):
    path = next((bank_copy / "questions").glob("*/weight-tying.md"))
    text = path.read_text()
    assert "level: senior" in text and "  - ref: " in text
    text = re.sub(r"  - ref: [a-z0-9-]+\n    text: ", "  - text: ", text)
    path.write_text(re.sub(r"  - ref: [a-z0-9-]+\n", "  - text: Which question goes one level deeper?\n", text))
    issues = {i.field: i for i in issues_in(bank_copy, path)}
    assert "follow_ups" in issues, issues
    assert "one level deeper" in issues["follow_ups"].message


def test_missing_field_and_unknown_topic(bank_copy: Path):
    path = _break(bank_copy, EXAMPLE, "topics: [tensors, memory-performance]", "topics: [tensors, memory]")
    path.write_text(path.read_text().replace("title: view() vs reshape() vs contiguous()\n", ""))
    issues = {i.field: i for i in issues_in(bank_copy, path)}
    assert set(issues) == {"title", "topics"}
    assert "missing" in issues["title"].message
    assert "unknown topic(s) ['memory']" in issues["topics"].message
    assert issues["topics"].line == _line_of(path, "topics: [tensors, memory]")


def test_invalid_yaml_reports_the_line(bank_copy: Path):
    path = _break(bank_copy, EXAMPLE, "level: mid\n", "level: [mid\n")
    (issue,) = issues_in(bank_copy, path)
    assert issue.path == path and "invalid YAML" in issue.message
    assert issue.line >= _line_of(path, "level: [mid")


def test_id_must_match_file_name_and_links_must_resolve(bank_copy: Path):
    path = _break(bank_copy, EXAMPLE, "related: [tensor-storage-strides]", "related: [no-such-entry]")
    issues = issues_in(bank_copy, path)
    assert [i.field for i in issues] == ["related"]
    assert issues[0].line == _line_of(path, "related: [no-such-entry]")
    renamed = path.rename(path.with_name("renamed.md"))
    (issue,) = issues_in(bank_copy, renamed)
    assert issue.field == "id" and "must equal the file name 'renamed'" in issue.message


def test_runnable_block_options_are_checked(bank_copy: Path):
    path = _break(bank_copy, EXAMPLE, "```python runnable\n", "```python runnable needs=tpu\n")
    (issue,) = issues_in(bank_copy, path)
    assert issue.field == "runnable" and "unknown needs ['tpu']" in issue.message
    assert issue.line == _line_of(path, "needs=tpu")


def test_concept_entry_without_runnable_example_is_rejected(bank_copy: Path):
    path = _break(bank_copy, EXAMPLE, "```python runnable\n", "```python\n")
    (issue,) = issues_in(bank_copy, path)
    assert "needs at least one ```python runnable block" in issue.message


def test_validate_command_exit_codes(tmp_path: Path):
    mini = tmp_path / "bank"
    path = mini / "questions" / "tensors" / "mini-entry.md"
    path.parent.mkdir(parents=True)
    path.write_text(MINI.read_text())
    ok = subprocess.run([TORCHDOJO, "bank", "validate", "--bank", str(mini)], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    assert "1 entries loaded, 1 runnable examples, 0 problem(s)" in ok.stdout
    _break(mini, "tensors/mini-entry.md", "level: junior", "level: expert")
    bad = subprocess.run([TORCHDOJO, "bank", "validate", "--bank", str(mini)], capture_output=True, text=True)
    assert bad.returncode == 1
    assert f"{path}:{_line_of(path, 'level: expert')}: level: " in bad.stderr
    assert "Input should be 'junior', 'mid' or 'senior'" in bad.stderr
