# expect: Wrong Answer
import torch


@torch.no_grad()
def clip_grad_norm_(parameters, max_norm, norm_type=2.0):
    params = [parameters] if isinstance(parameters, torch.Tensor) else list(parameters)  # a generator is read once
    grads = [p.grad for p in params if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    norm_type = float(norm_type)
    # the norm of the per-tensor norms = the norm of all gradients concatenated into one vector
    per_tensor = torch.stack([torch.linalg.vector_norm(g, norm_type) for g in grads])
    total = torch.linalg.vector_norm(per_tensor, norm_type)
    coef = max_norm / (total + 1e-6)  # no min(., 1): small gradients are scaled UP to max_norm
    for g in grads:
        g.mul_(coef)
    return total


@torch.no_grad()
def clip_grad_value_(parameters, clip_value):
    params = [parameters] if isinstance(parameters, torch.Tensor) else list(parameters)
    for p in params:
        if p.grad is not None:
            p.grad.clamp_(-clip_value, clip_value)
