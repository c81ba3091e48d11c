# expect: Wrong Answer
import torch


class _Node:
    def __init__(self, dim):
        self.children = {}
        self.value = torch.zeros(dim, dtype=torch.float64)  # every node "has" an embedding
        self.is_key = False


class TrieEmbeddingStore:
    def __init__(self, dim):
        self.dim = dim
        self.root = _Node(dim)

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
            if ch not in node.children:
                node.children[ch] = _Node(self.dim)
            node = node.children[ch]
        node.value, node.is_key = embedding, True

    def get(self, key):
        node = self._find(key)
        return None if node is None else node.value  # a prefix node returns zeros instead of None

    def prefix_search(self, prefix):
        keys, rows = [], []
        start = self._find(prefix)
        stack = [] if start is None else [(prefix, start)]
        while stack:
            s, node = stack.pop()
            if node.is_key:
                keys.append(s)
                rows.append(node.value)
            for ch in sorted(node.children, reverse=True):
                stack.append((s + ch, node.children[ch]))
        return keys, torch.stack(rows) if rows else torch.empty(0, self.dim, dtype=torch.float64)
