# expect: Rule Violation
import torch.nn.functional as F


def kl_divergence(p_logits, q_logits):
    return F.kl_div(F.log_softmax(q_logits, -1), F.log_softmax(p_logits, -1), reduction="batchmean", log_target=True)
