import math  # noqa: F401 - for your solution


def cycle(epoch: float, T_0: int, T_mult: int = 1) -> tuple[float, int]:
    """(T_cur, T_i): the position inside the current cycle and that cycle's length."""
    raise NotImplementedError


def lr_at(epoch: float, base_lr: float, T_0: int, T_mult: int = 1, eta_min: float = 0.0) -> float:
    raise NotImplementedError
