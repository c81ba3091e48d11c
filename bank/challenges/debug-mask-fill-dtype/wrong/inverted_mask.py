# expect: Wrong Answer
import math

import torch


def masked_attention(q, k, v, key_padding_mask):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    # treats True as "keep": masks the real keys and attends to the padding
    scores = scores.masked_fill(~key_padding_mask[:, None, :], float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return weights @ v, weights
