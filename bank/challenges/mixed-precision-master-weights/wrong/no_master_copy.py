# expect: Wrong Answer
import torch


class MixedPrecisionSGD:
    def __init__(self, params, lr, momentum=0.0, init_scale=2.0**16, growth_factor=2.0, backoff_factor=0.5,
                 growth_interval=2000):
        self.params = list(params)
        self.bufs = [torch.zeros(p.shape, dtype=torch.float32) for p in self.params]
        self.lr, self.momentum = lr, momentum
        self.scale = float(init_scale)
        self.growth_factor, self.backoff_factor, self.growth_interval = growth_factor, backoff_factor, growth_interval
        self.clean_steps = 0

    def scale_loss(self, loss):
        return loss * self.scale

    @torch.no_grad()
    def step(self):
        grads = [p.grad.float() / self.scale for p in self.params]
        if any(not torch.isfinite(g).all() for g in grads):
            self.scale *= self.backoff_factor
            self.clean_steps = 0
            return False
        for p, buf, g in zip(self.params, self.bufs, grads, strict=True):
            buf.mul_(self.momentum).add_(g)
            p.sub_((self.lr * buf).to(p.dtype))  # the update is added in fp16: small steps round away
        self.clean_steps += 1
        if self.clean_steps == self.growth_interval:
            self.scale *= self.growth_factor
            self.clean_steps = 0
        return True

    def get_scale(self):
        return self.scale

    def master_params(self):
        return [p.detach().float() for p in self.params]
