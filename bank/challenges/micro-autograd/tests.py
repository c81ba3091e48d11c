import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("one-step", {"abc": [0.5, -1.2, 0.8], "chain": 3, "n": 3, "hidden": [3, 2], "steps": 1},
             public=True, seed=1, what="an expression with a shared node, one MLP step"),
        Case("few-steps", {"abc": [-0.3, 0.9, 2.0], "chain": 5, "n": 4, "hidden": [4, 3], "steps": 3},
             public=True, seed=2, what="three SGD steps"),
        Case("long-chain", {"abc": [1.1, 0.4, -0.6], "chain": 300, "n": 2, "hidden": [2, 2], "steps": 1},
             seed=3, shrink=("chain",), what="a 300-link chain reusing the same leaves at every link"),
        Case("negative-b", {"abc": [0.2, 1.5, -1.0], "chain": 4, "n": 5, "hidden": [3, 3], "steps": 4},
             seed=4, shrink=("n", "steps"), what="relu of -b is active: its gradient passes"),
        Case("training", {"abc": [0.7, -0.4, 0.3], "chain": 2, "n": 6, "hidden": [5, 4], "steps": 6},
             seed=5, shrink=("n", "steps"), what="six steps on six samples: gradients zeroed between steps"),
        Case("wide", {"abc": [-1.5, -0.2, 1.7], "chain": 8, "n": 3, "hidden": [8, 6], "steps": 2},
             seed=6, shrink=("n",), what="wider layers: many nodes feed the same neuron"),
    ]


def make_inputs(seed, abc, chain, n, hidden, steps):
    g = torch.Generator().manual_seed(seed)
    r = lambda *s: torch.randn(*s, generator=g, dtype=torch.float64)  # noqa: E731
    h1, h2 = hidden
    return {"abc": list(abc), "chain": chain, "steps": steps, "lr": 0.1,
            "x": r(n, 2), "y": r(n), "w1": r(h1, 2) * 0.8, "b1": 0.1 * r(h1) + 0.1, "w2": r(h2, h1) * 0.6,
            "b2": 0.1 * r(h2), "w3": r(1, h2) * 0.6, "b3": 0.1 * r(1)}


class _TorchValue:
    """The Value interface on top of torch autograd (float64 0-dim tensors): the oracle's engine."""

    def __init__(self, data, _t=None):
        self.t = torch.tensor(float(data), dtype=torch.float64, requires_grad=True) if _t is None else _t
        if _t is not None:
            self.t.retain_grad()

    @staticmethod
    def _of(x):
        return x.t if isinstance(x, _TorchValue) else torch.tensor(float(x), dtype=torch.float64)

    data = property(lambda self: self.t.item(),
                    lambda self, v: setattr(self, "t", torch.tensor(float(v), dtype=torch.float64,
                                                                    requires_grad=True)))
    grad = property(lambda self: 0.0 if self.t.grad is None else self.t.grad.item(),
                    lambda self, v: setattr(self.t, "grad", None))

    def __add__(self, o): return _TorchValue(0, self.t + self._of(o))
    def __radd__(self, o): return _TorchValue(0, self._of(o) + self.t)
    def __mul__(self, o): return _TorchValue(0, self.t * self._of(o))
    def __rmul__(self, o): return _TorchValue(0, self._of(o) * self.t)
    def __sub__(self, o): return _TorchValue(0, self.t - self._of(o))
    def __rsub__(self, o): return _TorchValue(0, self._of(o) - self.t)
    def __truediv__(self, o): return _TorchValue(0, self.t / self._of(o))
    def __rtruediv__(self, o): return _TorchValue(0, self._of(o) / self.t)
    def __neg__(self): return _TorchValue(0, -self.t)
    def __pow__(self, k): return _TorchValue(0, self.t ** k)
    def tanh(self): return _TorchValue(0, torch.tanh(self.t))
    def relu(self): return _TorchValue(0, torch.relu(self.t))
    def backward(self): self.t.backward()


def oracle(inputs):
    import types
    from pathlib import Path

    mod = types.ModuleType("micro_harness")
    path = Path(__file__).with_name("harness.py")
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), mod.__dict__)
    return mod.run(types.SimpleNamespace(Value=_TorchValue), inputs)
