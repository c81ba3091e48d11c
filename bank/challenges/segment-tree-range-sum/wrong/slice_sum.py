# expect: Time Limit Exceeded
class SegmentTree:
    def __init__(self, values):
        self.v = values.tolist()

    def update(self, i, v):
        self.v[i] = float(v)

    def query(self, l, r):
        return sum(self.v[l:r])  # O(n) per query
