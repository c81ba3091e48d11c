# expect: Wrong Answer
import torch


class GradScaler:
    def __init__(self, init_scale=2.0**16, growth_factor=2.0, backoff_factor=0.5, growth_interval=2000):
        self._scale = float(init_scale)
        self.growth_factor, self.backoff_factor, self.growth_interval = growth_factor, backoff_factor, growth_interval
        self._clean_steps = 0  # consecutive steps without inf/NaN
        self._found_inf = None  # None: this iteration's gradients are not unscaled yet

    def scale(self, loss):
        return loss * self._scale

    @torch.no_grad()
    def unscale_(self, optimizer):
        found = False
        for group in optimizer.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    p.grad.mul_(1.0 / self._scale)
                    found = found or not torch.isfinite(p.grad).all().item()
        self._found_inf = found

    def step(self, optimizer):
        if self._found_inf is None:
            self.unscale_(optimizer)
        if not self._found_inf:  # overflow: skip the update entirely, the weights stay as they were
            optimizer.step()

    def update(self):
        if self._found_inf:
            self._scale *= self.backoff_factor
            self._clean_steps = 0
        else:
            self._clean_steps += 1
            if self._clean_steps == self.growth_interval:
                self._scale *= self.growth_factor
                self._clean_steps = 0
        # _found_inf is not reset: step() believes the next iteration is already unscaled

    def get_scale(self):
        return self._scale
