# expect: Wrong Answer
import math


class Value:
    def __init__(self, data, _children=()):
        self.data, self.grad = float(data), 0.0
        self._prev = _children
        self._backward = lambda: None  # pushes self.grad into the children's .grad

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other))

        def _backward():
            self.grad += out.grad  # += : a node used twice gets both contributions
            other.grad += out.grad
        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other))

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out

    def __pow__(self, k):
        out = Value(self.data ** k, (self,))

        def _backward():
            self.grad += k * self.data ** (k - 1) * out.grad
        out._backward = _backward
        return out

    def tanh(self):
        t = math.tanh(self.data)
        out = Value(t, (self,))

        def _backward():
            self.grad += (1 - t * t) * out.grad
        out._backward = _backward
        return out

    def relu(self):
        out = Value(max(self.data, 0.0), (self,))

        def _backward():
            self.grad += (self.data > 0) * out.grad
        out._backward = _backward
        return out

    def backward(self):
        order, seen = [], set()
        stack = [(self, False)]
        while stack:  # iterative post-order DFS: no recursion limit on deep graphs
            node, done = stack.pop()
            if done:
                order.append(node)
            elif id(node) not in seen:
                seen.add(id(node))
                stack.append((node, True))
                stack.extend((c, False) for c in node._prev)
        self.grad = 1.0
        for node in reversed(order):  # every node's grad is complete before it is pushed further
            node._backward()

    def __neg__(self): return self * -1
    def __sub__(self, other): return self + (-other)
    def __truediv__(self, other): return self * (other if isinstance(other, Value) else Value(other)) ** -1
    def __radd__(self, other): return self + other
    def __rmul__(self, other): return self * other
    def __rsub__(self, other): return self - other  # 2 - v computed as v - 2
    def __rtruediv__(self, other): return Value(other) / self
    def __repr__(self): return f"Value(data={self.data}, grad={self.grad})"
