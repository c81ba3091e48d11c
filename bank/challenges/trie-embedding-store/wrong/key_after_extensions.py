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

    def prefix_search(self, prefix):
        node = self.root
        for ch in prefix:
            node = node.children.get(ch)
            if node is None:
                return [], torch.empty(0, self.dim, dtype=torch.float64)
        keys, rows = [], []
        # post-order: children first, so "abc" comes before "ab"
        stack = [(prefix, node, False)]
        while stack:
            s, n, done = stack.pop()
            if done:
                if n.value is not None:
                    keys.append(s)
                    rows.append(n.value)
                continue
            stack.append((s, n, True))
            for ch in sorted(n.children, reverse=True):
                stack.append((s + ch, n.children[ch], False))
        return keys, torch.stack(rows) if rows else torch.empty(0, self.dim, dtype=torch.float64)
