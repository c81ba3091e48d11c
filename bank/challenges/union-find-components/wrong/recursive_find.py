# expect: Runtime Error
import torch


def components(n: int, edges: torch.Tensor) -> torch.Tensor:
    parent = list(range(n))
    size = [1] * n

    def find(v: int) -> int:
        if parent[v] != v:
            parent[v] = find(parent[v])  # recursive compression: depth = path length before compression
        return parent[v]

    for a, b in edges.tolist():
        ra, rb = find(a), find(b)
        if ra == rb:
            continue
        parent[ra] = rb  # no union by size: an in-order chain becomes a 100000-long path
        size[ra] += size[rb]
    roots = torch.tensor([find(v) for v in range(n)], dtype=torch.int64)
    smallest = torch.full((n,), n, dtype=torch.int64).scatter_reduce(0, roots, torch.arange(n), reduce="amin")
    return smallest[roots]
