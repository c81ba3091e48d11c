# expect: Time Limit Exceeded
import torch


def components(n, edges):
    parent = list(range(n))

    def find(v):
        while parent[v] != v:  # no path compression, no union by size: chains stay long
            v = parent[v]
        return v

    for a, b in edges.tolist():
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb
    roots = torch.tensor([find(v) for v in range(n)], dtype=torch.int64)
    smallest = torch.full((n,), n, dtype=torch.int64).scatter_reduce(0, roots, torch.arange(n), reduce="amin")
    return smallest[roots]
