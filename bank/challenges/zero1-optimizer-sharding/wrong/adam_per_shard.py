# expect: Rule Violation
import torch


class Zero1Adam:
    # the ZeroRedundancyOptimizer way: a real torch.optim.Adam per shard (banned here)
    def __init__(self, params, world_size, lr=1e-3, betas=(0.9, 0.999), eps=1e-8):
        self.params, self.world = list(params), world_size
        n = sum(p.numel() for p in self.params)
        self.shard = -(-n // world_size)
        self.pad = self.shard * world_size - n
        flat = torch.cat([p.detach().reshape(-1) for p in self.params] + [self.params[0].new_zeros(self.pad)])
        self.shards = [flat[r * self.shard:(r + 1) * self.shard].clone().requires_grad_(True) for r in range(world_size)]
        self.opts = [torch.optim.Adam([s], lr=lr, betas=betas, eps=eps) for s in self.shards]

    @torch.no_grad()
    def step(self, rank_grads):
        g = torch.stack([torch.cat([x.reshape(-1) for x in gs] + [gs[0].new_zeros(self.pad)])
                         for gs in rank_grads]).mean(0)
        for r, (s, opt) in enumerate(zip(self.shards, self.opts, strict=True)):
            s.grad = g[r * self.shard:(r + 1) * self.shard].clone()
            opt.step()
        flat = torch.cat([s.detach() for s in self.shards])
        offset = 0
        for p in self.params:
            p.copy_(flat[offset:offset + p.numel()].view_as(p))
            offset += p.numel()

    def shard_state(self, rank):
        st = self.opts[rank].state[self.shards[rank]]
        return {"exp_avg": st["exp_avg"], "exp_avg_sq": st["exp_avg_sq"], "step": int(st["step"])}
