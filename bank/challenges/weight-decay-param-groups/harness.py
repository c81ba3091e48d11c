import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.ln1 = nn.LayerNorm(d)
        self.attn = nn.Linear(d, d)
        self.norm2 = nn.RMSNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d, bias=False))

    def forward(self, x):
        return x + self.mlp(self.norm2(x + self.attn(self.ln1(x))))


class TinyLM(nn.Module):
    def __init__(self, vocab=11, d=4, layers=2, tied=False):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(torch.zeros(6, d))  # a bare parameter: decayed like any weight
        self.blocks = nn.ModuleList([Block(d) for _ in range(layers)])
        self.ln_f = nn.LayerNorm(d, bias=False)
        self.head = nn.Linear(d, vocab, bias=False)
        if tied:
            self.head.weight = self.embed.weight


class LayerScale(nn.Module):  # a 1-D learnable parameter that is NOT a norm: it is decayed
    def __init__(self, d):
        super().__init__()
        self.gamma = nn.Parameter(torch.ones(d))


def build(kind):
    if kind == "lm":
        return TinyLM()
    if kind == "tied-lm":
        return TinyLM(tied=True)
    if kind == "convnet":
        return nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4), nn.ReLU(), nn.Conv2d(4, 4, 3, bias=False),
                             nn.GroupNorm(2, 4), nn.Flatten(), nn.Linear(4, 2))
    if kind == "layerscale":
        return nn.Sequential(nn.Linear(4, 4), LayerScale(4), nn.BatchNorm1d(4), nn.Linear(4, 3))
    if kind == "frozen-embed":
        m = TinyLM(layers=1)
        m.embed.weight.requires_grad_(False)
        m.blocks[0].attn.bias.requires_grad_(False)
        return m
    raise ValueError(kind)


def run(sol, inputs):
    model = build(inputs["model"]).to(torch.float64)
    g = torch.Generator().manual_seed(inputs["seed"])
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(torch.randn(p.shape, generator=g, dtype=torch.float64))
    groups = sol.build_param_groups(model, inputs["weight_decay"], **inputs["kwargs"])
    out = {"names": [list(gr["names"]) for gr in groups], "weight_decay": [float(gr["weight_decay"]) for gr in groups]}
    params = dict(model.named_parameters())
    seen = set()
    for gr in groups:  # the names must describe the tensors actually handed to the optimizer
        for n, p in zip(gr["names"], gr["params"], strict=True):
            if n not in params or params[n] is not p:
                raise ValueError(f"'{n}' is not the name model.named_parameters() gives this parameter "
                                 "(a shared parameter is listed once, under its first name)")
            if id(p) in seen:
                raise ValueError(f"'{n}' is in a group twice")
            seen.add(id(p))
    for p in model.parameters():
        if p.requires_grad:
            p.grad = torch.randn(p.shape, generator=g, dtype=torch.float64)
    opt = torch.optim.AdamW(groups, lr=inputs["lr"])
    for _ in range(2):
        opt.step()
    for name, p in model.named_parameters():
        out["param:" + name] = p.detach().clone()
    return out
