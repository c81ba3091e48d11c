# expect: Wrong Answer
import torch


class _Node:
    __slots__ = ("children", "value")

    def __init__(self):
        self.children = {}  # character -> _Node
        self.value = None  # the embedding, only if a key ends exactly here


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
            nxt = node.children.get(ch)
            if nxt is None:
                nxt = node.children[ch] = _Node()
            node = nxt
        if node.value is None:  # a second insert of the same key is ignored
            node.value = embedding

    def get(self, key):
        node = self._find(key)
        return None if node is None else node.value  # a prefix that is not a key has no value

    def prefix_search(self, prefix):
        keys, rows = [], []
        start = self._find(prefix)
        stack = [] if start is None else [(prefix, start)]
        while stack:  # iterative pre-order DFS: a key comes before its extensions
            s, node = stack.pop()
            if node.value is not None:
                keys.append(s)
                rows.append(node.value)
            for ch in sorted(node.children, reverse=True):  # pushed in reverse, popped in order
                stack.append((s + ch, node.children[ch]))
        emb = torch.stack(rows) if rows else torch.empty(0, self.dim, dtype=torch.float64)
        return keys, emb
