# expect: Runtime Error
import math

import torch


def masked_attention(q, k, v, key_padding_mask):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    # a float32 bias: float16 scores are promoted to float32, and float32 weights @ float16 v fails
    bias = key_padding_mask.float() * -1e9
    weights = torch.softmax(scores + bias[:, None, :], dim=-1)
    return weights @ v, weights
