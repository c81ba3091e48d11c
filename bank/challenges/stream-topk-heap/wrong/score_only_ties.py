# expect: Wrong Answer
import heapq

import torch


class StreamTopK:
    def __init__(self, k):
        self.k = k
        self.heap = []

    def push(self, scores, ids):
        for s, i in zip(scores.tolist(), ids.tolist()):
            if len(self.heap) < self.k:
                heapq.heappush(self.heap, (s, -i))
            elif s > self.heap[0][0]:  # ties keep the first arrival, whatever the id
                heapq.heapreplace(self.heap, (s, -i))

    def result(self):
        best = sorted(self.heap, reverse=True)
        return (torch.tensor([s for s, _ in best], dtype=torch.float64),
                torch.tensor([-i for _, i in best], dtype=torch.int64))
