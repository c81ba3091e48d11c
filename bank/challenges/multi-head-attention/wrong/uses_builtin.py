# expect: Rule Violation
import torch
import torch.nn as nn


class MultiheadAttention(nn.Module):
    def __init__(self, embed_dim, num_heads, fused=True):
        super().__init__()
        self.fused = fused
        self.mha = nn.MultiheadAttention(embed_dim, num_heads, batch_first=True)
        if fused:
            self.qkv_proj = nn.Linear(embed_dim, 3 * embed_dim)
        else:
            self.q_proj = nn.Linear(embed_dim, embed_dim)
            self.k_proj = nn.Linear(embed_dim, embed_dim)
            self.v_proj = nn.Linear(embed_dim, embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, query, key, value, key_padding_mask=None):
        raise NotImplementedError
