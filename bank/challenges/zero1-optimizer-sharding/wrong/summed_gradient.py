# expect: Wrong Answer
import math

import torch


class Zero1Adam:
    def __init__(self, params, world_size, lr=1e-3, betas=(0.9, 0.999), eps=1e-8):
        self.params, self.world = list(params), world_size
        self.lr, (self.b1, self.b2), self.eps = lr, betas, eps
        self.numel = sum(p.numel() for p in self.params)
        self.shard = math.ceil(self.numel / world_size)  # padded length = shard * world_size
        p0 = self.params[0]
        self.state = [{"exp_avg": torch.zeros(self.shard, dtype=p0.dtype),  # rank r holds only its shard
                       "exp_avg_sq": torch.zeros(self.shard, dtype=p0.dtype), "step": 0} for _ in range(world_size)]

    def _flat_padded(self, tensors):
        flat = torch.cat([t.reshape(-1) for t in tensors])
        return torch.cat([flat, flat.new_zeros(self.shard * self.world - self.numel)])

    @torch.no_grad()
    def step(self, rank_grads):
        grads = torch.stack([self._flat_padded(g) for g in rank_grads])  # (W, padded)
        flat_p = self._flat_padded(self.params)
        new_shards = []
        for r in range(self.world):
            lo, hi = r * self.shard, (r + 1) * self.shard
            g = grads[:, lo:hi].sum(0)  # SUM without / W: Adam almost hides it in the params, not in its state
            st = self.state[r]
            st["step"] += 1
            t = st["step"]
            st["exp_avg"].mul_(self.b1).add_(g, alpha=1 - self.b1)
            st["exp_avg_sq"].mul_(self.b2).addcmul_(g, g, value=1 - self.b2)
            denom = st["exp_avg_sq"].sqrt() / math.sqrt(1 - self.b2**t) + self.eps
            new_shards.append(flat_p[lo:hi] - self.lr / (1 - self.b1**t) * st["exp_avg"] / denom)
        flat_p = torch.cat(new_shards)  # all-gather: every rank gets every updated shard
        offset = 0
        for p in self.params:
            p.copy_(flat_p[offset:offset + p.numel()].view_as(p))
            offset += p.numel()

    def shard_state(self, rank):
        return self.state[rank]
