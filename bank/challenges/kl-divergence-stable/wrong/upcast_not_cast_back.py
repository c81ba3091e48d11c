# expect: Wrong Answer
import torch


def kl_divergence(p_logits, q_logits):
    log_p = torch.log_softmax(p_logits.double(), dim=-1)  # upcast "for stability", never cast back
    log_q = torch.log_softmax(q_logits.double(), dim=-1)
    per_element = log_p.exp() * (log_p - log_q)  # p underflowing to 0 gives 0 * finite = 0
    return per_element.sum() / p_logits.shape[0]  # "batchmean": divide by dim 0 only
