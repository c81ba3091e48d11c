# expect: Wrong Answer
import math

import torch


def masked_attention(q, k, v, key_padding_mask):
    """q (B, T, d), k (B, S, d), v (B, S, dv); key_padding_mask (B, S) bool, True = padding.

    Returns (output (B, T, dv), weights (B, T, S)).
    """
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    scores = scores.masked_fill(key_padding_mask[:, None, :], 0)
    weights = torch.softmax(scores, dim=-1)
    return weights @ v, weights
