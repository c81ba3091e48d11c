# expect: Wrong Answer
import torch


def kl_divergence(p_logits, q_logits):
    p = torch.softmax(p_logits, dim=-1)
    q = torch.softmax(q_logits, dim=-1)
    return (p * torch.log(p / q)).sum() / p_logits.shape[0]  # 0 * log(0 / 0) = NaN once softmax underflows
