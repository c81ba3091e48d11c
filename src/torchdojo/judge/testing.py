"""What a challenge's trusted ``tests.py`` and shared ``harness.py`` use.

``Case`` describes one test: its parameters (passed to ``tests.make_inputs``), whether it is
public (inputs and expected outputs shown) or hidden, and which integer parameters may be
shrunk to find a minimal failing input. ``vjp`` is the gradient probe a harness uses: the
vector-Jacobian product of outputs with a seeded random upstream vector.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Case:
    name: str
    params: dict[str, Any] = field(default_factory=dict)
    public: bool = False
    seed: int = 0
    shrink: tuple[str, ...] = ()  # integer params that may be reduced (down to 1) when the case fails
    what: str = ""  # the property this case tests, shown for hidden cases ("large logits do not overflow")


def vjp(outputs, inputs, seed: int = 0, materialize: bool = False):
    """Vector-Jacobian products of ``outputs`` w.r.t. ``inputs`` (a tensor or a tuple).

    The upstream vector is standard normal, seeded, of the outputs' dtype: comparing these
    against the reference's tests the whole Jacobian in one backward pass (a random
    projection), unlike checking ``.grad is not None``. Returns a tuple of tensors; an input
    that received no gradient gives a tensor of NaN so the comparison reports it, or zeros
    with ``materialize=True`` (for inputs a correct solution may legitimately leave unused).
    """
    import torch

    outs = outputs if isinstance(outputs, (tuple, list)) else (outputs,)
    ins = inputs if isinstance(inputs, (tuple, list)) else (inputs,)
    g = torch.Generator().manual_seed(seed)
    vs = [torch.randn(o.shape, generator=g, dtype=torch.float64).to(o.dtype) for o in outs]
    grads = torch.autograd.grad(outs, ins, vs, allow_unused=True)
    fill = 0.0 if materialize else float("nan")
    return tuple(torch.full_like(i, fill) if gr is None else gr for i, gr in zip(ins, grads, strict=True))
