import torch


def apply_penalties(logits, history, repetition_penalty=1.0, frequency_penalty=0.0, presence_penalty=0.0):
    B, V = logits.shape
    valid = history >= 0  # -1 is padding
    counts = torch.zeros(B, V, dtype=logits.dtype, device=logits.device)
    counts.scatter_add_(1, history.clamp(min=0), valid.to(logits.dtype))  # occurrences per (row, token)
    seen = counts > 0
    # CTRL: once per seen token, whatever its count; the sign decides divide or multiply
    penalized = torch.where(logits > 0, logits / repetition_penalty, logits * repetition_penalty)
    out = torch.where(seen, penalized, logits)
    # OpenAI: frequency scales with the count, presence is paid once
    return out - frequency_penalty * counts - presence_penalty * seen.to(logits.dtype)
