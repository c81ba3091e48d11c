# expect: Time Limit Exceeded
import itertools


class SegmentTree:
    """O(1) queries from prefix sums, but every update rebuilds them: O(n) per update."""

    def __init__(self, values):
        self.v = values.tolist()
        self._rebuild()

    def _rebuild(self):
        self.prefix = [0.0] + list(itertools.accumulate(self.v))

    def update(self, i, v):
        self.v[i] = float(v)
        self._rebuild()

    def query(self, l, r):
        return self.prefix[r] - self.prefix[l]
