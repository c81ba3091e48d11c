# expect: Wrong Answer
import math

import torch


def masked_attention(q, k, v, key_padding_mask):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    weights = torch.softmax(scores, dim=-1)
    weights = weights * ~key_padding_mask[:, None, :]  # zeroed after the softmax: rows no longer sum to 1
    return weights @ v, weights
