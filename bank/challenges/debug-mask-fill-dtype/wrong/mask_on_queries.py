# expect: Wrong Answer
import math

import torch


def masked_attention(q, k, v, key_padding_mask):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    # the mask broadcast along the wrong axis: (B, S, 1) masks query rows, not key columns
    scores = scores.masked_fill(key_padding_mask[:, :, None], float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return weights @ v, weights
