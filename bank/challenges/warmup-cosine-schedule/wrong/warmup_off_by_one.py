# expect: Wrong Answer
import math


def lr_at(step, base_lr, min_lr, warmup_steps, total_steps):
    if step < warmup_steps:
        return base_lr * step / warmup_steps  # starts at 0 and never reaches base_lr during warmup
    if step >= total_steps:
        return min_lr
    progress = (step - warmup_steps) / (total_steps - warmup_steps)
    return min_lr + (base_lr - min_lr) * 0.5 * (1.0 + math.cos(math.pi * progress))


def lr_lambda(warmup_steps, total_steps, min_ratio):
    return lambda step: lr_at(step, 1.0, min_ratio, warmup_steps, total_steps)
