import math


def cycle(epoch, T_0, T_mult=1):
    if T_mult == 1:
        return epoch % T_0, T_0
    # cycle n starts at T_0 (T_mult^n - 1) / (T_mult - 1): invert that geometric sum, then fix float rounding
    n = int(math.log(epoch / T_0 * (T_mult - 1) + 1, T_mult))
    start = lambda k: T_0 * (T_mult**k - 1) // (T_mult - 1)  # noqa: E731 - an exact integer
    while n > 0 and epoch < start(n):
        n -= 1
    while epoch >= start(n + 1):
        n += 1
    return epoch - start(n), T_0 * T_mult**n


def lr_at(epoch, base_lr, T_0, T_mult=1, eta_min=0.0):
    t_cur, t_i = cycle(epoch, T_0, T_mult)
    return eta_min + (base_lr - eta_min) * (1 + math.cos(math.pi * t_cur / t_i)) / 2
