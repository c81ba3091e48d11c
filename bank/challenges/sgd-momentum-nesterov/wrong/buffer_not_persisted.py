# expect: Wrong Answer
import torch


class SGD:
    def __init__(self, params, lr, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False):
        self.params = list(params)
        self.lr, self.momentum, self.dampening = lr, momentum, dampening
        self.weight_decay, self.nesterov = weight_decay, nesterov
        self.buffers = [None] * len(self.params)  # momentum buffers, created on first use

    def zero_grad(self):
        for p in self.params:
            p.grad = None

    @torch.no_grad()
    def step(self):
        for i, p in enumerate(self.params):
            if p.grad is None:
                continue
            g = p.grad
            if self.weight_decay:
                g = g + self.weight_decay * p  # L2 term joins the gradient before momentum
            if self.momentum:
                buf = torch.zeros_like(g) if self.buffers[i] is None else self.buffers[i].clone()
                buf = self.momentum * buf + (1 - self.dampening) * g  # dampened from step 1 and never stored back
                g = g + self.momentum * buf if self.nesterov else buf  # look ahead with the new buffer
            p.sub_(self.lr * g)
