import torch

from torchdojo.judge.testing import Case


def _script(s):
    names = {".": "ok", "I": "inf", "N": "nan", "B": "inf-b"}
    return [names[c] for c in s]


def cases():
    return [
        Case("fp16-clean", {"dtype": "float16", "script": "......",
                            "hp": {"lr": 0.125, "momentum": 0.5, "init_scale": 1024.0, "growth_interval": 2}},
             public=True, seed=1, what="fp16 weights, no overflow: the scale doubles every 2 clean steps"),
        Case("fp16-one-overflow", {"dtype": "float16", "script": "..I...",
                                   "hp": {"lr": 0.125, "momentum": 0.5, "init_scale": 256.0, "growth_interval": 3}},
             public=True, seed=2, what="an inf gradient: the step is skipped and the scale halved"),
        Case("bf16", {"dtype": "bfloat16", "script": "...N....",
                      "hp": {"lr": 0.0625, "momentum": 0.75, "init_scale": 2.0**16, "growth_interval": 3}},
             seed=3, what="bfloat16 weights, a NaN gradient on step 4"),
        Case("natural-overflow", {"dtype": "float16", "script": "." * 14, "big": 8.0,
                                  "hp": {"lr": 0.0078125, "momentum": 0.5, "init_scale": 2.0**24,
                                         "growth_interval": 4}},
             seed=4, what="scale 2^24: the fp16 gradients overflow by themselves until the scale has backed off"),
        Case("one-param-overflows", {"dtype": "float16", "script": "..B..B.",
                                     "hp": {"lr": 0.125, "momentum": 0.5, "init_scale": 64.0, "growth_interval": 2}},
             seed=5, what="only the bias gradient overflows: the whole step is skipped, momentum included"),
        Case("tiny-gradients", {"dtype": "float16", "script": "......", "tiny": 1e-5, "tiny_w": 1e-4, "d": 5, "k": 3, "n": 7,
                                "hp": {"lr": 0.25, "momentum": 0.5, "init_scale": 2.0**12, "growth_interval": 100}},
             seed=6, shrink=(), what="gradients below fp16's smallest normal (6e-5) once unscaled: unscale in fp32"),
        Case("small-updates-accumulate", {"dtype": "float16", "script": "." * 24, "wscale": 8.0,
                                          "hp": {"lr": 0.0009765625, "momentum": 0.0, "init_scale": 2.0**8,
                                                 "growth_interval": 1000}},
             seed=7, what="updates smaller than half an fp16 ulp of the weight: only the fp32 masters keep them"),
        Case("custom-factors", {"dtype": "bfloat16", "script": "....I.....II..",
                                "hp": {"lr": 0.125, "momentum": 0.25, "init_scale": 4.0, "growth_factor": 4.0,
                                       "backoff_factor": 0.25, "growth_interval": 4}},
             seed=8, what="growth_factor 4, backoff_factor 0.25, growth_interval 4; overflow resets the count"),
    ]


def make_inputs(seed, dtype, script, hp, d=4, k=2, n=8, big=1.0, tiny=1e-3, tiny_w=1.0, wscale=0.5):
    g = torch.Generator().manual_seed(seed)
    r = lambda *s: torch.randn(*s, generator=g, dtype=torch.float32)  # noqa: E731
    x = r(n, d)
    x[:, -1] *= tiny  # one feature with very small gradients
    w = wscale * r(d, k)
    w[-1] *= tiny_w  # ... and, where set, a small weight, so that the fp32 master resolves those small updates
    return {"x": x, "y": big * r(n, k), "w": w, "b": 0.1 * r(k), "dtype": dtype,
            "script": _script(script), "hp": dict(hp)}


def check(inputs, got):
    p, m = got["params"], got["master"]
    if m.dtype != torch.float32:
        return f"master weights must be float32, got {m.dtype}"
    if p.shape == m.shape and p.dtype == m.to(p.dtype).dtype and not torch.equal(p, m.to(p.dtype)):
        return "after each step the model's weights must equal the fp32 masters rounded to the weights' dtype"
    return None


def oracle(inputs):
    """The same training with PyTorch's own pieces: torch.amp.GradScaler over torch.optim.SGD on fp32 masters."""
    dt = {"float16": torch.float16, "bfloat16": torch.bfloat16}[inputs["dtype"]]
    hp = dict(inputs["hp"])
    x, y = inputs["x"], inputs["y"]
    w = inputs["w"].to(dt).requires_grad_(True)
    b = inputs["b"].to(dt).requires_grad_(True)
    masters = [w.detach().float().clone().requires_grad_(True), b.detach().float().clone().requires_grad_(True)]
    opt = torch.optim.SGD(masters, lr=hp.pop("lr"), momentum=hp.pop("momentum", 0.0))
    scaler = torch.amp.GradScaler("cpu", **hp)
    losses, taken, scales, ms, ps = [], [], [], [], []
    for event in inputs["script"]:
        w.grad = b.grad = None
        loss = (x @ w.float() + b.float() - y).pow(2).mean()
        losses.append(loss.detach().clone())
        if event in ("inf", "nan"):
            loss = loss + w.float().sum() * float(event)
        elif event == "inf-b":
            loss = loss + b.float()[-1] * float("inf")
        scaler.scale(loss).backward()
        for m, p in zip(masters, (w, b), strict=True):
            m.grad = p.grad.float()
        before = scaler.get_scale()
        scaler.step(opt)
        scaler.update()
        taken.append(scaler.get_scale() >= before)
        with torch.no_grad():
            w.copy_(masters[0])
            b.copy_(masters[1])
        scales.append(float(scaler.get_scale()))
        ms.append(torch.cat([m.detach().reshape(-1) for m in masters]).clone())
        ps.append(torch.cat([w.detach().reshape(-1), b.detach().reshape(-1)]).clone())
    return {"taken": taken, "scale": scales, "loss": torch.stack(losses), "master": torch.stack(ms),
            "params": torch.stack(ps)}
