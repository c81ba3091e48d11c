# expect: Wrong Answer
import torch


class SGD:
    def __init__(self, params, lr, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False):
        self.params = list(params)
        self.lr, self.momentum, self.dampening = lr, momentum, dampening
        self.weight_decay, self.nesterov = weight_decay, nesterov
        self.buffers = [None] * len(self.params)

    def zero_grad(self):
        for p in self.params:
            p.grad = None

    @torch.no_grad()
    def step(self):
        for i, p in enumerate(self.params):
            if p.grad is None:
                continue
            g = p.grad + self.weight_decay * p
            if self.momentum:
                old = self.buffers[i]
                if old is None:
                    new = g.clone()
                    old = torch.zeros_like(g)
                else:
                    new = self.momentum * old + (1 - self.dampening) * g
                self.buffers[i] = new
                g = g + self.momentum * old if self.nesterov else new  # look-ahead with the stale buffer
            p.sub_(self.lr * g)
