# expect: Wrong Answer
import math

import torch


class Zero1Adam:
    # no padding: tensor_split gives ranks shards of different lengths when N % W != 0
    def __init__(self, params, world_size, lr=1e-3, betas=(0.9, 0.999), eps=1e-8):
        self.params, self.world = list(params), world_size
        self.lr, (self.b1, self.b2), self.eps = lr, betas, eps
        numel = sum(p.numel() for p in self.params)
        self.bounds = []
        for piece in torch.arange(numel).tensor_split(world_size):
            lo = int(piece[0]) if piece.numel() else numel
            self.bounds.append((lo, lo + piece.numel()))
        dt = self.params[0].dtype
        self.state = [{"exp_avg": torch.zeros(hi - lo, dtype=dt), "exp_avg_sq": torch.zeros(hi - lo, dtype=dt),
                       "step": 0} for lo, hi in self.bounds]

    @torch.no_grad()
    def step(self, rank_grads):
        grads = torch.stack([torch.cat([g.reshape(-1) for g in gs]) for gs in rank_grads])
        flat_p = torch.cat([p.reshape(-1) for p in self.params])
        new = []
        for r, (lo, hi) in enumerate(self.bounds):
            g = grads[:, lo:hi].mean(0)
            st = self.state[r]
            st["step"] += 1
            t = st["step"]
            st["exp_avg"].mul_(self.b1).add_(g, alpha=1 - self.b1)
            st["exp_avg_sq"].mul_(self.b2).addcmul_(g, g, value=1 - self.b2)
            denom = st["exp_avg_sq"].sqrt() / math.sqrt(1 - self.b2**t) + self.eps
            new.append(flat_p[lo:hi] - self.lr / (1 - self.b1**t) * st["exp_avg"] / denom)
        flat_p = torch.cat(new)
        offset = 0
        for p in self.params:
            p.copy_(flat_p[offset:offset + p.numel()].view_as(p))
            offset += p.numel()

    def shard_state(self, rank):
        return self.state[rank]
