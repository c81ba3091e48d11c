# expect: Wrong Answer
import math


def cycle(epoch, T_0, T_mult=1):
    if T_mult == 1:
        return epoch % T_0, T_0
    n = int(math.log(epoch / T_0 * (T_mult - 1) + 1, T_mult))
    t_i = T_0 * T_mult ** (n + 1)  # the length of the next cycle, not the current one
    return epoch - T_0 * (T_mult**n - 1) / (T_mult - 1), t_i


def lr_at(epoch, base_lr, T_0, T_mult=1, eta_min=0.0):
    t_cur, t_i = cycle(epoch, T_0, T_mult)
    return eta_min + (base_lr - eta_min) * (1 + math.cos(math.pi * t_cur / t_i)) / 2
