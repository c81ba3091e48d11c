# expect: Wrong Answer
import torch


def apply_penalties(logits, history, repetition_penalty=1.0, frequency_penalty=0.0, presence_penalty=0.0):
    B, V = logits.shape
    counts = torch.zeros(B, V, dtype=logits.dtype)
    ones = torch.ones(history.shape, dtype=logits.dtype)
    counts.scatter_add_(1, history.clamp(min=0), ones)  # padding becomes occurrences of token 0
    seen = counts > 0
    penalized = torch.where(logits > 0, logits / repetition_penalty, logits * repetition_penalty)
    out = torch.where(seen, penalized, logits)
    return out - frequency_penalty * counts - presence_penalty * seen.to(logits.dtype)
