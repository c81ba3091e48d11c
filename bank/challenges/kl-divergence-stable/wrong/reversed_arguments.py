# expect: Wrong Answer
import torch


def kl_divergence(p_logits, q_logits):
    log_p = torch.log_softmax(p_logits, dim=-1)
    log_q = torch.log_softmax(q_logits, dim=-1)
    return (log_q.exp() * (log_q - log_p)).sum() / p_logits.shape[0]  # KL(q || p)
