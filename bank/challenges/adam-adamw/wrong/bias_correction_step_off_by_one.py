# expect: Runtime Error
import math

import torch


class Adam:
    decoupled = False  # Adam: weight decay is an L2 term in the gradient

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0):
        self.params = list(params)
        self.lr, (self.beta1, self.beta2), self.eps, self.weight_decay = lr, betas, eps, weight_decay
        self.state = [None] * len(self.params)  # (step, exp_avg, exp_avg_sq) per parameter

    @torch.no_grad()
    def step(self):
        b1, b2 = self.beta1, self.beta2
        for i, p in enumerate(self.params):
            if p.grad is None:
                continue
            if self.state[i] is None:
                self.state[i] = [0, torch.zeros_like(p), torch.zeros_like(p)]
            st = self.state[i]
            t, m, v = st  # t read before the increment: the first step corrects with 1 - beta^0 = 0
            st[0] += 1
            g = p.grad
            if self.weight_decay and self.decoupled:
                p.mul_(1 - self.lr * self.weight_decay)  # AdamW: shrink the weights directly
            elif self.weight_decay:
                g = g + self.weight_decay * p
            m.mul_(b1).add_(g, alpha=1 - b1)
            v.mul_(b2).addcmul_(g, g, value=1 - b2)
            m_hat_scale = self.lr / (1 - b1 ** t)
            denom = v.sqrt() / math.sqrt(1 - b2 ** t) + self.eps  # eps after the bias correction
            p.sub_(m_hat_scale * m / denom)


class AdamW(Adam):
    decoupled = True

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
        super().__init__(params, lr, betas, eps, weight_decay)
