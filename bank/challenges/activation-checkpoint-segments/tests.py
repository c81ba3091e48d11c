import torch

from torchdojo.judge.testing import Case

MLP = ["linear", "tanh", "linear", "gelu", "linear", "tanh", "linear", "gelu", "linear"]


def cases():
    return [
        Case("five-layers-two-segments", {"layers": MLP[:4] + ["linear"], "segments": 2, "batch": 3, "d": 4},
             public=True, seed=1, what="5 layers, 2 segments: [0, 3) checkpointed, [3, 5) run normally"),
        Case("six-layers-three-segments", {"layers": MLP[:5] + ["linear"], "segments": 3, "batch": 2, "d": 3},
             public=True, seed=2, what="6 layers, 3 segments of 2"),
        Case("uneven-split", {"layers": MLP[:7], "segments": 3, "batch": 4, "d": 5}, seed=3,
             what="7 layers in 3 segments: sizes 3, 2, 2 (the first n % k segments are one longer)"),
        Case("one-segment", {"layers": MLP[:5], "segments": 1, "batch": 3, "d": 4}, seed=4,
             what="segments = 1: nothing is checkpointed, a plain forward"),
        Case("segment-per-layer", {"layers": MLP[:6] + ["linear"], "segments": 7, "batch": 2, "d": 3}, seed=5,
             what="segments = number of layers: every layer but the last is checkpointed on its own"),
        Case("input-without-grad", {"layers": MLP[:6] + ["linear"], "segments": 3, "batch": 5, "d": 4, "x_grad": False},
             seed=6, what="the input does not require grad (a data batch): the parameters still get their gradients"),
        Case("dropout", {"layers": ["linear", "dropout", "gelu", "linear", "dropout", "tanh", "linear", "dropout",
                                    "linear"], "segments": 4, "batch": 6, "d": 5}, seed=7,
             what="dropout inside checkpointed segments: the recomputation must reuse the same masks"),
        Case("layernorm-large", {"layers": ["linear", "norm", "gelu", "linear", "norm", "tanh", "linear", "norm",
                                            "gelu", "linear", "linear"], "segments": 4, "batch": 3, "d": 6,
                                 "scale": 50.0, "x_grad": False}, seed=8,
             what="11 layers in 4 segments (3, 3, 3, 2) with LayerNorm, large inputs, input without grad"),
    ]


def make_inputs(seed, layers, segments, batch, d, x_grad=True, scale=1.0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(batch, d, generator=g, dtype=torch.float64) * scale
    return {"x": x, "x_grad": x_grad, "layers": list(layers), "segments": segments, "d": d, "seed": seed}


def check(inputs, got):
    fwd, bwd = got["forward_calls"], got["backward_recomputes"]
    if torch.isnan(got["grads"]).any():
        return "some parameters received no gradient: a segment was cut out of the autograd graph"
    if any(c != 1 for c in fwd):
        return f"each layer must run exactly once in the forward pass; forward calls per layer: {fwd}"
    if inputs["segments"] > 1 and not any(bwd):
        return "no layer ran again during backward: the segments are not checkpointed (all activations were stored)"
    if bwd[-1]:
        return "the last segment was recomputed in backward: run it normally, checkpointing it saves nothing"
    return None


def _load_harness():
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location("ckpt_harness", Path(__file__).with_name("harness.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def oracle(inputs):
    """Outputs and gradients of the plain (uncheckpointed) forward; the recompute counts from the split rule."""
    h = _load_harness()
    out = h.run_model(lambda model, x, k: model(x), inputs)
    n, k = len(inputs["layers"]), inputs["segments"]
    sizes = [n // k + (1 if i < n % k else 0) for i in range(k)]
    out["backward_recomputes"] = [1] * sum(sizes[:-1]) + [0] * sizes[-1]
    return out
