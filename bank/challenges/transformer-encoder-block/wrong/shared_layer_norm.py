# expect: Wrong Answer
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class EncoderBlock(nn.Module):
    def __init__(self, d_model, n_head, d_ff, dropout=0.0):
        super().__init__()
        assert d_model % n_head == 0
        self.n_head = n_head
        self.ln1 = nn.LayerNorm(d_model)
        self.qkv_proj = nn.Linear(d_model, 3 * d_model)
        self.out_proj = nn.Linear(d_model, d_model)
        self.ln2 = nn.LayerNorm(d_model)
        self.fc1 = nn.Linear(d_model, d_ff)
        self.fc2 = nn.Linear(d_ff, d_model)
        self.drop = nn.Dropout(dropout)

    def attention(self, x, key_padding_mask):
        B, T, E = x.shape
        Dh = E // self.n_head
        q, k, v = self.qkv_proj(x).split(E, dim=2)
        q, k, v = (t.view(B, T, self.n_head, Dh).transpose(1, 2) for t in (q, k, v))  # (B, H, T, Dh)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(Dh)
        if key_padding_mask is not None:
            att = att.masked_fill(key_padding_mask[:, None, None, :], float("-inf"))
        y = torch.softmax(att, dim=-1) @ v
        return self.out_proj(y.transpose(1, 2).reshape(B, T, E))

    def forward(self, x, key_padding_mask=None):
        x = x + self.drop(self.attention(self.ln1(x), key_padding_mask))
        x = x + self.drop(self.fc2(F.gelu(self.fc1(self.ln1(x)))))  # ln1 reused before the MLP; ln2 unused
        return x
