# expect: Rule Violation
import torch.nn.utils as U


def clip_grad_norm_(parameters, max_norm, norm_type=2.0):
    return U.clip_grad_norm_(parameters, max_norm, norm_type)


def clip_grad_value_(parameters, clip_value):
    U.clip_grad_value_(parameters, clip_value)
