# expect: Wrong Answer
import torch


def apply_penalties(logits, history, repetition_penalty=1.0, frequency_penalty=0.0, presence_penalty=0.0):
    V = logits.shape[1]
    counts = torch.bincount(history[history >= 0], minlength=V).to(logits.dtype)  # one histogram for all rows
    seen = counts > 0
    penalized = torch.where(logits > 0, logits / repetition_penalty, logits * repetition_penalty)
    out = torch.where(seen, penalized, logits)
    return out - frequency_penalty * counts - presence_penalty * seen.to(logits.dtype)
