import math

import torch


def masked_attention(q, k, v, key_padding_mask):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    # -inf, not 0: a score of 0 is an ordinary score that softmax gives weight to. -inf exists in
    # every float dtype (a "very negative" constant such as -1e9 overflows float16)
    scores = scores.masked_fill(key_padding_mask[:, None, :], float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return weights @ v, weights
