# expect: Wrong Answer
import torch


def kl_divergence(p_logits, q_logits):
    log_p = torch.log_softmax(p_logits.detach(), dim=-1)  # "p is the teacher": but both gradients are asked for
    log_q = torch.log_softmax(q_logits, dim=-1)
    per_element = log_p.exp() * (log_p - log_q)  # p underflowing to 0 gives 0 * finite = 0
    return per_element.sum() / p_logits.shape[0]  # "batchmean": divide by dim 0 only
