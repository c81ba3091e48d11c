# expect: Wrong Answer
import torch


@torch.no_grad()
def clip_grad_norm_(parameters, max_norm, norm_type=2.0):
    params = [parameters] if isinstance(parameters, torch.Tensor) else list(parameters)
    norms = []
    for p in params:
        if p.grad is None:
            continue
        n = torch.linalg.vector_norm(p.grad, float(norm_type))
        p.grad.mul_(torch.clamp(max_norm / (n + 1e-6), max=1.0))  # each tensor clipped on its own
        norms.append(n)
    if not norms:
        return torch.tensor(0.0)
    return torch.linalg.vector_norm(torch.stack(norms), float(norm_type))


@torch.no_grad()
def clip_grad_value_(parameters, clip_value):
    params = [parameters] if isinstance(parameters, torch.Tensor) else list(parameters)
    for p in params:
        if p.grad is not None:
            p.grad.clamp_(-clip_value, clip_value)
