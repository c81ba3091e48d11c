# expect: Wrong Answer
import torch


def components(n, edges):
    parent = list(range(n))

    def find(v):
        while parent[v] != v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    for a, b in edges.tolist():
        parent[find(a)] = find(b)
    return torch.tensor([find(v) for v in range(n)], dtype=torch.int64)  # a root, not the smallest id
