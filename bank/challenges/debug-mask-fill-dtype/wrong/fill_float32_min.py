# expect: Runtime Error
import math

import torch


def masked_attention(q, k, v, key_padding_mask):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    # fine in float32/float64; in float16 this value overflows: RuntimeError
    scores = scores.masked_fill(key_padding_mask[:, None, :], torch.finfo(torch.float32).min)
    weights = torch.softmax(scores, dim=-1)
    return weights @ v, weights
