# expect: Time Limit Exceeded
import torch


class StreamTopK:
    def __init__(self, k):
        self.k = k
        self.seen = []  # every pair of the stream: O(n) memory

    def push(self, scores, ids):
        self.seen.extend(zip(scores.tolist(), ids.tolist()))
        self.seen = sorted(self.seen, reverse=True)  # O(n log n) again after every batch

    def result(self):
        best = self.seen[: self.k]
        return (torch.tensor([s for s, _ in best], dtype=torch.float64),
                torch.tensor([i for _, i in best], dtype=torch.int64))
