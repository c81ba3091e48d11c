# expect: Wrong Answer
import math


def cycle(epoch, T_0, T_mult=1):
    epoch = int(epoch)  # the schedule only moves once per epoch: per-batch steps are lost
    t_cur, t_i = epoch, T_0
    while t_cur >= t_i:
        t_cur -= t_i
        t_i *= T_mult
    return float(t_cur), t_i


def lr_at(epoch, base_lr, T_0, T_mult=1, eta_min=0.0):
    t_cur, t_i = cycle(epoch, T_0, T_mult)
    return eta_min + (base_lr - eta_min) * (1 + math.cos(math.pi * t_cur / t_i)) / 2
