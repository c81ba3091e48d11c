# expect: Wrong Answer
import heapq

import torch


class StreamTopK:
    def __init__(self, k):
        self.k = k
        self.heap = []

    def push(self, scores, ids):
        for pair in zip(scores.tolist(), ids.tolist()):
            if len(self.heap) < self.k:
                heapq.heappush(self.heap, pair)
            elif pair > self.heap[0]:
                heapq.heapreplace(self.heap, pair)

    def result(self):
        # the heap's list order is not sorted order (only heap[0] is known to be the minimum)
        return (torch.tensor([s for s, _ in self.heap], dtype=torch.float64),
                torch.tensor([i for _, i in self.heap], dtype=torch.int64))
