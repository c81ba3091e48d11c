# expect: Wrong Answer
import math

import torch
import torch.nn as nn


class CausalSelfAttention(nn.Module):
    def __init__(self, embed_dim, num_heads):
        super().__init__()
        assert embed_dim % num_heads == 0
        self.n_head = num_heads
        self.qkv_proj = nn.Linear(embed_dim, 3 * embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)
        self.reset_cache()

    def reset_cache(self):
        self.cache_k = self.cache_v = None  # (B, H, P, Dh) once filled

    def forward(self, x, use_cache=False):
        B, n, E = x.shape
        Dh = E // self.n_head
        q, k, v = self.qkv_proj(x).split(E, dim=2)
        q, k, v = (t.reshape(B, self.n_head, n, Dh) for t in (q, k, v))  # (B, H, n, Dh)
        P = 0
        if use_cache:
            if self.cache_k is not None:
                P = self.cache_k.size(2)
                k = torch.cat([self.cache_k, k], dim=2)  # (B, H, P + n, Dh)
                v = torch.cat([self.cache_v, v], dim=2)
            self.cache_k, self.cache_v = k, v
        att = (q @ k.transpose(-2, -1)) / math.sqrt(Dh)  # (B, H, n, P + n)
        keep = torch.ones(n, P + n, dtype=torch.bool, device=x.device).tril(diagonal=P)  # new token i sees 0..P+i
        att = att.masked_fill(~keep, float("-inf"))
        y = torch.softmax(att, dim=-1) @ v
        y = y.transpose(1, 2).contiguous().view(B, n, E)
        return self.out_proj(y)
