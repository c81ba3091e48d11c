# expect: Wrong Answer
import torch

P, B = 1 << 16, 1 << 16  # weak hash, and candidates are not verified


def find_all(text, pattern):
    t, p = text.tolist(), pattern.tolist()
    n, m = len(t), len(p)
    if m == 0 or m > n:
        return torch.empty(0, dtype=torch.int64)
    hp = hw = 0
    top = pow(B, m - 1, P)
    for j in range(m):
        hp = (hp * B + p[j]) % P
        hw = (hw * B + t[j]) % P
    hits = []
    for i in range(n - m + 1):
        if hw == hp:
            hits.append(i)
        if i + m < n:
            hw = ((hw - t[i] * top) * B + t[i + m]) % P
    return torch.tensor(hits, dtype=torch.int64)
