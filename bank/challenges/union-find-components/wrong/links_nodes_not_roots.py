# expect: Wrong Answer
import torch


def components(n: int, edges: torch.Tensor) -> torch.Tensor:
    parent = list(range(n))
    size = [1] * n

    def find(v: int) -> int:
        root = v
        while parent[root] != root:
            root = parent[root]
        while parent[v] != root:  # path compression
            parent[v], v = root, parent[v]
        return root

    for a, b in edges.tolist():
        ra, rb = find(a), find(b)
        if ra == rb:
            continue
        if size[ra] < size[rb]:  # union by size
            ra, rb = rb, ra
        parent[b] = a  # links the endpoints, not their roots: b's old tree is cut off
        size[ra] += size[rb]
    roots = torch.tensor([find(v) for v in range(n)], dtype=torch.int64)
    smallest = torch.full((n,), n, dtype=torch.int64).scatter_reduce(0, roots, torch.arange(n), reduce="amin")
    return smallest[roots]
