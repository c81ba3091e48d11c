# expect: Time Limit Exceeded
import torch


class TrieEmbeddingStore:
    """A dict, scanned in full for every prefix query: O(number of keys) per query."""

    def __init__(self, dim):
        self.dim = dim
        self.data = {}

    def insert(self, key, embedding):
        self.data[key] = embedding

    def get(self, key):
        return self.data.get(key)

    def prefix_search(self, prefix):
        keys = sorted(k for k in self.data if k.startswith(prefix))
        rows = [self.data[k] for k in keys]
        return keys, torch.stack(rows) if rows else torch.empty(0, self.dim, dtype=torch.float64)
