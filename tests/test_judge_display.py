"""How the judge shows values (torch-like reprs), mismatches and stdout, in the core."""

from __future__ import annotations

import torch

from torchdojo.judge.compare import compare_outputs
from torchdojo.judge.display import format_mismatch, format_value, format_values, summarize
from torchdojo.judge.grade import cap_stdout


def test_small_tensors_read_like_torch_repr_with_shape_and_dtype():
    s = summarize({"p": torch.tensor([[0.09, 0.2447, 0.6652], [0.5, -0.5, 0.0]], dtype=torch.float64), "dim": -1})
    assert format_values(s) == ("p = tensor([[ 0.0900,  0.2447,  0.6652],\n"
                                "            [ 0.5000, -0.5000,  0.0000]], dtype=float64)  shape=(2, 3)\n"
                                "dim = -1")
    assert format_value(summarize({"i": torch.tensor([3, 10])})["i"]) == "tensor([ 3, 10], dtype=int64)  shape=(2,)"
    assert format_value(summarize({"s": torch.tensor(2.5)})["s"]) == "tensor(2.5000, dtype=float32)  shape=()"
    big_small = format_value(summarize({"m": torch.tensor([1.0, float("-inf"), 1e5])})["m"])
    assert big_small == "tensor([1.0000e+00,       -inf, 1.0000e+05], dtype=float32)  shape=(3,)"


def test_large_tensors_are_summarised_at_their_edges_with_stats():
    x = torch.arange(16 * 33, dtype=torch.float64).reshape(16, 33)
    info = summarize({"x": x})["x"]
    assert "values" not in info and info["min"] == 0 and info["max"] == 16 * 33 - 1
    text = format_value(info)
    first, *_, last = text.split("\n")
    assert first.startswith("tensor([[  0.0000,   1.0000,   2.0000, ...,  30.0000,  31.0000,  32.0000],")
    assert "..." in text and "shape=(16, 33)" in last and "min=0 max=527 mean=263.5" in last
    assert text.count("\n") == 6  # 3 rows, the elision, 3 rows
    # a report stored before previews existed (stats only) still formats
    assert format_value({"shape": [100], "dtype": "float32", "min": -1.0, "max": 1.0, "mean": 0.0}) == (
        "tensor(..., dtype=float32)  shape=(100,)  min=-1 max=1 mean=0")


def test_mismatch_names_the_location_and_size_of_the_largest_difference():
    exp = torch.arange(12, dtype=torch.float64).reshape(3, 4)
    got = exp.clone()
    got[2, 1] += 0.5
    got[0, 3] += 0.1
    m = compare_outputs({"y": exp}, {"y": got}).to_dict()
    assert (m["max_diff"], m["n_bad"], m["numel"]) == (0.5, 2, 12)
    assert format_mismatch(m) == "'y': largest difference 0.5 at index [2, 1]: expected 9, got 9.5; 2 of 12 elements differ"
    shape = compare_outputs({"y": exp}, {"y": exp.T}).to_dict()
    assert format_mismatch(shape) == "'y' has shape (4, 3), expected (3, 4)"
    assert format_mismatch(None) == ""


def test_stdout_is_capped_and_says_how_much_was_cut():
    assert cap_stdout("hi\n") == "hi\n"
    text = cap_stdout("x" * 5000, cap=100)
    assert text.startswith("x" * 100) and text.endswith("(4900 more characters not shown)") and len(text) < 200
