# expect: Wrong Answer
import torch


class _Node:
    def __init__(self):
        self.children = {}
        self.value = None


class TrieEmbeddingStore:
    def __init__(self, dim):
        self.dim = dim
        self.root = _Node()

    def _find(self, s):
        node = self.root
        for ch in s:
            node = node.children.get(ch)
            if node is None:
                return None
        return node

    def insert(self, key, embedding):
        node = self.root
        for ch in key:
            node = node.children.setdefault(ch, _Node())
        node.value = embedding

    def get(self, key):
        node = self._find(key)
        return None if node is None else node.value

    def prefix_search(self, prefix):
        keys, rows = [], []
        start = self._find(prefix)
        stack = [] if start is None else [(prefix, start)]
        while stack:
            s, node = stack.pop()
            if node.value is not None:
                keys.append(s)
                rows.append(node.value)
            for ch in reversed(list(node.children)):  # dict order = insertion order, not sorted
                stack.append((s + ch, node.children[ch]))
        return keys, torch.stack(rows) if rows else torch.empty(0, self.dim, dtype=torch.float64)
