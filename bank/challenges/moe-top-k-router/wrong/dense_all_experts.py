# expect: Wrong Answer
import torch
import torch.nn as nn
import torch.nn.functional as F


class Expert(nn.Module):
    def __init__(self, d_model, d_ff):
        super().__init__()
        self.fc1 = nn.Linear(d_model, d_ff)
        self.fc2 = nn.Linear(d_ff, d_model)

    def forward(self, x):
        return self.fc2(F.gelu(self.fc1(x)))


class MoELayer(nn.Module):
    def __init__(self, d_model, d_ff, num_experts, top_k):
        super().__init__()
        self.top_k = top_k
        self.gate = nn.Linear(d_model, num_experts, bias=False)
        self.experts = nn.ModuleList([Expert(d_model, d_ff) for _ in range(num_experts)])

    def forward(self, x):
        shape, E = x.shape, len(self.experts)
        x = x.reshape(-1, shape[-1])
        probs = torch.softmax(self.gate(x), dim=-1)
        topv, topi = probs.topk(self.top_k, dim=-1)
        w = torch.zeros_like(probs).scatter(1, topi, topv / topv.sum(dim=-1, keepdim=True))  # (N, E)
        # runs every expert on every token and zeroes the unused results: same y, E/k times the compute
        outs = torch.stack([expert(x) for expert in self.experts], dim=1)  # (N, E, D)
        y = (w[..., None] * outs).sum(dim=1)
        f = F.one_hot(topi, E).sum(dim=(0, 1)).to(x.dtype) / (x.size(0) * self.top_k)
        aux = E * (f * probs.mean(dim=0)).sum()
        return y.reshape(shape), aux
