# expect: Rule Violation
import torch
from torch.optim.lr_scheduler import CosineAnnealingWarmRestarts


def _sched(epoch, base_lr, T_0, T_mult, eta_min):
    opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=base_lr)
    s = CosineAnnealingWarmRestarts(opt, T_0=T_0, T_mult=T_mult, eta_min=eta_min)
    s.step(epoch)
    return s, opt.param_groups[0]["lr"]


def cycle(epoch, T_0, T_mult=1):
    s, _ = _sched(epoch, 1.0, T_0, T_mult, 0.0)
    return s.T_cur, s.T_i


def lr_at(epoch, base_lr, T_0, T_mult=1, eta_min=0.0):
    return _sched(epoch, base_lr, T_0, T_mult, eta_min)[1]
