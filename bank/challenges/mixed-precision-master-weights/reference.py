import torch


class MixedPrecisionSGD:
    def __init__(self, params, lr, momentum=0.0, init_scale=2.0**16, growth_factor=2.0, backoff_factor=0.5,
                 growth_interval=2000):
        self.params = list(params)  # the model's fp16/bf16 leaves: updated in place, never replaced
        self.masters = [p.detach().float().clone() for p in self.params]  # fp32 copies that accumulate the updates
        self.bufs = [torch.zeros_like(m) for m in self.masters]  # fp32 momentum buffers
        self.lr, self.momentum = lr, momentum
        self.scale = float(init_scale)
        self.growth_factor, self.backoff_factor, self.growth_interval = growth_factor, backoff_factor, growth_interval
        self.clean_steps = 0

    def scale_loss(self, loss):
        return loss * self.scale

    @torch.no_grad()
    def step(self):
        # upcast first, then unscale: dividing in fp16 would flush small gradients to subnormals or zero
        grads = [None if p.grad is None else p.grad.float() / self.scale for p in self.params]
        if any(g is not None and not torch.isfinite(g).all() for g in grads):
            self.scale *= self.backoff_factor  # skip everything: masters, momentum and weights stay as they were
            self.clean_steps = 0
            return False
        for p, m, buf, g in zip(self.params, self.masters, self.bufs, grads, strict=True):
            if g is None:
                continue
            buf.mul_(self.momentum).add_(g)
            m.sub_(self.lr * buf)
            p.copy_(m)  # round to nearest into the low-precision weight, in place
        self.clean_steps += 1
        if self.clean_steps == self.growth_interval:
            self.scale *= self.growth_factor
            self.clean_steps = 0
        return True

    def get_scale(self):
        return self.scale

    def master_params(self):
        return self.masters
