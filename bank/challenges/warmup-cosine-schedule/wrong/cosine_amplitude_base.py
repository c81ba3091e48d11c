# expect: Wrong Answer
import math


def lr_at(step, base_lr, min_lr, warmup_steps, total_steps):
    if step < warmup_steps:
        return base_lr * (step + 1) / warmup_steps  # reaches base_lr on the last warmup step
    if step >= total_steps:
        return min_lr
    progress = (step - warmup_steps) / (total_steps - warmup_steps)  # 0 -> 1 over the post-warmup steps only
    return min_lr + base_lr * 0.5 * (1.0 + math.cos(math.pi * progress))  # amplitude base_lr: starts at base_lr + min_lr


def lr_lambda(warmup_steps, total_steps, min_ratio):
    return lambda step: lr_at(step, 1.0, min_ratio, warmup_steps, total_steps)
