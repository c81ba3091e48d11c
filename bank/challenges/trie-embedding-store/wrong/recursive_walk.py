# expect: Runtime Error
import torch


class _Node:
    def __init__(self):
        self.children = {}
        self.value = None


class TrieEmbeddingStore:
    def __init__(self, dim):
        self.dim = dim
        self.root = _Node()

    def insert(self, key, embedding):
        node = self.root
        for ch in key:
            node = node.children.setdefault(ch, _Node())
        node.value = embedding

    def get(self, key):
        node = self.root
        for ch in key:
            node = node.children.get(ch)
            if node is None:
                return None
        return node.value

    def _collect(self, s, node, keys, rows):  # one Python frame per character: RecursionError on long keys
        if node.value is not None:
            keys.append(s)
            rows.append(node.value)
        for ch in sorted(node.children):
            self._collect(s + ch, node.children[ch], keys, rows)

    def prefix_search(self, prefix):
        node = self.root
        for ch in prefix:
            node = node.children.get(ch)
            if node is None:
                return [], torch.empty(0, self.dim, dtype=torch.float64)
        keys, rows = [], []
        self._collect(prefix, node, keys, rows)
        return keys, torch.stack(rows) if rows else torch.empty(0, self.dim, dtype=torch.float64)
