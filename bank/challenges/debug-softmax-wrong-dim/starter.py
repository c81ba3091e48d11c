import math

import torch
import torch.nn.functional as F


def predict_proba(logits: torch.Tensor) -> torch.Tensor:
    """Class probabilities from logits of shape (..., C)."""
    return F.softmax(logits, dim=0)


def attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor):
    """Scaled dot-product attention. q (..., T, d), k (..., S, d), v (..., S, dv).

    Returns (output (..., T, dv), weights (..., T, S)).
    """
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    weights = F.softmax(scores, dim=0)
    return weights @ v, weights
