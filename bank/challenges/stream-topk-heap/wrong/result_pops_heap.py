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
            if len(heap) < k:
                heapq.heappush(heap, pair)
            elif pair > heap[0]:
                heapq.heapreplace(heap, pair)  # pop the weakest, push the new one: O(log k)

    def result(self):
        best = [heapq.heappop(self.heap) for _ in range(len(self.heap))][::-1]  # empties the heap it still needs
        scores = torch.tensor([s for s, _ in best], dtype=torch.float64)
        ids = torch.tensor([i for _, i in best], dtype=torch.int64)
        return scores, ids
