import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"b": 1, "t": 3, "h": 2, "dh": 2, "arange": True}, public=True, seed=1,
             what="x = arange(12).view(1, 3, 4), two heads"),
        Case("two-sequences", {"b": 2, "t": 4, "h": 2, "dh": 3}, public=True, seed=2,
             what="two sequences of four tokens, two heads"),
        Case("one-head", {"b": 2, "t": 5, "h": 1, "dh": 4}, seed=3, shrink=("b", "t"),
             what="a single head (where the layouts agree)"),
        Case("many-heads", {"b": 2, "t": 6, "h": 4, "dh": 2}, seed=4, shrink=("b", "t"),
             what="four heads: no token may see a later one"),
        Case("head-dim-one", {"b": 1, "t": 5, "h": 3, "dh": 1}, seed=5, shrink=("t",),
             what="Dh = 1 (as many heads as features)"),
        Case("heads-ne-tokens", {"b": 3, "t": 2, "h": 5, "dh": 3}, seed=6, shrink=("b",),
             what="more heads than tokens"),
        Case("non-contiguous", {"b": 3, "t": 4, "h": 2, "dh": 2, "noncontig": True}, seed=7, shrink=("b",),
             what="split_heads on a non-contiguous (transposed) input"),
        Case("float32", {"b": 2, "t": 7, "h": 3, "dh": 4, "dtype": "float32"}, seed=8, shrink=("b", "t"),
             what="float32"),
    ]


def make_inputs(seed, b, t, h, dh, arange=False, noncontig=False, dtype="float64"):
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype)
    d = h * dh

    def rnd(*shape, scale=1.0):
        return (torch.randn(*shape, generator=g, dtype=torch.float64) * scale).to(dt)

    x = torch.arange(b * t * d, dtype=dt).view(b, t, d) / (b * t * d) if arange else rnd(b, t, d)
    return {"x": x, "heads": rnd(b, h, t, dh), "n_heads": h, "noncontig": noncontig,
            "w_qkv": rnd(3 * d, d, scale=d ** -0.5), "w_o": rnd(d, d, scale=d ** -0.5)}


def check(inputs, got):
    a, b = got["attn"], got["attn_last_token_changed"]
    if a.shape != b.shape or a.shape != inputs["x"].shape or a.shape[1] < 2:
        return None
    if not torch.allclose(a[:, :-1].detach(), b[:, :-1], atol=1e-5):
        return ("changing only the last token changed the attention output at earlier positions: "
                "the head split/merge mixes positions (tokens see the future)")
    return None


def oracle(inputs):
    """Per head and per position with explicit feature slices and an explicit causal softmax."""
    from torchdojo.judge.testing import vjp

    h = inputs["n_heads"]

    def split(x):
        B, T, D = x.shape
        dh = D // h
        return torch.stack([torch.stack([x[:, t, i * dh:(i + 1) * dh] for t in range(T)], dim=1)
                            for i in range(h)], dim=1)

    def merge(z):
        return torch.cat([z[:, i] for i in range(z.shape[1])], dim=-1)

    def attn(x, w_qkv, w_o):
        D = x.shape[-1]
        proj = x @ w_qkv.T
        q, k, v = split(proj[..., :D]), split(proj[..., D:2 * D]), split(proj[..., 2 * D:])
        T = x.shape[1]
        rows = []
        for t in range(T):
            s = (q[:, :, t:t + 1] * k[:, :, :t + 1]).sum(-1) / (D // h) ** 0.5  # (B, H, t+1)
            w = (s - s.amax(-1, keepdim=True)).exp()
            w = w / w.sum(-1, keepdim=True)
            rows.append((w.unsqueeze(-1) * v[:, :, :t + 1]).sum(2))  # (B, H, Dh)
        return merge(torch.stack(rows, dim=2)) @ w_o.T

    out = {"split": split(inputs["x"]), "merge": merge(inputs["heads"])}
    if inputs.get("noncontig"):
        out["split_noncontiguous"] = split(inputs["x"])
    x, w_qkv, w_o = (inputs[k].clone().requires_grad_(True) for k in ("x", "w_qkv", "w_o"))
    y = attn(x, w_qkv, w_o)
    out["attn"] = y
    out["x_vjp"], out["w_qkv_vjp"], out["w_o_vjp"] = vjp(y, (x, w_qkv, w_o), seed=1)
    x2 = inputs["x"].clone()
    x2[:, -1] += 1.0
    out["attn_last_token_changed"] = attn(x2, inputs["w_qkv"], inputs["w_o"]).detach()
    return out
