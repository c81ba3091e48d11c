# expect: Wrong Answer
import torch


def apply_penalties(logits, history, repetition_penalty=1.0, frequency_penalty=0.0, presence_penalty=0.0):
    B, V = logits.shape
    valid = history >= 0
    counts = torch.zeros(B, V, dtype=logits.dtype)
    counts.scatter_add_(1, history.clamp(min=0), valid.to(logits.dtype))
    seen = counts > 0
    penalized = torch.where(logits > 0, logits / repetition_penalty, logits * repetition_penalty)
    out = torch.where(seen, penalized, logits)
    return out - (frequency_penalty + presence_penalty) * counts  # presence is paid once, not per occurrence
