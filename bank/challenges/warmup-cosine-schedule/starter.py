import math
from typing import Callable


def lr_at(step: int, base_lr: float, min_lr: float, warmup_steps: int, total_steps: int) -> float:
    raise NotImplementedError


def lr_lambda(warmup_steps: int, total_steps: int, min_ratio: float) -> Callable[[int], float]:
    """A multiplier for torch.optim.lr_scheduler.LambdaLR: lr(step) = base_lr * f(step)."""
    raise NotImplementedError
