# expect: Wrong Answer
import torch


class MixedPrecisionSGD:
    def __init__(self, params, lr, momentum=0.0, init_scale=2.0**16, growth_factor=2.0, backoff_factor=0.5,
                 growth_interval=2000):
        self.params = list(params)
        self.masters = [p.detach().float().clone() for p in self.params]
        self.bufs = [torch.zeros_like(m) for m in self.masters]
        self.lr, self.momentum = lr, momentum
        self.scale = float(init_scale)
        self.growth_factor, self.backoff_factor, self.growth_interval = growth_factor, backoff_factor, growth_interval
        self.clean_steps = 0

    def scale_loss(self, loss):
        return loss * self.scale

    @torch.no_grad()
    def step(self):
        found_inf = False
        for p, m, buf in zip(self.params, self.masters, self.bufs, strict=True):
            g = p.grad.float() / self.scale
            if not torch.isfinite(g).all():
                found_inf = True
                continue  # skips only this parameter: the others still step on a bad iteration
            buf.mul_(self.momentum).add_(g)
            m.sub_(self.lr * buf)
            p.copy_(m)
        if found_inf:
            self.scale *= self.backoff_factor
            self.clean_steps = 0
            return False
        self.clean_steps += 1
        if self.clean_steps == self.growth_interval:
            self.scale *= self.growth_factor
            self.clean_steps = 0
        return True

    def get_scale(self):
        return self.scale

    def master_params(self):
        return self.masters
