import math

import torch
import torch.nn.functional as F


def predict_proba(logits: torch.Tensor) -> torch.Tensor:
    # the classes are the LAST dimension; dim=0 is the batch
    return F.softmax(logits, dim=-1)


def attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])  # (..., T, S)
    weights = F.softmax(scores, dim=-1)  # each query's weights over the S keys sum to 1
    return weights @ v, weights
