# expect: Wrong Answer
import torch


@torch.no_grad()
def clip_grad_norm_(parameters, max_norm, norm_type=2.0):
    params = [parameters] if isinstance(parameters, torch.Tensor) else list(parameters)
    grads = [p.grad for p in params if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    total = torch.linalg.vector_norm(torch.cat([g.flatten() for g in grads]), float(norm_type))
    if total > max_norm:
        for g in grads:
            g.mul_(max_norm / total)  # exactly max_norm / total: PyTorch divides by total + 1e-6
    return total


@torch.no_grad()
def clip_grad_value_(parameters, clip_value):
    params = [parameters] if isinstance(parameters, torch.Tensor) else list(parameters)
    for p in params:
        if p.grad is not None:
            p.grad.clamp_(-clip_value, clip_value)
