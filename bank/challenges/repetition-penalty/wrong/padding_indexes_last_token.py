# expect: Wrong Answer
import torch


def apply_penalties(logits, history, repetition_penalty=1.0, frequency_penalty=0.0, presence_penalty=0.0):
    out = logits.clone()
    for b in range(logits.shape[0]):
        toks, counts = history[b].unique(return_counts=True)  # -1 is among them: index -1 is the last token
        x = out[b, toks]
        x = torch.where(x > 0, x / repetition_penalty, x * repetition_penalty)
        out[b, toks] = x - frequency_penalty * counts.to(x.dtype) - presence_penalty
    return out
