# expect: Wrong Answer
import torch


class Lion:
    def __init__(self, params, lr=1e-4, betas=(0.9, 0.99), weight_decay=0.0):
        self.params = list(params)
        self.lr, (self.beta1, self.beta2), self.weight_decay = lr, betas, weight_decay
        self.exp_avg = [torch.zeros_like(p) for p in self.params]  # the only state: one momentum

    @torch.no_grad()
    def step(self):
        for p, m in zip(self.params, self.exp_avg):
            if p.grad is None:
                continue
            g = p.grad
            direction = torch.sign(self.beta1 * m + (1 - self.beta1) * g)  # interpolate with beta1, then sign
            p.sub_(self.lr * direction)
            p.mul_(1 - self.lr * self.weight_decay)  # decay applied to the already-updated weight
            m.mul_(self.beta2).add_(g, alpha=1 - self.beta2)  # the momentum itself tracks with beta2, afterwards
