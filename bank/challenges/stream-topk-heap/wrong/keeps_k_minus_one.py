# expect: Wrong Answer
import heapq

import torch


class StreamTopK:
    def __init__(self, k):
        self.k = k
        self.heap = []  # min-heap of (score, id): heap[0] is the weakest pair kept

    def push(self, scores, ids):
        heap, k = self.heap, self.k
        for pair in zip(scores.tolist(), ids.tolist()):
            if len(heap) < k - 1:  # off by one: fills only k - 1 slots
                heapq.heappush(heap, pair)
            elif pair > heap[0]:
                heapq.heapreplace(heap, pair)  # pop the weakest, push the new one: O(log k)

    def result(self):
        best = sorted(self.heap, reverse=True)
        scores = torch.tensor([s for s, _ in best], dtype=torch.float64)
        ids = torch.tensor([i for _, i in best], dtype=torch.int64)
        return scores, ids
