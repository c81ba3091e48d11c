# expect: Wrong Answer
import math

import torch
import torch.nn as nn


class MultiheadAttention(nn.Module):
    def __init__(self, embed_dim, num_heads, fused=True):
        super().__init__()
        assert embed_dim % num_heads == 0
        self.n_head, self.fused = num_heads, fused
        if fused:
            self.qkv_proj = nn.Linear(embed_dim, 3 * embed_dim)
        else:
            self.q_proj = nn.Linear(embed_dim, embed_dim)
            self.k_proj = nn.Linear(embed_dim, embed_dim)
            self.v_proj = nn.Linear(embed_dim, embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, query, key, value, key_padding_mask=None):
        B, L, E = query.shape
        S = key.size(1)
        if self.fused:
            wq, wk, wv = self.qkv_proj.weight.chunk(3, dim=0)
            bq, bk, bv = self.qkv_proj.bias.chunk(3, dim=0)
            q, k, v = query @ wq.T + bq, key @ wk.T + bk, value @ wv.T + bv
        else:
            q, k, v = self.q_proj(query), self.k_proj(key), self.v_proj(value)
        Dh = E // self.n_head
        q = q.view(B, L, self.n_head, Dh).transpose(1, 2)  # (B, H, L, Dh)
        k = k.view(B, S, self.n_head, Dh).transpose(1, 2)
        v = v.view(B, S, self.n_head, Dh).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(E)  # model width instead of head size; (B, H, L, S)
        if key_padding_mask is not None:
            att = att.masked_fill(key_padding_mask[:, None, None, :], float("-inf"))  # mask key columns
        y = torch.softmax(att, dim=-1) @ v  # (B, H, L, Dh)
        y = y.transpose(1, 2).contiguous().view(B, L, E)
        return self.out_proj(y)
