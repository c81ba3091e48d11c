# expect: Wrong Answer
import torch


@torch.no_grad()
def clip_grad_norm_(parameters, max_norm, norm_type=2.0):
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    norms = [torch.linalg.vector_norm(p.grad, float(norm_type)) for p in parameters if p.grad is not None]
    if not norms:
        return torch.tensor(0.0)
    total = torch.linalg.vector_norm(torch.stack(norms), float(norm_type))
    coef = torch.clamp(max_norm / (total + 1e-6), max=1.0)
    for p in parameters:  # a generator is already exhausted here: nothing gets clipped
        if p.grad is not None:
            p.grad.mul_(coef)
    return total


@torch.no_grad()
def clip_grad_value_(parameters, clip_value):
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    for p in parameters:
        if p.grad is not None:
            p.grad.clamp_(-clip_value, clip_value)
