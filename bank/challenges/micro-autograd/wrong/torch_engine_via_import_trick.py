# expect: Rule Violation
# a torch-backed engine hidden behind __import__: caught by the run-time trace of ATen ops
_t = __import__("tor" + "ch")


class Value:
    def __init__(self, data, _t_=None):
        self.t = _t.tensor(float(data), dtype=_t.float64, requires_grad=True) if _t_ is None else _t_
        if _t_ is not None:
            self.t.retain_grad()

    @staticmethod
    def _of(x):
        return x.t if isinstance(x, Value) else _t.tensor(float(x), dtype=_t.float64)

    data = property(lambda s: s.t.item(), lambda s, v: setattr(s, "t", _t.tensor(float(v), dtype=_t.float64, requires_grad=True)))
    grad = property(lambda s: 0.0 if s.t.grad is None else s.t.grad.item(), lambda s, v: setattr(s.t, "grad", None))

    def __add__(self, o): return Value(0, self.t + self._of(o))
    def __radd__(self, o): return Value(0, self._of(o) + self.t)
    def __mul__(self, o): return Value(0, self.t * self._of(o))
    def __rmul__(self, o): return Value(0, self._of(o) * self.t)
    def __sub__(self, o): return Value(0, self.t - self._of(o))
    def __rsub__(self, o): return Value(0, self._of(o) - self.t)
    def __truediv__(self, o): return Value(0, self.t / self._of(o))
    def __rtruediv__(self, o): return Value(0, self._of(o) / self.t)
    def __neg__(self): return Value(0, -self.t)
    def __pow__(self, k): return Value(0, self.t ** k)
    def tanh(self): return Value(0, _t.tanh(self.t))
    def relu(self): return Value(0, _t.relu(self.t))
    def backward(self): self.t.backward()
