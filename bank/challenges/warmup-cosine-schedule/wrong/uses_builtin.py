# expect: Rule Violation
import math

from torch.optim.lr_scheduler import CosineAnnealingLR  # noqa: F401


def lr_at(step, base_lr, min_lr, warmup_steps, total_steps):
    if step < warmup_steps:
        return base_lr * (step + 1) / warmup_steps
    t = min(step, total_steps) - warmup_steps
    return min_lr + (base_lr - min_lr) * 0.5 * (1.0 + math.cos(math.pi * t / (total_steps - warmup_steps)))


def lr_lambda(warmup_steps, total_steps, min_ratio):
    return lambda step: lr_at(step, 1.0, min_ratio, warmup_steps, total_steps)
