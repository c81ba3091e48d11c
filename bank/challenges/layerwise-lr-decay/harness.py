import torch
from torch import nn


class Embed(nn.Module):
    def __init__(self, vocab, d, ctx):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(torch.zeros(ctx, d))


class Block(nn.Module):
    def __init__(self, d, layer_scale, rms):
        super().__init__()
        norm = nn.RMSNorm if rms else nn.LayerNorm
        self.ln1 = norm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln2 = norm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))
        if layer_scale:
            self.gamma = nn.Parameter(torch.full((d,), 0.1))  # layer scale: 1-D, but neither a bias nor a norm


class Model(nn.Module):
    def __init__(self, blocks, d=4, vocab=7, ctx=5, layer_scale=False, rms=False, head_bias=True):
        super().__init__()
        self.embed = Embed(vocab, d, ctx)
        self.blocks = nn.ModuleList(Block(d, layer_scale, rms) for _ in range(blocks))
        self.norm = (nn.RMSNorm if rms else nn.LayerNorm)(d)
        self.head = nn.Linear(d, vocab, bias=head_bias)


def build(inputs):
    model = Model(**inputs["model"]).double()
    g = torch.Generator().manual_seed(inputs["seed"])
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(torch.randn(p.shape, generator=g, dtype=torch.float64))
    for name, p in model.named_parameters():
        if any(name.startswith(f) for f in inputs["frozen"]):
            p.requires_grad_(False)
    return model


def evaluate(model, groups, inputs):
    named = dict(model.named_parameters())
    count, lrs, wds, wrong_tensor = {}, {}, {}, []
    for grp in groups:
        for n, p in zip(grp["names"], grp["params"], strict=True):
            count[n] = count.get(n, 0) + 1
            lrs[n], wds[n] = float(grp["lr"]), float(grp["weight_decay"])
            if named.get(n) is not p:
                wrong_tensor.append(n)
    out = {"lr": lrs, "weight_decay": wds, "count": count, "wrong_tensor": sorted(wrong_tensor)}
    # one real AdamW step with these groups: every trainable parameter moves by its own lr and decay
    g = torch.Generator().manual_seed(inputs["seed"] + 1)
    loss = sum((p * torch.randn(p.shape, generator=g, dtype=torch.float64)).sum()
               for p in named.values() if p.requires_grad)
    opt = torch.optim.AdamW([{k: v for k, v in grp.items() if k != "names"} for grp in groups], lr=123.0)
    loss.backward()
    opt.step()
    out["after_step"] = torch.cat([p.detach().reshape(-1) for p in named.values()])
    return out


def run(sol, inputs):
    model = build(inputs)
    groups = sol.layerwise_param_groups(model, inputs["lr"], inputs["decay"], inputs["weight_decay"])
    return evaluate(model, list(groups), inputs)
