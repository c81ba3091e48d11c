import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("two-params", {"shapes": [[3, 2], [2]], "scale": 2.0, "max_norm": 1.0, "clip_value": 0.5},
             public=True, seed=1, what="total L2 norm over two parameters, clipped to 1"),
        Case("no-clip-needed", {"shapes": [[2, 2], [3]], "scale": 0.1, "max_norm": 5.0, "clip_value": 1.0},
             public=True, seed=2, what="total norm below max_norm: gradients unchanged"),
        Case("uneven-params", {"shapes": [[4, 5], [1], [5]], "scale": 1.0, "scales": [0.1, 30.0, 0.2],
                               "max_norm": 2.0, "clip_value": 0.3}, seed=3,
             what="one parameter dominates: all are scaled by the same coefficient"),
        Case("inf-norm", {"shapes": [[3, 4], [4]], "scale": 3.0, "max_norm": 0.5, "norm_type": "inf",
                          "clip_value": 2.0}, seed=4, what="norm_type = inf: the largest absolute gradient"),
        Case("l1-norm", {"shapes": [[2, 3], [3]], "scale": 1.0, "max_norm": 1.5, "norm_type": 1.0,
                         "clip_value": 0.1}, seed=5, what="norm_type = 1"),
        Case("some-without-grad", {"shapes": [[3, 3], [3], [2, 2]], "no_grad": [1], "scale": 1.0,
                                   "max_norm": 0.7, "clip_value": 0.4}, seed=6,
             what="parameters whose .grad is None are skipped and stay None"),
        Case("generator", {"shapes": [[3, 2], [2]], "scale": 2.0, "max_norm": 0.8, "clip_value": 0.5,
                           "pass_as": "generator"}, seed=7,
             what="parameters passed as a generator (model.parameters()) are read only once"),
        Case("single-tensor", {"shapes": [[5]], "scale": 1.0, "max_norm": 0.9, "clip_value": 0.25,
                               "pass_as": "single"}, seed=8, what="a single tensor instead of an iterable"),
        Case("norm-equals-max", {"shapes": [[2], [1]], "values": [[3.0, 4.0], [0.0]], "scale": 1.0,
                                 "max_norm": 5.0, "clip_value": 3.5}, seed=10,
             what="total norm exactly max_norm: still scaled by max_norm / (total + 1e-6)"),
        Case("small-total", {"shapes": [[3], [2, 2]], "scale": 0.2, "max_norm": 0.3, "clip_value": 0.1}, seed=11,
             shrink=(), what="total norm below 1: the 1e-6 in the coefficient is visible"),
        Case("all-without-grad", {"shapes": [[2], [3]], "no_grad": [0, 1], "scale": 1.0, "max_norm": 1.0,
                                  "clip_value": 1.0}, seed=9, what="no gradients at all: total norm 0"),
    ]


def make_inputs(seed, shapes, scale, max_norm, clip_value, scales=None, norm_type=2.0, no_grad=(),
                pass_as="list", values=None):
    g = torch.Generator().manual_seed(seed)
    inputs = {"shapes": [list(s) for s in shapes], "max_norm": max_norm, "clip_value": clip_value,
              "norm_type": norm_type, "pass_as": pass_as}
    for i, s in enumerate(shapes):
        if i not in no_grad:
            k = scales[i] if scales else scale
            inputs[f"g{i}"] = torch.randn(s, generator=g, dtype=torch.float64) * k
            if values is not None:
                inputs[f"g{i}"] = torch.tensor(values[i], dtype=torch.float64).view(s)
    return inputs


def oracle(inputs):
    from pathlib import Path
    import types

    mod = types.ModuleType("clip_harness")
    path = Path(__file__).with_name("harness.py")
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), mod.__dict__)
    def clip_value(parameters, clip_value):
        # torch 2.13's clip_grad_value_ raises on an iterable with no gradients at all; the task says no-op
        params = [parameters] if isinstance(parameters, torch.Tensor) else list(parameters)
        if any(p.grad is not None for p in params):
            torch.nn.utils.clip_grad_value_(params, clip_value)

    builtin = types.SimpleNamespace(clip_grad_norm_=torch.nn.utils.clip_grad_norm_, clip_grad_value_=clip_value)
    return mod.run(builtin, inputs)
