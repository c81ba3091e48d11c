import math

import torch

from torchdojo.judge.testing import Case

CLIP_INIT = math.log(1 / 0.07)  # CLIP's initial logit_scale, temperature 0.07


def cases():
    return [
        Case("example", {"img": [[1.0, 0.0], [0.0, 1.0]], "txt": [[1.0, 0.0], [1.0, 1.0]], "ls": 0.0},
             public=True, what="the worked example: 2 pairs, logit_scale 0 (scale 1)"),
        Case("random", {"n": 4, "d": 8, "ls": CLIP_INIT}, public=True, seed=1,
             what="4 pairs, 8-dim embeddings, CLIP's initial scale 1/0.07"),
        Case("clamped-scale", {"n": 5, "d": 6, "ls": 5.0}, seed=2, shrink=("n",),
             what="logit_scale 5 > ln(100): the scale is 100 and logit_scale gets no gradient"),
        Case("raw-norms", {"n": 6, "d": 4, "ls": 1.0, "mag": 40.0}, seed=3, shrink=("n",),
             what="embeddings with norms around 80: they must be L2-normalised"),
        Case("batch-one", {"n": 1, "d": 5, "ls": CLIP_INIT}, seed=4,
             what="one pair: the loss is 0 and every gradient is 0"),
        Case("more-pairs-than-dims", {"n": 9, "d": 3, "ls": 2.0}, seed=5, shrink=("n",),
             what="N > D (a non-square logit matrix would break a shape assumption)"),
        Case("float32-near-cap", {"n": 8, "d": 16, "ls": 4.59, "cluster": True, "dtype": "float32"}, seed=6,
             shrink=("n",), what="float32, scale about 98.5, all embeddings in a narrow cone: logits near 97 "
                                 "overflow exp in float32 unless shifted"),
        Case("asymmetric", {"n": 7, "d": 8, "ls": 3.0, "aligned": True, "skew": True}, seed=7, shrink=("n",),
             what="several images resemble one text: the image->text and text->image losses differ"),
        Case("larger-batch", {"n": 32, "d": 16, "ls": CLIP_INIT, "aligned": True, "noise": 1.5}, seed=8,
             shrink=("n",),
             what="32 pairs"),
    ]


def make_inputs(seed, ls, img=None, txt=None, n=1, d=1, mag=1.0, aligned=False, noise=0.1, skew=False,
                cluster=False, dtype="float64"):
    g = torch.Generator().manual_seed(seed)
    f64 = torch.float64
    if img is not None:
        image, text = torch.tensor(img, dtype=f64), torch.tensor(txt, dtype=f64)
    else:
        image = torch.randn(n, d, generator=g, dtype=f64) * mag
        text = torch.randn(n, d, generator=g, dtype=f64) * mag
        if aligned:  # matched pairs point the same way, plus noise
            text = image + noise * text
        if cluster:  # every embedding close to one shared direction: all cosines near 1
            base = 4 * torch.randn(d, generator=g, dtype=f64)
            image = base + 0.1 * image
            text = image + 0.05 * text
        if skew:  # the first three images are all close to text 0
            image[:3] = text[0] + 0.3 * torch.randn(3, d, generator=g, dtype=f64)
        # different norms per row, so normalising the wrong dimension shows
        image = image * (0.5 + torch.rand(n, 1, generator=g, dtype=f64))
        text = text * (0.5 + torch.rand(n, 1, generator=g, dtype=f64))
    dt = torch.float32 if dtype == "float32" else f64
    return {"image_emb": image.to(dt), "text_emb": text.to(dt), "logit_scale": torch.tensor(ls, dtype=dt)}


def check(inputs, got):
    loss = got.get("loss")
    if isinstance(loss, torch.Tensor) and loss.dim() != 0:
        return f"the loss must be a 0-d tensor (the mean over the batch), got shape {tuple(loss.shape)}"
    if isinstance(loss, torch.Tensor) and loss.is_floating_point() and not bool(torch.isfinite(loss)):
        return "the loss is not finite: use a stable log-softmax / cross-entropy (subtract the row maximum)"
    return None


def oracle(inputs):
    """Brute force in float64: explicit norms, a Python loop of stable log-sum-exps over rows and columns."""
    from torchdojo.judge.testing import vjp

    dt = inputs["image_emb"].dtype
    img = inputs["image_emb"].double().requires_grad_(True)
    txt = inputs["text_emb"].double().requires_grad_(True)
    ls = inputs["logit_scale"].double().requires_grad_(True)
    a = img / img.norm(dim=1, keepdim=True)
    b = txt / txt.norm(dim=1, keepdim=True)
    scale = torch.exp(torch.clamp(ls, max=math.log(100.0)))
    n = a.shape[0]

    def nll(row, i):
        m = row.max().detach()
        return -(row[i] - (m + torch.exp(row - m).sum().log()))

    sim = torch.stack([torch.stack([scale * (a[i] * b[j]).sum() for j in range(n)]) for i in range(n)])
    img_to_txt = sum(nll(sim[i], i) for i in range(n)) / n
    txt_to_img = sum(nll(sim[:, j], j) for j in range(n)) / n
    loss = (img_to_txt + txt_to_img) / 2
    gi, gt, gl = vjp(loss.to(dt), (img, txt, ls), seed=1)
    return {"loss": loss.to(dt), "image_grad": gi.to(dt), "text_grad": gt.to(dt), "logit_scale_grad": gl.to(dt)}
