import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"values": [[[1.0, 2.0, 3.0]]], "w": [[[1.0, 10.0, 100.0]]], "stride": 2, "padding": 1,
                         "output_padding": 1, "bias": False}, public=True,
             what="the worked example: stride 2, padding 1, output_padding 1"),
        Case("channels", {"n": 2, "c_in": 3, "c_out": 2, "length": 5, "k": 3, "stride": 2, "padding": 1}, public=True,
             seed=1, what="several channels, stride 2, padding 1, with bias"),
        Case("dilated-overlap", {"n": 2, "c_in": 2, "c_out": 3, "length": 7, "k": 3, "dilation": 3, "padding": 2},
             seed=2, shrink=("n", "length"), what="stride 1, dilation 3: taps land 3 apart and overlap"),
        Case("output-padding", {"n": 2, "c_in": 2, "c_out": 2, "length": 4, "k": 4, "stride": 3, "padding": 2,
                                "output_padding": 2}, seed=3, shrink=("n",),
             what="output_padding 2 with padding 2: the extra positions hold real contributions, not zeros"),
        Case("groups", {"n": 2, "c_in": 4, "c_out": 6, "length": 6, "k": 3, "stride": 2, "padding": 1, "groups": 2},
             seed=4, shrink=("n", "length"), what="groups = 2: output channels [0, 3) come from input channels [0, 2)"),
        Case("depthwise", {"n": 1, "c_in": 3, "c_out": 3, "length": 6, "k": 3, "dilation": 2, "output_padding": 1,
                           "groups": 3}, seed=5, shrink=("length",),
             what="depthwise (groups = channels), dilation 2, output_padding 1"),
        Case("gaps", {"n": 2, "c_in": 3, "c_out": 2, "length": 5, "k": 2, "stride": 4, "bias": False}, seed=6,
             shrink=("n", "length"), what="stride 4 > kernel span: some outputs receive no contribution"),
        Case("length-one", {"n": 3, "c_in": 2, "c_out": 4, "length": 1, "k": 3, "stride": 2}, seed=7, shrink=("n",),
             what="a length-1 input gives one copy of the kernel"),
        Case("kernel-one", {"n": 2, "c_in": 3, "c_out": 2, "length": 4, "k": 1, "stride": 3, "output_padding": 2},
             seed=8, shrink=("n", "length"), what="K = 1 with stride 3 and output_padding 2"),
        Case("all-options", {"n": 3, "c_in": 6, "c_out": 4, "length": 9, "k": 4, "stride": 3, "padding": 2,
                             "output_padding": 1, "groups": 2, "dilation": 2}, seed=9, shrink=("n", "length"),
             what="stride, padding, output_padding, groups and dilation together"),
    ]


def make_inputs(seed, values=None, w=None, n=1, c_in=1, c_out=1, length=1, k=1, stride=1, padding=0,
                output_padding=0, groups=1, dilation=1, bias=True):
    g = torch.Generator().manual_seed(seed)
    f64 = torch.float64
    if values is not None:
        x, weight = torch.tensor(values, dtype=f64), torch.tensor(w, dtype=f64)
    else:
        x = torch.randn(n, c_in, length, generator=g, dtype=f64)
        weight = torch.randn(c_in, c_out // groups, k, generator=g, dtype=f64)
    b = torch.randn(weight.shape[1] * groups, generator=g, dtype=f64) if bias else None
    return {"x": x, "weight": weight, "bias": b, "stride": stride, "padding": padding,
            "output_padding": output_padding, "groups": groups, "dilation": dilation}


def check(inputs, got):
    y = got.get("y")
    x, w = inputs["x"], inputs["weight"]
    s, p, op, d = inputs["stride"], inputs["padding"], inputs["output_padding"], inputs["dilation"]
    l_out = (x.shape[-1] - 1) * s - 2 * p + d * (w.shape[-1] - 1) + op + 1
    if isinstance(y, torch.Tensor) and y.dim() == 3 and y.shape[-1] != l_out:
        return (f"output length {y.shape[-1]}, expected (L_in - 1)*stride - 2*padding + dilation*(K - 1) "
                f"+ output_padding + 1 = {l_out}")
    return None


def oracle(inputs):
    import torch.nn.functional as F

    from torchdojo.judge.testing import vjp

    x = inputs["x"].clone().requires_grad_(True)
    w = inputs["weight"].clone().requires_grad_(True)
    kw = {k: inputs[k] for k in ("stride", "padding", "output_padding", "groups", "dilation")}
    if inputs["bias"] is not None:
        b = inputs["bias"].clone().requires_grad_(True)
        y = F.conv_transpose1d(x, w, b, **kw)
        gx, gw, gb = vjp(y, (x, w, b), seed=1)
        return {"y": y, "x_grad": gx, "weight_grad": gw, "bias_grad": gb}
    y = F.conv_transpose1d(x, w, None, **kw)
    gx, gw = vjp(y, (x, w), seed=1)
    return {"y": y, "x_grad": gx, "weight_grad": gw}
