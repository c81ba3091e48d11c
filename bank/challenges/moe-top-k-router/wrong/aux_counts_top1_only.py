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
        x = x.reshape(-1, shape[-1])  # (N, D)
        probs = torch.softmax(self.gate(x), dim=-1)  # (N, E)
        topv, topi = probs.topk(self.top_k, dim=-1)  # (N, k)
        w = topv / topv.sum(dim=-1, keepdim=True)  # renormalise the kept probabilities
        y = torch.zeros_like(x)
        for e, expert in enumerate(self.experts):
            tok, slot = (topi == e).nonzero(as_tuple=True)  # tokens routed to expert e
            if tok.numel() == 0:
                continue
            y = y.index_add(0, tok, expert(x[tok]) * w[tok, slot, None])
        counts = F.one_hot(topi[:, 0], E).sum(dim=0).to(x.dtype)  # only each token's first choice counted
        f = counts / x.size(0)
        P = probs.mean(dim=0)  # full softmax, not the top-k weights
        aux = E * (f * P).sum()
        return y.reshape(shape), aux
