# expect: Wrong Answer
import torch


class Zero1Adam:
    # every rank keeps the FULL Adam state and only updates its slice of it: correct numbers, no memory saved
    def __init__(self, params, world_size, lr=1e-3, betas=(0.9, 0.999), eps=1e-8):
        self.params, self.world = list(params), world_size
        self.lr, (self.b1, self.b2), self.eps = lr, betas, eps
        n = sum(p.numel() for p in self.params)
        self.shard = -(-n // world_size)
        dt = self.params[0].dtype
        self.state = [{"exp_avg": torch.zeros(self.shard * world_size, dtype=dt),
                       "exp_avg_sq": torch.zeros(self.shard * world_size, dtype=dt), "step": 0}
                      for _ in range(world_size)]

    @torch.no_grad()
    def step(self, rank_grads):
        pad = self.shard * self.world - sum(p.numel() for p in self.params)
        grads = torch.stack([torch.cat([g.reshape(-1) for g in gs] + [gs[0].new_zeros(pad)]) for gs in rank_grads])
        g = grads.mean(0)
        flat_p = torch.cat([p.reshape(-1) for p in self.params] + [self.params[0].new_zeros(pad)])
        out = flat_p.clone()
        for r in range(self.world):
            lo, hi = r * self.shard, (r + 1) * self.shard
            st = self.state[r]
            st["step"] += 1
            t = st["step"]
            m, v = st["exp_avg"], st["exp_avg_sq"]
            m[lo:hi] = self.b1 * m[lo:hi] + (1 - self.b1) * g[lo:hi]
            v[lo:hi] = self.b2 * v[lo:hi] + (1 - self.b2) * g[lo:hi] ** 2
            denom = v[lo:hi].sqrt() / (1 - self.b2**t) ** 0.5 + self.eps
            out[lo:hi] = flat_p[lo:hi] - self.lr / (1 - self.b1**t) * m[lo:hi] / denom
        offset = 0
        for p in self.params:
            p.copy_(out[offset:offset + p.numel()].view_as(p))
            offset += p.numel()

    def shard_state(self, rank):
        return self.state[rank]
