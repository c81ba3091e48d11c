# expect: Wrong Answer
import torch


class Adam:
    decoupled = False

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0):
        self.params = list(params)
        self.lr, (self.beta1, self.beta2), self.eps, self.weight_decay = lr, betas, eps, weight_decay
        self.t = [0] * len(self.params)
        self.m = [torch.zeros_like(p) for p in self.params]
        self.v = [torch.zeros_like(p) for p in self.params]

    @torch.no_grad()
    def step(self):
        b1, b2 = self.beta1, self.beta2
        for i, p in enumerate(self.params):
            if p.grad is None:
                continue
            self.t[i] += 1
            t, m, v = self.t[i], self.m[i], self.v[i]
            g = p.grad
            if self.decoupled:
                p.mul_(1 - self.lr * self.weight_decay)
            else:
                g = g + self.weight_decay * p
            m.mul_(b1).add_(g, alpha=1 - b1)
            v.mul_(b2).addcmul_(g, g, value=1 - b2)
            m_hat, v_hat = m / (1 - b1 ** t), v / (1 - b2 ** t)
            p.sub_(self.lr * m_hat / torch.sqrt(v_hat + self.eps))  # eps under the root


class AdamW(Adam):
    decoupled = True

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
        super().__init__(params, lr, betas, eps, weight_decay)
