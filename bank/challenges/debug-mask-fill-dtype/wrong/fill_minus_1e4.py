# expect: Wrong Answer
import math

import torch


def masked_attention(q, k, v, key_padding_mask):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    # fits float16, but "very negative" is relative: real scores of -20000 sink below the padding
    scores = scores.masked_fill(key_padding_mask[:, None, :], -1e4)
    weights = torch.softmax(scores, dim=-1)
    return weights @ v, weights
