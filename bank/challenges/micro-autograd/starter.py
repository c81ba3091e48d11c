import math


class Value:
    """A scalar that remembers how it was computed, so that backward() can fill in .grad."""

    def __init__(self, data: float, _children=(), _op: str = ""):
        self.data = float(data)
        self.grad = 0.0
        raise NotImplementedError

    def __add__(self, other): raise NotImplementedError
    def __mul__(self, other): raise NotImplementedError
    def __pow__(self, k: float): raise NotImplementedError
    def tanh(self): raise NotImplementedError
    def relu(self): raise NotImplementedError
    def backward(self) -> None: raise NotImplementedError

    # also needed: -x, x - y, x / y, and numbers on the left (2 * x, 1 + x, 1 / x)
