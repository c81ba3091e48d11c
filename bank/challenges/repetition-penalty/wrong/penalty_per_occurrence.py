# expect: Wrong Answer
import torch


def apply_penalties(logits, history, repetition_penalty=1.0, frequency_penalty=0.0, presence_penalty=0.0):
    B, V = logits.shape
    valid = history >= 0
    counts = torch.zeros(B, V, dtype=logits.dtype)
    counts.scatter_add_(1, history.clamp(min=0), valid.to(logits.dtype))
    factor = repetition_penalty ** counts  # penalises again for every occurrence
    out = torch.where(logits > 0, logits / factor, logits * factor)
    return out - frequency_penalty * counts - presence_penalty * (counts > 0).to(logits.dtype)
