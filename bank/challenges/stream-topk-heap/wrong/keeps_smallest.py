# expect: Wrong Answer
import heapq

import torch


class StreamTopK:
    def __init__(self, k):
        self.k = k
        self.heap = []

    def push(self, scores, ids):
        for s, i in zip(scores.tolist(), ids.tolist()):
            heapq.heappush(self.heap, (-s, -i))  # a "max-heap" by negation...
            if len(self.heap) > self.k:
                heapq.heappop(self.heap)  # ...whose pop removes the LARGEST score: keeps the k smallest

    def result(self):
        best = sorted(((-s, -i) for s, i in self.heap), reverse=True)
        return (torch.tensor([s for s, _ in best], dtype=torch.float64),
                torch.tensor([i for _, i in best], dtype=torch.int64))
