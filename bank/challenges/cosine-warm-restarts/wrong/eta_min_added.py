# expect: Wrong Answer
import math


def cycle(epoch, T_0, T_mult=1):
    t_cur, t_i = epoch, T_0
    while t_cur >= t_i:
        t_cur -= t_i
        t_i *= T_mult
    return t_cur, t_i


def lr_at(epoch, base_lr, T_0, T_mult=1, eta_min=0.0):
    t_cur, t_i = cycle(epoch, T_0, T_mult)
    return eta_min + base_lr * (1 + math.cos(math.pi * t_cur / t_i)) / 2  # peaks at base_lr + eta_min
