# expect: Wrong Answer
import torch

P = 2_147_483_629  # prime < 2**31: products of residues stay below 2**62
B = 1_048_583  # base > alphabet size 2**20


def find_all(text: torch.Tensor, pattern: torch.Tensor) -> torch.Tensor:
    t, p = text.tolist(), pattern.tolist()
    n, m = len(t), len(p)
    if m == 0 or m > n:
        return torch.empty(0, dtype=torch.int64)
    top = pow(B, m - 1, P)
    hp = hw = 0
    for j in range(m):
        hp = (hp * B + p[j]) % P
        hw = (hw * B + t[j]) % P
    hits = []
    for i in range(n - m + 1):
        if hw == hp and t[i:i + m] == p:  # confirm: collisions are possible
            hits.append(i)
        if i + m < n:
            hw = ((hw - t[i] * top) * B + t[i + m]) % P
    return torch.tensor(hits)  # no matches: torch.tensor([]) is float32, not int64
