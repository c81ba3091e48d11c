from torchdojo.judge.testing import Case


def cases():
    return [
        Case("two-blocks", {"model": {"blocks": 2}, "lr": 1e-3, "decay": 0.75, "weight_decay": 0.05}, public=True,
             seed=1, what="embeddings, 2 blocks, final norm and head"),
        Case("four-blocks-no-head-bias", {"model": {"blocks": 4, "head_bias": False}, "lr": 0.01, "decay": 0.5,
                                          "weight_decay": 0.1}, public=True, seed=2,
             what="4 blocks, decay 0.5, a head without bias"),
        Case("twelve-blocks", {"model": {"blocks": 12}, "lr": 2e-4, "decay": 0.9, "weight_decay": 0.01}, seed=3,
             what="12 blocks: blocks.10 and blocks.11 are not blocks.1 (parse the whole index)"),
        Case("layer-scale", {"model": {"blocks": 3, "layer_scale": True}, "lr": 1e-3, "decay": 0.8,
                             "weight_decay": 0.05}, seed=4,
             what="a 1-D layer-scale vector per block: neither a bias nor a norm, so it is decayed"),
        Case("rmsnorm", {"model": {"blocks": 2, "rms": True}, "lr": 3e-4, "decay": 0.7, "weight_decay": 0.1},
             seed=5, what="RMSNorm layers (weight only) get no weight decay"),
        Case("frozen-embeddings", {"model": {"blocks": 3}, "frozen": ["embed."], "lr": 1e-3, "decay": 0.75,
                                   "weight_decay": 0.05}, seed=6,
             what="frozen embeddings (requires_grad=False) are left out of every group"),
        Case("frozen-first-block", {"model": {"blocks": 3, "layer_scale": True}, "frozen": ["embed.", "blocks.0."],
                                    "lr": 5e-4, "decay": 0.6, "weight_decay": 0.02}, seed=7,
             what="frozen embeddings and first block; the exponents of the others do not change"),
        Case("no-blocks", {"model": {"blocks": 0}, "lr": 1e-3, "decay": 0.5, "weight_decay": 0.05}, seed=8,
             what="L = 0: embeddings at layer 0, norm and head at layer 1"),
        Case("no-decay", {"model": {"blocks": 3}, "lr": 1e-3, "decay": 1.0, "weight_decay": 0.3}, seed=9,
             what="decay = 1: one learning rate everywhere, weight decay still split"),
    ]


def make_inputs(seed, model, lr, decay, weight_decay, frozen=()):
    return {"model": dict(model), "lr": lr, "decay": decay, "weight_decay": weight_decay, "frozen": list(frozen),
            "seed": seed}


def check(inputs, got):
    dup = sorted(n for n, c in got["count"].items() if c > 1)
    if dup:
        return f"parameter {dup[0]} is in more than one group (each trainable parameter exactly once)"
    frozen = [n for n in got["count"] if any(n.startswith(f) for f in inputs["frozen"])]
    if frozen:
        return f"frozen parameter {frozen[0]} (requires_grad=False) is in a group; leave frozen parameters out"
    if got["wrong_tensor"]:
        return f"the tensor listed under the name {got['wrong_tensor'][0]} is not the model's parameter of that name"
    return None


def _load_harness():
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location("lld_harness", Path(__file__).with_name("harness.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def oracle(inputs):
    """Walk the module tree instead of parsing names: embed -> 0, blocks[i] -> i + 1, everything else -> L + 1;
    no weight decay for `bias` parameters and for any parameter of a LayerNorm/RMSNorm module."""
    from torch import nn

    h = _load_harness()
    model = h.build(inputs)
    num = len(model.blocks)
    owner = {}
    for top_name, top in model.named_children():
        for i, blk in enumerate(top) if top_name == "blocks" else [(None, top)]:
            lid = 0 if top_name == "embed" else (i + 1 if top_name == "blocks" else num + 1)
            for mod in blk.modules():
                for pn, p in mod.named_parameters(recurse=False):
                    owner[id(p)] = (lid, pn == "bias" or isinstance(mod, (nn.LayerNorm, nn.RMSNorm)))
    groups = []
    for name, p in model.named_parameters():
        if p.requires_grad:
            lid, skip = owner[id(p)]
            groups.append({"params": [p], "names": [name], "lr": inputs["lr"] * inputs["decay"] ** (num + 1 - lid),
                           "weight_decay": 0.0 if skip else inputs["weight_decay"]})
    return h.evaluate(model, groups, inputs)
