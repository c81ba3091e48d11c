# expect: Wrong Answer
class SegmentTree:
    """Iterative segment tree: leaves at [n, 2n), node k = sum of children 2k and 2k+1."""

    def __init__(self, values):
        self.n = n = values.numel()
        self.t = [0.0] * n + values.tolist()
        for k in range(n - 1, 0, -1):
            self.t[k] = self.t[2 * k] + self.t[2 * k + 1]

    def update(self, i, v):
        k = i + self.n
        self.t[k] += float(v)  # adds v instead of setting element i to v
        while k > 1:
            k //= 2
            self.t[k] = self.t[2 * k] + self.t[2 * k + 1]

    def query(self, l, r):
        total = 0.0
        l += self.n
        r += self.n
        while l < r:
            if l & 1:
                total += self.t[l]
                l += 1
            if r & 1:
                r -= 1
                total += self.t[r]
            l //= 2
            r //= 2
        return total
