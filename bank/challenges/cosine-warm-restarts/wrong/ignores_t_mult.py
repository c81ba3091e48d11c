# expect: Wrong Answer
import math


def cycle(epoch, T_0, T_mult=1):
    return epoch % T_0, T_0  # every cycle as long as the first, whatever T_mult says


def lr_at(epoch, base_lr, T_0, T_mult=1, eta_min=0.0):
    t_cur, t_i = cycle(epoch, T_0, T_mult)
    return eta_min + (base_lr - eta_min) * (1 + math.cos(math.pi * t_cur / t_i)) / 2
