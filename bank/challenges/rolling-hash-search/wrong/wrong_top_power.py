# expect: Wrong Answer
import torch

P = 2_147_483_629
B = 1_048_583


def find_all(text, pattern):
    t, p = text.tolist(), pattern.tolist()
    n, m = len(t), len(p)
    if m == 0 or m > n:
        return torch.empty(0, dtype=torch.int64)
    top = pow(B, m, P)  # the outgoing token carries B**(m-1), not B**m
    hp = hw = 0
    for j in range(m):
        hp = (hp * B + p[j]) % P
        hw = (hw * B + t[j]) % P
    hits = []
    for i in range(n - m + 1):
        if hw == hp and t[i:i + m] == p:
            hits.append(i)
        if i + m < n:
            hw = ((hw - t[i] * top) * B + t[i + m]) % P
    return torch.tensor(hits, dtype=torch.int64)
