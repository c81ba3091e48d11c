# expect: Wrong Answer
import math

import torch.nn.functional as F


def predict_proba(logits):
    return F.softmax(logits, dim=-1)


def attention(q, k, v):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])  # (..., T, S)
    weights = F.softmax(scores, dim=-2)  # normalises each key's column over the queries
    return weights @ v, weights
