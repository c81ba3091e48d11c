import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"b": 2, "c": 1, "h": 4, "w": 4, "nc": 3, "lam": 0.7, "perm": [1, 0], "box": [-1, 2, 3, 5],
                         "y": [0, 2]}, public=True, seed=1, what="the worked example: a box clipped at the top and right"),
        Case("inside-box", {"b": 3, "c": 3, "h": 5, "w": 6, "nc": 4, "lam": 0.3, "perm": [2, 0, 1], "box": [1, 2, 2, 3]},
             public=True, seed=2, what="a box inside a 5x6 image, a 3-cycle permutation"),
        Case("negative-corner", {"b": 3, "c": 2, "h": 6, "w": 6, "nc": 5, "lam": 0.5, "perm": [1, 2, 0],
                                 "box": [-3, -2, 5, 4]}, seed=3,
             what="top and left negative: the box is clipped, not wrapped around"),
        Case("outside", {"b": 2, "c": 1, "h": 4, "w": 5, "nc": 2, "lam": 1.0, "perm": [1, 0], "box": [4, 0, 3, 3]},
             seed=4, what="a box entirely outside: nothing pasted, lam = 1"),
        Case("covers-all", {"b": 4, "c": 2, "h": 3, "w": 4, "nc": 6, "lam": 0.0, "perm": [3, 0, 1, 2],
                            "box": [-2, -2, 9, 9]}, seed=5, what="a box covering the whole image: lam = 0"),
        Case("non-square", {"b": 3, "c": 2, "h": 3, "w": 8, "nc": 4, "lam": 0.25, "perm": [2, 0, 1],
                            "box": [1, 5, 4, 2]}, seed=6, what="3x8 images, box clipped at the bottom"),
        Case("identity-perm", {"b": 3, "c": 1, "h": 4, "w": 4, "nc": 3, "lam": 0.6, "perm": [0, 1, 2],
                               "box": [0, 0, 2, 2]}, seed=7, what="identity permutation: images unchanged"),
        Case("single-image", {"b": 1, "c": 3, "h": 2, "w": 3, "nc": 2, "lam": 0.9, "perm": [0], "box": [1, 1, 1, 1]},
             seed=8, what="a batch of one"),
        Case("float32", {"b": 5, "c": 3, "h": 7, "w": 5, "nc": 10, "lam": 0.35, "perm": [4, 2, 3, 0, 1],
                         "box": [2, -1, 4, 3], "dtype": "float32"}, seed=9, what="float32, five images"),
    ]


def make_inputs(seed, b, c, h, w, nc, lam, perm, box, y=None, dtype="float64"):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(b, c, h, w, generator=g, dtype=torch.float64).to(getattr(torch, dtype))
    labels = torch.tensor(y) if y is not None else torch.randint(0, nc, (b,), generator=g)
    return {"x": x, "y": labels, "lam": lam, "perm": torch.tensor(perm), "box": list(box), "num_classes": nc}


def check(inputs, got):
    if got["input_unchanged"] is False:
        return "the input batch x (or perm) was modified: build the mixed batch in a new tensor"
    return None


def oracle(inputs):
    """Pixel by pixel with Python loops for the box, label by label for the targets."""
    from torchdojo.judge.testing import vjp

    x0, y, perm, nc, lam = inputs["x"], inputs["y"].tolist(), inputs["perm"].tolist(), inputs["num_classes"], inputs["lam"]
    B, _, H, W = x0.shape
    top, left, height, width = inputs["box"]

    def soft(lmb):
        t = torch.zeros(B, nc, dtype=x0.dtype)
        for i in range(B):
            t[i, y[i]] += lmb
            t[i, y[perm[i]]] += 1 - lmb
        return t

    x = x0.clone().requires_grad_(True)
    xm = torch.stack([lam * x[i] + (1 - lam) * x[perm[i]] for i in range(B)])
    out = {"mixup_x": xm, "mixup_y": soft(lam)}
    (out["mixup_x_vjp"],) = vjp(xm, x, seed=1, materialize=True)
    inside = torch.zeros(H, W, dtype=torch.bool)
    for r in range(H):
        for col in range(W):
            inside[r, col] = top <= r < top + height and left <= col < left + width
    x2 = x0.clone().requires_grad_(True)
    xc = torch.stack([torch.where(inside, x2[perm[i]], x2[i]) for i in range(B)])
    lam_c = 1.0 - int(inside.sum()) / (H * W)
    out.update(cutmix_x=xc, cutmix_y=soft(lam_c), cutmix_lam=lam_c)
    (out["cutmix_x_vjp"],) = vjp(xc, x2, seed=2, materialize=True)
    out["input_unchanged"] = True
    return out
